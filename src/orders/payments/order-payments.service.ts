import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import { isoUtc } from '../../common/values/datetime';
import { toMoney } from '../../common/values/money';
import { logOrder, OrderActor } from '../writing/order-log';
import { OrderPayment } from '../entities/order-payment.entity';
import { FirstPayment, OPEN_PAYMENT_STATES, openAmount } from './order-payments.rules';
import { OrderWriter } from '../writing/order-writer';
import type { Order } from '../entities/order.entity';

/**
 * The payments of orders (compat §4.4 `payments`, actions `mark_paid`, `mark_pending`, `mark_canceled`,
 * `approve`): the first payment of a new order, settling an order with a confirmed payment of the open amount,
 * canceling open or confirmed payments, with their log entries (`pretix.event.order.payment.*`). Rows are written
 * through {@link OrderWriter}; the order's own status is the caller's change. Gift cards and invoices build on it.
 */
@Injectable()
export class OrderPayments {
  constructor(
    private readonly writer: OrderWriter,
    private readonly audit: AuditLogService,
  ) {}

  /** The payments of an order, by `local_id`. */
  list(em: EntityManager, orderId: number): Promise<OrderPayment[]> {
    return em.find(OrderPayment, { where: { orderId }, order: { localId: 'ASC' } });
  }

  /** Adds the first payment of a new order (`local_id` 1) of the order's total, created at `now`. */
  async open(em: EntityManager, order: Order, payment: FirstPayment, now: Date): Promise<void> {
    await this.writer.addPayment(em, {
      orderId: order.id,
      localId: 1,
      state: payment.state,
      amount: order.total,
      provider: payment.provider,
      created: now,
      paymentDate: payment.paymentDate,
      info: payment.info,
    });
  }

  /**
   * Settles the order with a confirmed payment of the open amount from `provider`: an open payment of that
   * provider and exact amount is confirmed, other open payments are canceled, else a new payment is added (next
   * `local_id`). Logs `.payment.confirmed` and `.paid`. The caller marks the order paid.
   */
  async settle(
    em: EntityManager,
    actor: OrderActor,
    order: Order,
    provider: string,
    now: Date,
  ): Promise<void> {
    const payments = await this.list(em, order.id);
    const amount = openAmount(order.total, payments);
    const reuse = payments.find(
      (p) => OPEN_PAYMENT_STATES.includes(p.state) && p.provider === provider && amount.eq(p.amount),
    );
    await this.cancelOpen(
      em,
      actor,
      order,
      payments.filter((p) => p !== reuse),
    );
    let payment: OrderPayment;
    if (reuse) {
      await this.writer.setPaymentState(em, reuse, 'confirmed', now);
      payment = reuse;
    } else {
      payment = await this.writer.addPayment(em, {
        orderId: order.id,
        localId: payments.reduce((max, p) => Math.max(max, p.localId), 0) + 1,
        state: 'confirmed',
        amount: toMoney(amount),
        provider,
        created: now,
        paymentDate: now,
        info: {},
      });
    }
    await logOrder(this.audit, em, actor, order.id, 'pretix.event.order.payment.confirmed', {
      local_id: payment.localId,
      provider: payment.provider,
    });
    await logOrder(this.audit, em, actor, order.id, 'pretix.event.order.paid', {
      provider: payment.provider,
      info: {},
      date: isoUtc(now),
      force: false,
    });
  }

  /** Cancels the open (created or pending) payments among `payments`; logs `.payment.canceled` for each. */
  async cancelOpen(
    em: EntityManager,
    actor: OrderActor,
    order: Order,
    payments: OrderPayment[],
  ): Promise<void> {
    for (const p of payments.filter((x) => OPEN_PAYMENT_STATES.includes(x.state))) {
      await this.writer.setPaymentState(em, p, 'canceled');
      await logOrder(this.audit, em, actor, order.id, 'pretix.event.order.payment.canceled', {
        local_id: p.localId,
        provider: p.provider,
      });
    }
  }

  /** Cancels the confirmed payments (their money no longer settles the order: `mark_pending`). */
  async cancelConfirmed(em: EntityManager, order: Order): Promise<void> {
    await this.writer.movePayments(em, order.id, 'confirmed', 'canceled');
  }
}
