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
}
