import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
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

  /** Inserts a refund. */
  add(em: EntityManager, values: Values<OrderRefund>): Promise<OrderRefund> {
    return em.save(em.create(OrderRefund, values));
  }

  /** The refund `localId` of the order, or null. */
  one(em: EntityManager, orderId: number, localId: number): Promise<OrderRefund | null> {
    return em.findOne(OrderRefund, { where: { orderId, localId } });
  }

  /** The order's refunds by `local_id` with their payments (`payment`), in one statement (an order has few). */
  withPayments(em: EntityManager, orderId: number): Promise<OrderRefund[]> {
    return em.find(OrderRefund, {
      where: { orderId },
      relations: { payment: true },
      order: { localId: 'ASC' },
    });
  }

  /** Sets the state of a refund (and its execution date, when given); also on `refund`. */
  async setState(em: EntityManager, refund: OrderRefund, state: string, executionDate?: Date): Promise<void> {
    refund.state = state;
    if (executionDate) refund.executionDate = executionDate;
    await em.update(OrderRefund, { id: refund.id }, { state, ...(executionDate ? { executionDate } : {}) });
  }
}
