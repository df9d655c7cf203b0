import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { paginateInOne, relatedValue } from '../../common/listing/page-query';
import type { PageRequest, Paginated } from '../../common/listing/pagination';
import type { Values } from '../writing/order-writer';
import { OrderRefund } from '../entities/order-refund.entity';

/**
 * The rows of `order_refund` (pretix doc "Order refund endpoints"). Stateless; every method runs on the caller's
 * `em` (the caller holds the order's lock for writes).
 */
@Injectable()
export class OrderRefundQueries {
  /** The refunds of an order, by `local_id`. */
  list(em: EntityManager, orderId: number): Promise<OrderRefund[]> {
    return em.find(OrderRefund, { where: { orderId }, order: { localId: 'ASC' } });
  }

  /**
   * One page of the order's refunds by `local_id` (offset or cursor, README "Cursor pagination"), each with the
   * `local_id` of its payment; one statement.
   */
  page<T>(
    em: EntityManager,
    orderId: number,
    page: PageRequest,
    present: (refund: OrderRefund, paymentLocalId: number | null) => T,
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(OrderRefund)
      .createQueryBuilder('r')
      .where('r.order_id = :orderId', { orderId })
      .orderBy('r.local_id', 'ASC')
      .addOrderBy('r.id', 'ASC');
    const related = {
      payment: relatedValue<number | null>(
        'SELECT p.local_id FROM order_payment p WHERE p.id = r.payment_id',
      ),
    };
    return paginateInOne(qb, page, related, (refund, r) => present(refund, r.payment));
  }

  /** Inserts a refund. */
  add(em: EntityManager, values: Values<OrderRefund>): Promise<OrderRefund> {
    return em.save(em.create(OrderRefund, values));
  }

  /** The refund `localId` of the order, or null. */
  one(em: EntityManager, orderId: number, localId: number): Promise<OrderRefund | null> {
    return em.findOne(OrderRefund, { where: { orderId, localId } });
  }

  /** Sets the state of a refund (and its execution date, when given); also on `refund`. */
  async setState(em: EntityManager, refund: OrderRefund, state: string, executionDate?: Date): Promise<void> {
    refund.state = state;
    if (executionDate) refund.executionDate = executionDate;
    await em.update(OrderRefund, { id: refund.id }, { state, ...(executionDate ? { executionDate } : {}) });
  }
}
