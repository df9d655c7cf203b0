import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { voucherUses } from '../../catalogue/vouchers/voucher-redemption.rules';
import { VoucherRedemptions } from '../../catalogue/vouchers/voucher-redemptions.service';
import { InvalidRequest, NotFound, ValidationFailed } from '../../common/errors';
import { setLockTimeout } from '../../common/persistence/lock-timeout';
import { withOneConnection } from '../../common/persistence/one-connection';
import { isoUtc, parseDateTime } from '../../common/values/datetime';
import { Decimal, toMoney } from '../../common/values/money';
import { AppConfig } from '../../config/app-config';
import type { Event } from '../../organizers/event.entity';
import { ActionRefused } from '../actions/order-actions.rules';
import { OrderPlaces } from '../actions/order-places';
import { GIFT_CARD_PROVIDER } from '../giftcard-payments/gift-card-payment.rules';
import { GiftCardPayments } from '../giftcard-payments/gift-card-payments.service';
import type { Order } from '../entities/order.entity';
import type { OrderPayment } from '../entities/order-payment.entity';
import type { OrderRefund } from '../entities/order-refund.entity';
import { OrderRefundJson } from '../presentation/order-parts.presenter';
import { OrderPaymentJson, toOrderPaymentJson } from '../presentation/order.presenter';
import { toOrderRefundJson } from '../presentation/order-parts.presenter';
import { OrderRefundQueries } from '../refunds/order-refund.queries';
import { AfterCommit, OrderHooks, OrderTransition } from '../writing/order-hooks';
import { logOrder, OrderActor } from '../writing/order-log';
import { OrderChange, OrderWriter } from '../writing/order-writer';
import type {
  ConfirmOrderPaymentDto,
  CreateOrderPaymentDto,
  RefundOrderPaymentDto,
} from './order-payment.dto';
import { OrderPaymentQueries } from './order-payment.queries';
import {
  OPEN_PAYMENT_STATES,
  PAYMENT_MESSAGES,
  pendingSum,
  refundAboveAvailable,
  refundedOf,
} from './order-payments.rules';
import { OrderPayments } from './order-payments.service';
import { OrderTransactionLog } from '../transactions/order-transaction-log';

/** The locked order of a payment or refund write, inside its transaction. */
export interface PaymentContext extends OrderActor {
  em: EntityManager;
  order: Order;
  now: Date;
  /** The order status change the write makes (applied by {@link OrderPaymentActions.run}). */
  change?: OrderChange;
  transition?: OrderTransition;
}

/**
 * The payment writes of pretix's "Order payment endpoints": create, confirm, cancel and refund. Each runs in one
 * transaction that locks the order row (`FOR UPDATE`, bounded by `ORDER_LOCK_TIMEOUT_MS`), assigns `local_id`s
 * under that lock, logs pretix's action types and keeps the order's status consistent with its pending sum
 * (payments confirmed minus refunds counted): an order becomes paid (`p`) when covered, through the same
 * quota re-check as `mark_paid` for an expired one; a paid order whose payments no longer cover it after a
 * refund becomes pending again (or canceled with `mark_canceled`). Refusals are 400 with pretix's bodies.
 * A `giftcard` payment takes its amount from the card named in its `info` when it is confirmed, and a refund of
 * one puts the amount back on that card, both in the same transaction ({@link GiftCardPayments}).
 */
