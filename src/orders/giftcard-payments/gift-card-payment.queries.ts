import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { OrderPayment } from '../entities/order-payment.entity';
import { OrderRefund } from '../entities/order-refund.entity';

/**
 * The writes of gift card payments on the orders' own rows: the `info` a payment or refund keeps of its card
 * (pretix `info_data`: `gift_card`, `gift_card_secret`, `transaction_id`). Stateless; on the caller's `em` (the
 * caller holds the order's lock).
 */
@Injectable()
export class GiftCardPaymentQueries {
  /** Replaces the `info` of a payment; also on `payment`. */
  async setPaymentInfo(
    em: EntityManager,
    payment: OrderPayment,
    info: Record<string, unknown>,
  ): Promise<void> {
    payment.info = info;
    await em.update(OrderPayment, { id: payment.id }, { info } as QueryDeepPartialEntity<OrderPayment>);
  }

  /** Replaces the `info` of a refund; also on `refund`. */
  async setRefundInfo(em: EntityManager, refund: OrderRefund, info: Record<string, unknown>): Promise<void> {
    refund.info = info;
    await em.update(OrderRefund, { id: refund.id }, { info } as QueryDeepPartialEntity<OrderRefund>);
  }
}
