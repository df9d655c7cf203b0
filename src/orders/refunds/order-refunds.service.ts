import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import type { Principal } from '../../auth/principal';
import { InvalidRequest, NotFound, ValidationFailed } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { parseDateTime } from '../../common/values/datetime';
import { Decimal, toMoney } from '../../common/values/money';
import type { Event } from '../../organizers/event.entity';
import type { OrderRefund } from '../entities/order-refund.entity';
import { OrderPaymentQueries } from '../payments/order-payment.queries';
import { OrderPaymentActions, PaymentContext } from '../payments/order-payment-actions.service';
import { cardRefOf, GIFT_CARD_PROVIDER } from '../giftcard-payments/gift-card-payment.rules';
import { GiftCardPayments } from '../giftcard-payments/gift-card-payments.service';
import type { OrderPayment } from '../entities/order-payment.entity';
import { refundedOf } from '../payments/order-payments.rules';
import { OrderRefundJson, toOrderRefundJson } from '../presentation/order-parts.presenter';
import type { CreateOrderRefundDto, ProcessOrderRefundDto } from './order-refund.dto';
import { OrderRefundQueries } from './order-refund.queries';

/** pretix's refusals of the refund endpoints. */
export const REFUND_MESSAGES = {
  invalidState: 'Invalid state of refund',
  unknownPayment: 'Unknown payment.',
} as const;

/**
 * The order refund endpoints `E/orders/{code}/refunds/` (pretix doc "Order refund endpoints"): list, detail,
 * create, `done`, `process`, `cancel`. Writes run through {@link OrderPaymentActions.run} (one transaction, the
 * order row locked, `local_id` assigned under the lock) and log pretix's `pretix.event.order.refund.*` types.
 * Allowed transitions (else 400 `{"detail": "Invalid state of refund"}`): done from created/transit; process
 * from external; cancel from created/transit/external.
 */
