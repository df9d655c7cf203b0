import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { paginateRows } from '../../common/listing/page-query';
import type { PageRequest, Paginated } from '../../common/listing/pagination';
import { Order } from '../entities/order.entity';
import { OrderPayment } from '../entities/order-payment.entity';

/**
 * The reads and locks of the order payment endpoints (pretix doc "Order payment endpoints"). Stateless; every
 * method runs on the caller's `em`.
 */
@Injectable()
export class OrderPaymentQueries {
  /** The order with `code` of the event, or null; with `lock`, its row is locked `FOR UPDATE`. */
  order(em: EntityManager, eventId: number, code: string, lock = false): Promise<Order | null> {
    if (code.length > 16) return Promise.resolve(null);
    return em.findOne(Order, {
      where: { eventId, code },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** One page of the order's payments by `local_id` (offset or cursor, README "Cursor pagination"); one statement. */
  page<T>(
    em: EntityManager,
    orderId: number,
    page: PageRequest,
    present: (rows: OrderPayment[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(OrderPayment)
      .createQueryBuilder('p')
      .where('p.order_id = :orderId', { orderId })
      .orderBy('p.local_id', 'ASC')
      .addOrderBy('p.id', 'ASC');
    return paginateRows(qb, page, present);
  }

  /** The payment `localId` of the order, or null. */
  one(em: EntityManager, orderId: number, localId: number): Promise<OrderPayment | null> {
    return em.findOne(OrderPayment, { where: { orderId, localId } });
  }

  /** All payments of the order by `local_id`. */
  all(em: EntityManager, orderId: number): Promise<OrderPayment[]> {
    return em.find(OrderPayment, { where: { orderId }, order: { localId: 'ASC' } });
  }
}