@Injectable()
export class OrderPaymentActions {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly config: AppConfig,
    private readonly audit: AuditLogService,
    private readonly queries: OrderPaymentQueries,
    private readonly refunds: OrderRefundQueries,
    private readonly payments: OrderPayments,
    private readonly places: OrderPlaces,
    private readonly redemptions: VoucherRedemptions,
    private readonly writer: OrderWriter,
    private readonly hooks: OrderHooks,
    private readonly transactions: OrderTransactionLog,
    private readonly giftCards: GiftCardPayments,
  ) {}

  /**
   * Records a payment (next `local_id`). One created `confirmed` is confirmed at once (and may pay the order; a
   * quota refusal for an expired order leaves the payment confirmed and the order unpaid, as pretix). Logs
   * `pretix.event.order.payment.started`. A confirmed `giftcard` payment takes its amount from the card of its
   * `info` (`gift_card` id or `gift_card_secret`) at once.
   * @throws NotFound unknown order
   * @throws ValidationFailed `{"info": [...]}` for a confirmed `giftcard` payment that names no card
   * @throws InvalidRequest pretix's gift card message (card not accepted, currency, value, test mode, expired);
   *   nothing written
   */
  create(
    event: Event,
    principal: Principal,
    code: string,
    body: CreateOrderPaymentDto,
  ): Promise<OrderPaymentJson> {
    return this.run(event, principal, code, async (ctx) => {
      const all = await this.payments.list(ctx.em, ctx.order.id);
      const confirm = body.state === 'confirmed';
      const payment = await this.writer.addPayment(ctx.em, {
        orderId: ctx.order.id,
        localId: all.reduce((max, p) => Math.max(max, p.localId), 0) + 1,
        state: confirm ? 'pending' : body.state,
        amount: toMoney(new Decimal(String(body.amount).trim())),
        provider: body.provider,
        created: ctx.now,
        paymentDate: body.payment_date ? parseDateTime(body.payment_date) : null,
        info: body.info ?? {},
      });
      if (confirm) {
        try {
          await this.confirmLocked(ctx, payment, body.force ?? false);
        } catch (err) {
          if (!(err instanceof ActionRefused)) throw err;
        }
      }
      await this.log(ctx, 'pretix.event.order.payment.started', {
        local_id: payment.localId,
        provider: payment.provider,
      });
      return toOrderPaymentJson(payment);
    });
  }

  /**
   * Confirms a created or pending payment; the order becomes paid when its pending sum is covered (an expired
   * order takes its places again unless `force`; a canceled order stays canceled).
   * @throws NotFound unknown order or payment
   * @throws InvalidRequest `Invalid state of payment`; the quota message for an expired order; pretix's gift card
   *   message for a `giftcard` payment whose card cannot pay (nothing written)
   */
  confirm(
    event: Event,
    principal: Principal,
    code: string,
    localId: number,
    body: ConfirmOrderPaymentDto,
  ): Promise<OrderPaymentJson> {
    return this.run(event, principal, code, async (ctx) => {
      const payment = await this.paymentOf(ctx, localId);
      if (!OPEN_PAYMENT_STATES.includes(payment.state))
        throw new InvalidRequest(PAYMENT_MESSAGES.invalidState);
      await this.confirmLocked(ctx, payment, body.force ?? false);
      return toOrderPaymentJson(payment);
    });
  }

  /**
   * Cancels a created or pending payment. Logs `pretix.event.order.payment.canceled`.
   * @throws NotFound unknown order or payment
   * @throws InvalidRequest `Invalid state of payment`
   */
  cancel(event: Event, principal: Principal, code: string, localId: number): Promise<OrderPaymentJson> {
    return this.run(event, principal, code, async (ctx) => {
      const payment = await this.paymentOf(ctx, localId);
      if (!OPEN_PAYMENT_STATES.includes(payment.state))
        throw new InvalidRequest(PAYMENT_MESSAGES.invalidState);
      await this.payments.cancelOpen(ctx.em, ctx, ctx.order, [payment]);
      return toOrderPaymentJson(payment);
    });
  }

  /**
   * Refunds (part of) a confirmed payment: a refund row (state `done`, source `admin`, the payment's provider,
   * next refund `local_id`) linked to the payment; the payment becomes `refunded` once fully refunded. When the
   * order's payments then no longer cover its total, a paid order becomes pending (or, with `mark_canceled`, the
   * order is canceled as `mark_canceled` does without fee). Logs `pretix.event.order.refund.created` and
   * `.refund.done`. A `giftcard` payment's refund puts the amount back on its card (a new card of the organizer when
   * the payment names none; pretix `execute_refund`).
   * @throws NotFound unknown order or payment
   * @throws InvalidRequest `Invalid state of payment.` (not confirmed)
   * @throws ValidationFailed `amount`: not positive, or above what is left to refund of the payment
   */
  refund(
    event: Event,
    principal: Principal,
    code: string,
    localId: number,
    body: RefundOrderPaymentDto,
  ): Promise<OrderRefundJson> {
    return this.run(event, principal, code, async (ctx) => {
      const { em, order, now } = ctx;
      const payment = await this.paymentOf(ctx, localId);
      if (payment.state !== 'confirmed') throw new InvalidRequest(PAYMENT_MESSAGES.notRefundable);
      const amount = new Decimal(String(body.amount ?? payment.amount).trim());
      const refunds = await this.refunds.list(em, order.id);
      const available = new Decimal(payment.amount).minus(refundedOf(payment.id, refunds));
      if (amount.lte(0)) throw ValidationFailed.field('amount', PAYMENT_MESSAGES.invalidRefundAmount);
      if (amount.gt(available)) throw ValidationFailed.field('amount', refundAboveAvailable(available));
      const refund = await this.refunds.add(em, {
        orderId: order.id,
        localId: refunds.reduce((max, r) => Math.max(max, r.localId), 0) + 1,
        state: 'done',
        source: 'admin',
        amount: toMoney(amount),
        paymentId: payment.id,
        provider: payment.provider,
        created: now,
        executionDate: now,
        comment: body.comment ?? null,
        info: {},
      });
      const entry = { local_id: refund.localId, provider: refund.provider };
      await this.log(ctx, 'pretix.event.order.refund.created', entry);
      if (payment.provider === GIFT_CARD_PROVIDER)
        await this.giftCards.refund(em, ctx, order, refund, null, payment, true);
      await this.log(ctx, 'pretix.event.order.refund.done', entry);
      if (amount.gte(available)) await this.writer.setPaymentState(em, payment, 'refunded');
      const all = [...refunds, refund];
      const payments = await this.payments.list(em, order.id);
      if (pendingSum(order.total, payments, all).gt(0)) {
        if (body.mark_canceled ?? false) await this.cancelOrder(ctx, payments);
        else if (order.status === 'p') ctx.change = { status: 'n' };
      }
      return toOrderRefundJson(refund, payment.localId);
    });
  }

  /**
   * Confirms `payment` (state `confirmed`, dated as given or now), logs `.payment.confirmed`, and pays a pending or
   * expired order its payments now cover (`.paid`). A `giftcard` payment first takes its amount from its card.
   * @throws ActionRefused not enough quota for an expired order (without `force`)
   * @throws InvalidRequest / ValidationFailed a gift card that cannot pay ({@link GiftCardPayments.redeem})
   */
  private async confirmLocked(ctx: PaymentContext, payment: OrderPayment, force: boolean): Promise<void> {
    const { em, order, now } = ctx;
    if (payment.provider === GIFT_CARD_PROVIDER) await this.giftCards.redeem(em, ctx, order, payment, now);
    const paymentDate = payment.paymentDate ?? now;
    await this.writer.setPaymentState(em, payment, 'confirmed', paymentDate);
    await this.log(ctx, 'pretix.event.order.payment.confirmed', {
      local_id: payment.localId,
      provider: payment.provider,
    });
    if (order.status !== 'n' && order.status !== 'e') return;
    const payments = await this.payments.list(em, order.id);
    if (pendingSum(order.total, payments, await this.refunds.list(em, order.id)).gt(0)) return;
    if (order.status === 'e' && !force) await this.places.reviveExpired(em, ctx, order);
    await this.log(ctx, 'pretix.event.order.paid', {
      provider: payment.provider,
      info: {},
      date: isoUtc(paymentDate),
      force,
    });
    ctx.change = { status: 'p' };
    ctx.transition = 'paid';
  }

  /** Cancels the order as `mark_canceled` without fee does (refund with `mark_canceled`); not n/p/e: nothing. */
  async cancelOrder(ctx: PaymentContext, payments: OrderPayment[]): Promise<void> {
    const { em, order, now } = ctx;
    if (!['n', 'p', 'e'].includes(order.status)) return;
    const positions = await this.places.positionsOf(em, order, false);
    await this.redemptions.release(em, voucherUses(positions));
    await this.payments.cancelOpen(em, ctx, order, payments);
    await this.log(ctx, 'pretix.event.order.canceled', { cancellation_fee: null, comment: null });
    ctx.change = { positions: 'cancel', fees: 'cancel', cancellationDate: now, status: 'c' };
    ctx.transition = 'canceled';
  }

  /**
   * Marks a refund done (execution date now), logs `pretix.event.order.refund.done`; its payment becomes
   * `refunded` once what was refunded of it reaches its amount.
   */
  async refundDone(ctx: PaymentContext, refund: OrderRefund): Promise<void> {
    await this.refunds.setState(ctx.em, refund, 'done', ctx.now);
    await this.log(ctx, 'pretix.event.order.refund.done', {
      local_id: refund.localId,
      provider: refund.provider,
    });
    if (refund.paymentId === null) return;
    const payment = (await this.payments.list(ctx.em, ctx.order.id)).find((p) => p.id === refund.paymentId);
    if (!payment || payment.state !== 'confirmed') return;
    const refunded = refundedOf(payment.id, await this.refunds.list(ctx.em, ctx.order.id));
    if (refunded.gte(payment.amount)) await this.writer.setPaymentState(ctx.em, payment, 'refunded');
  }

  /** Whether the order's confirmed payments minus counted refunds no longer cover its total. */
  async underpaid(ctx: PaymentContext): Promise<boolean> {
    const payments = await this.payments.list(ctx.em, ctx.order.id);
    return pendingSum(ctx.order.total, payments, await this.refunds.list(ctx.em, ctx.order.id)).gt(0);
  }

  private async paymentOf(ctx: PaymentContext, localId: number): Promise<OrderPayment> {
    const payment = await this.queries.one(ctx.em, ctx.order.id, localId);
    if (!payment) throw new NotFound();
    return payment;
  }

  /** Logs `action` on the order (pretix's action types). */
  log(ctx: PaymentContext, action: string, data: Record<string, unknown>): Promise<void> {
    return logOrder(this.audit, ctx.em, ctx, ctx.order.id, action, data);
  }

  /**
   * Runs a write (a payment's or a refund's) in one transaction with the order row locked; applies the order change `work` set, fires the
   * order hooks of its transition, and runs their follow-up work after the commit.
   * @throws NotFound for a code that is not an order of this event
   */
  run<T>(
    event: Event,
    principal: Principal,
    code: string,
    work: (ctx: PaymentContext) => Promise<T>,
  ): Promise<T> {
    return withOneConnection(this.em, async (conn) => {
      let after: AfterCommit[] = [];
      const result = await conn.transaction(async (em) => {
        await setLockTimeout(em, this.config.orderLockTimeoutMs);
        const order = await this.queries.order(em, event.id, code, true);
        if (!order) throw new NotFound();
        const ctx: PaymentContext = { em, event, principal, order, now: new Date() };
        const out = await work(ctx);
        if (ctx.change) await this.writer.change(em, order, ctx.change, ctx.now);
        if (ctx.change) await this.transactions.sync(em, order.id, ctx.now);
        if (ctx.transition) after = await this.hooks.fire({ ...ctx, transition: ctx.transition });
        return out;
      });
      await this.hooks.afterCommit(after);
      return result;
    });
  }
}