@Injectable()
export class OrderRefunds {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly orders: OrderPaymentQueries,
    private readonly refunds: OrderRefundQueries,
    private readonly actions: OrderPaymentActions,
    private readonly giftCards: GiftCardPayments,
  ) {}

  /**
   * One page of the order's refunds by `local_id`.
   * @throws NotFound unknown order
   */
  async list(event: Event, code: string, page: PageRequest): Promise<Paginated<OrderRefundJson>> {
    const order = await this.orders.order(this.em, event.id, code);
    if (!order) throw new NotFound();
    return this.refunds.page(this.em, order.id, page, toOrderRefundJson);
  }

  /**
   * One refund of the order.
   * @throws NotFound unknown order or refund
   */
  async get(event: Event, code: string, localId: number): Promise<OrderRefundJson> {
    const order = await this.orders.order(this.em, event.id, code);
    if (!order) throw new NotFound();
    const refund = await this.refunds.one(this.em, order.id, localId);
    if (!refund) throw new NotFound();
    return this.present(this.em, refund);
  }

  /**
   * Records a refund (next `local_id`). Logs `.refund.created` and, for a refund created done, canceled or
   * failed, `.refund.<state>`. `mark_canceled` cancels the order; `mark_pending` makes a paid order no longer
   * covered pending. A `giftcard` refund is executed at once (pretix `execute_refund`; state `done` whatever was
   * sent, also logged `.refund.done`): its amount goes onto the card of `info.gift_card` (or `gift_card_secret`),
   * else the card of its gift card `payment`, else a new card of the organizer; the refund's `info` then names the
   * card (`gift_card`, `gift_card_secret`, `transaction_id`).
   * @throws ValidationFailed `payment` not a payment of the order
   * @throws InvalidRequest a `giftcard` refund to a card that is not accepted, of another currency, or of another
   *   issuer (unless it is the card of the refunded payment and the amount is left of it); nothing written
   */
  create(
    event: Event,
    principal: Principal,
    code: string,
    body: CreateOrderRefundDto,
  ): Promise<OrderRefundJson> {
    const giftCard = body.provider === GIFT_CARD_PROVIDER;
    return this.actions.run(event, principal, code, async (ctx) => {
      const { em, order } = ctx;
      let payment: OrderPayment | null = null;
      if (body.payment !== undefined && body.payment !== null) {
        payment = await this.orders.one(em, order.id, body.payment);
        if (!payment) throw ValidationFailed.field('payment', REFUND_MESSAGES.unknownPayment);
      }
      const paymentId = payment?.id ?? null;
      const all = await this.refunds.list(em, order.id);
      const refund = await this.refunds.add(em, {
        orderId: order.id,
        localId: all.reduce((max, r) => Math.max(max, r.localId), 0) + 1,
        state: giftCard ? 'created' : body.state,
        source: body.source,
        amount: toMoney(new Decimal(String(body.amount).trim())),
        paymentId,
        provider: body.provider,
        created: ctx.now,
        executionDate: body.execution_date && !giftCard ? parseDateTime(body.execution_date) : null,
        comment: body.comment ?? null,
        info: body.info ?? {},
      });
      const entry = { local_id: refund.localId, provider: refund.provider };
      await this.actions.log(ctx, 'pretix.event.order.refund.created', entry);
      if (giftCard) {
        const left = payment ? new Decimal(payment.amount).minus(refundedOf(payment.id, all)) : null;
        const foreignAllowed = left !== null && left.gte(refund.amount);
        await this.giftCards.refund(em, ctx, order, refund, cardRefOf(body.info), payment, foreignAllowed);
        await this.actions.refundDone(ctx, refund);
      } else if (['done', 'canceled', 'failed'].includes(refund.state))
        await this.actions.log(ctx, `pretix.event.order.refund.${refund.state}`, entry);
      if (body.mark_canceled ?? false) await this.cancelOrder(ctx);
      else if ((body.mark_pending ?? false) && order.status === 'p' && (await this.actions.underpaid(ctx)))
        ctx.change = { status: 'n' };
      return this.present(em, refund);
    });
  }

  /**
   * Created or transit → done (execution date now); the payment becomes `refunded` once fully refunded.
   * @throws InvalidRequest `Invalid state of refund`
   */
  done(event: Event, principal: Principal, code: string, localId: number): Promise<OrderRefundJson> {
    return this.actions.run(event, principal, code, async (ctx) => {
      const refund = await this.refundOf(ctx, localId);
      if (!['created', 'transit'].includes(refund.state))
        throw new InvalidRequest(REFUND_MESSAGES.invalidState);
      await this.actions.refundDone(ctx, refund);
      return this.present(ctx.em, refund);
    });
  }

  /**
   * External → done. With `mark_canceled` the order is canceled; else a paid order whose payments no longer
   * cover it becomes pending.
   * @throws InvalidRequest `Invalid state of refund`
   */
  process(
    event: Event,
    principal: Principal,
    code: string,
    localId: number,
    body: ProcessOrderRefundDto,
  ): Promise<OrderRefundJson> {
    return this.actions.run(event, principal, code, async (ctx) => {
      const refund = await this.refundOf(ctx, localId);
      if (refund.state !== 'external') throw new InvalidRequest(REFUND_MESSAGES.invalidState);
      await this.actions.refundDone(ctx, refund);
      if (body.mark_canceled ?? false) await this.cancelOrder(ctx);
      else if (ctx.order.status === 'p' && (await this.actions.underpaid(ctx))) ctx.change = { status: 'n' };
      return this.present(ctx.em, refund);
    });
  }

  /**
   * Created, transit or external → canceled. Logs `pretix.event.order.refund.canceled`.
   * @throws InvalidRequest `Invalid state of refund`
   */
  cancel(event: Event, principal: Principal, code: string, localId: number): Promise<OrderRefundJson> {
    return this.actions.run(event, principal, code, async (ctx) => {
      const refund = await this.refundOf(ctx, localId);
      if (!['created', 'transit', 'external'].includes(refund.state))
        throw new InvalidRequest(REFUND_MESSAGES.invalidState);
      await this.refunds.setState(ctx.em, refund, 'canceled');
      await this.actions.log(ctx, 'pretix.event.order.refund.canceled', {
        local_id: refund.localId,
        provider: refund.provider,
      });
      return this.present(ctx.em, refund);
    });
  }

  private async cancelOrder(ctx: PaymentContext): Promise<void> {
    const payments = await this.orders.all(ctx.em, ctx.order.id);
    await this.actions.cancelOrder(ctx, payments);
  }

  private async refundOf(ctx: PaymentContext, localId: number): Promise<OrderRefund> {
    const refund = await this.refunds.one(ctx.em, ctx.order.id, localId);
    if (!refund) throw new NotFound();
    return refund;
  }

  private async paymentLocalIds(em: EntityManager, orderId: number): Promise<Map<number, number>> {
    return new Map((await this.orders.all(em, orderId)).map((p) => [p.id, p.localId]));
  }

  private async present(em: EntityManager, refund: OrderRefund): Promise<OrderRefundJson> {
    if (refund.paymentId === null) return toOrderRefundJson(refund, null);
    const ids = await this.paymentLocalIds(em, refund.orderId);
    return toOrderRefundJson(refund, ids.get(refund.paymentId) ?? null);
  }
}
