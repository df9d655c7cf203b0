import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { SalesCatalogue } from '../../catalogue/sales/sales-catalogue.service';
import { voucherUses } from '../../catalogue/vouchers/voucher-redemption.rules';
import { VoucherRedemptions } from '../../catalogue/vouchers/voucher-redemptions.service';
import { NotFound } from '../../common/errors';
import { setLockTimeout } from '../../common/persistence/lock-timeout';
import { isoUtc } from '../../common/values/datetime';
import { i18nText } from '../../common/values/i18n';
import { Decimal, toMoney } from '../../common/values/money';
import { AppConfig } from '../../config/app-config';
import { MailOutboxService } from '../../mail/mail-outbox.service';
import type { Event } from '../../organizers/event.entity';
import type {
  ApproveOrderDto,
  DenyOrderDto,
  ExtendOrderDto,
  MarkCanceledDto,
  MarkPaidDto,
} from './order-action.dto';
import {
  ACTION_MESSAGES,
  ActionRefused,
  cancellationFee,
  cancellationFeeRefusal,
  newExpiry,
  redoRefusal,
} from './order-actions.rules';
import { OrderExpiry } from './order-expiry';
import { AfterCommit, OrderHooks, OrderTransition } from '../writing/order-hooks';
import { logOrder, OrderActor } from '../writing/order-log';
import { OrderPayments } from '../payments/order-payments.service';
import { paidCredit } from '../payments/order-payments.rules';
import { OrderPosition } from '../entities/order-position.entity';
import { withOneConnection } from '../../common/persistence/one-connection';
import { OrderPresentation } from '../presentation/order-presentation.service';
import { OrderChange, OrderWriter } from '../writing/order-writer';
import { Order } from '../entities/order.entity';
import { generateOrderSecret, generatePositionSecret } from '../create/order-rules';
import type { OrderJson } from '../presentation/order.presenter';
import { OrderStatusQueries } from './order-status.queries';
import { OrderPlaces } from './order-places';
import { OrderTransactionLog } from '../transactions/order-transaction-log';

/** What an action works on: the locked order of the event, inside the writing transaction. */
interface ActionContext extends OrderActor {
  em: EntityManager;
  order: Order;
  /** One instant for everything the action writes (payment date, last_modified, cancellation date). */
  now: Date;
  /** The status change the {@link OrderHooks} hear of once the change is applied (invoices). */
  transition?: OrderTransition;
}

/**
 * The order status actions `POST E/orders/{code}/<action>/` (compat §4.4 "Actions"): mark_paid, mark_pending,
 * mark_expired, mark_canceled, reactivate, extend, approve, deny. Each runs in one transaction that locks the
 * order row (`SELECT … FOR UPDATE`), checks the state rules ({@link ActionRefused}), does what hangs on the
 * change (payments through {@link OrderPayments}, voucher redemptions through {@link VoucherRedemptions}, quota
 * places through {@link QuotaReservations}), writes the pretix log action(s) (content type `order`) and queues
 * the customer e-mail, and returns the {@link OrderChange} that {@link OrderWriter} applies with a new
 * `last_modified`; after the commit the full order is answered through {@link OrderPresentation}.
 *
 * Quota: canceled and expired orders do not count in the quota engine; paid and pending ones do (also while
 * pending approval, so `approve` needs no new reservation). Reviving an order (`mark_paid` or `extend` of an
 * expired one, `reactivate`) reserves its positions' places again. Vouchers: a voucher stays redeemed while its
 * order is expired (it can be revived); canceling or denying gives the redemption back, reactivating takes it
 * again. Lock waits are bounded by `ORDER_LOCK_TIMEOUT_MS`: a lock not had in time answers 409 with
 * `Retry-After` (global filter).
 */
@Injectable()
export class OrderActionsService {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly config: AppConfig,
    private readonly audit: AuditLogService,
    private readonly catalogue: SalesCatalogue,
    private readonly redemptions: VoucherRedemptions,
    private readonly writer: OrderWriter,
    private readonly payments: OrderPayments,
    private readonly presentation: OrderPresentation,
    private readonly mail: MailOutboxService,
    private readonly expiry: OrderExpiry,
    private readonly hooks: OrderHooks,
    private readonly queries: OrderStatusQueries,
    private readonly places: OrderPlaces,
    private readonly transactions: OrderTransactionLog,
  ) {}

  /**
   * Pending or expired → paid: a confirmed `manual` payment of the open amount (an open manual payment of exactly
   * that amount is confirmed instead; other open payments are canceled). An expired order first takes its places
   * again. Logs `pretix.event.order.payment.confirmed` and `pretix.event.order.paid`; with `send_email` (default
   * true) and an order e-mail, queues the "payment received" mail.
   * @throws NotFound for a code that is not an order of the event
   * @throws ActionRefused not pending or expired; not enough quota for an expired order
   */
  markPaid(event: Event, principal: Principal, code: string, body: MarkPaidDto): Promise<OrderJson> {
    return this.run(event, principal, code, async (ctx) => {
      const { order } = ctx;
      if (order.status !== 'n' && order.status !== 'e')
        throw new ActionRefused(ACTION_MESSAGES.notPendingOrExpired);
      if (order.status === 'e') await this.reviveExpired(ctx);
      await this.payments.settle(ctx.em, ctx, order, 'manual', ctx.now);
      ctx.transition = 'paid';
      if (body.send_email ?? true) {
        await this.sendMail(ctx, `Payment received for your order: ${order.code}`, [
          `we successfully received your payment for ${eventName(ctx.event)}. Thank you!`,
        ]);
      }
      return { status: 'p' };
    });
  }

  /**
   * Paid → pending: the confirmed payments are canceled (their money no longer settles the order). Logs
   * `pretix.event.order.unpaid`.
   * @throws ActionRefused when the order is not paid
   */
  markPending(event: Event, principal: Principal, code: string): Promise<OrderJson> {
    return this.run(event, principal, code, async (ctx) => {
      if (ctx.order.status !== 'p') throw new ActionRefused(ACTION_MESSAGES.notPaid);
      await this.payments.cancelConfirmed(ctx.em, ctx.order);
      await this.log(ctx, 'pretix.event.order.unpaid');
      return { status: 'n' };
    });
  }

  /**
   * Pending → expired through {@link OrderExpiry} (the scheduler's path too): the positions stop counting on their
   * quotas; voucher redemptions stay (the order may be revived). Logs `pretix.event.order.expired`.
   * @throws ActionRefused when the order is not pending
   */
  markExpired(event: Event, principal: Principal, code: string): Promise<OrderJson> {
    return this.run(event, principal, code, async (ctx) => {
      if (ctx.order.status !== 'n') throw new ActionRefused(ACTION_MESSAGES.notPending);
      await this.expiry.expireLocked(ctx.em, ctx.order, ctx.principal, ctx.now);
      return null; // applied by the expiry path, the same one the scheduler takes
    });
  }

  /**
   * Cancels a pending, paid or expired order that has positions. Without a fee (null or zero): status `c`,
   * positions and fees canceled, `cancellation_date` set. With a fee (at most the total and the paid credit): the
   * order is paid with the fee as its only component (positions and fees canceled, a `cancellation` fee added,
   * taxed by the event's default tax rule, total = fee). Either way voucher redemptions are given back and open
   * payments canceled. Logs `pretix.event.order.canceled`; with `send_email` (default true) queues the mail.
   * @throws ActionRefused not cancelable; fee above total or credit
   */
  markCanceled(event: Event, principal: Principal, code: string, body: MarkCanceledDto): Promise<OrderJson> {
    return this.run(event, principal, code, async (ctx) => {
      const { em, order, now } = ctx;
      const positions = await this.positionsOf(ctx, false);
      if (!['n', 'p', 'e'].includes(order.status) || positions.length === 0)
        throw new ActionRefused(ACTION_MESSAGES.notCancelable);
      const fee = new Decimal(String(body.cancellation_fee ?? 0).trim());
      const payments = await this.payments.list(em, order.id);
      if (fee.gt(0)) {
        const refusal = cancellationFeeRefusal(fee, new Decimal(order.total), paidCredit(payments));
        if (refusal) throw new ActionRefused(refusal);
      }
      await this.redemptions.release(em, voucherUses(positions));
      await this.payments.cancelOpen(em, ctx, order, payments);
      const change: OrderChange = { positions: 'cancel', fees: 'cancel', cancellationDate: now };
      if (fee.gt(0)) {
        change.addFee = cancellationFee(fee, await this.catalogue.defaultTaxRule(em, ctx.event.id));
        change.total = toMoney(fee);
        change.status = 'p';
      } else {
        change.status = 'c';
      }
      const comment = body.comment ?? null;
      ctx.transition = 'canceled';
      await this.log(ctx, 'pretix.event.order.canceled', {
        cancellation_fee: fee.gt(0) ? toMoney(fee) : null,
        comment,
      });
      if (body.send_email ?? true) {
        await this.sendMail(ctx, `Order canceled: ${order.code}`, [
          `your order ${order.code} for ${eventName(ctx.event)} has been canceled.`,
          ...(comment ? [comment] : []),
        ]);
      }
      return change;
    });
  }

  /**
   * Canceled → pending (or paid when confirmed payments cover the total and no approval is pending, as pretix
   * does): voucher redemptions are taken again, the positions' places reserved again, positions and fees
   * uncanceled, `cancellation_date` cleared. Only positions the order's cancel canceled come back
   * (`canceled_with_order`); one canceled on its own before stays canceled. Logs `pretix.event.order.reactivated`.
   * @throws ActionRefused not canceled; a voucher used up meanwhile; not enough quota
   */
  reactivate(event: Event, principal: Principal, code: string): Promise<OrderJson> {
    return this.run(event, principal, code, async (ctx) => {
      const { em, order } = ctx;
      if (order.status !== 'c') throw new ActionRefused(ACTION_MESSAGES.notCanceled);
      const positions = await this.positionsOf(ctx, true);
      // Redeem first: a blocking voucher then stops holding the place its position takes back.
      const redo = await this.redemptions.redo(em, voucherUses(positions), ctx.now);
      if (redo.problem) throw new ActionRefused(redoRefusal(redo.problem));
      await this.places.reserve(em, ctx, positions, redo.vouchers);
      const payments = await this.payments.list(em, order.id);
      const settled =
        !order.requireApproval &&
        payments.some((p) => p.state === 'confirmed') &&
        paidCredit(payments).gte(order.total);
      await this.log(ctx, 'pretix.event.order.reactivated', { expires: isoUtc(order.expires) });
      return { positions: 'restore', fees: 'restore', status: settled ? 'p' : 'n', cancellationDate: null };
    });
  }

  /**
   * Sets the payment deadline of a pending or expired order to the end of the given day in the event's time
   * zone. An expired order becomes pending and takes its places again, unless `force` (overbooking allowed).
   * Logs `pretix.event.order.expirychanged` (`state_change` true when it revived the order); an unchanged
   * deadline of a pending order changes nothing.
   * @throws ActionRefused date missing, invalid or past; not pending or expired; not enough quota
   */
  extend(event: Event, principal: Principal, code: string, body: ExtendOrderDto): Promise<OrderJson> {
    const expires = newExpiry(body.expires, event.timezone);
    return this.run(event, principal, code, async (ctx) => {
      const { order, now } = ctx;
      if (order.status !== 'n' && order.status !== 'e')
        throw new ActionRefused(ACTION_MESSAGES.notPendingOrExpired);
      if (expires < now) throw new ActionRefused(ACTION_MESSAGES.dateInPast);
      const wasExpired = order.status === 'e';
      if (!wasExpired && order.expires.getTime() === expires.getTime()) return null;
      if (wasExpired && !(body.force ?? false)) await this.reviveExpired(ctx);
      await this.log(ctx, 'pretix.event.order.expirychanged', {
        expires: isoUtc(expires),
        state_change: wasExpired,
      });
      return { expires, status: 'n' };
    });
  }

  /**
   * Approves a pending order that requires approval: `require_approval` becomes false. Its positions already
   * count on their quotas while it waits (the engine counts every pending order), so no reservation is needed.
   * A free order (total 0) is then settled by a confirmed `free` payment and becomes paid, as in pretix. Logs
   * `pretix.event.order.approved` (and `.payment.confirmed`, `.paid` for a free order); with `send_email`
   * (default true) queues the approval mail.
   * @throws ActionRefused when the order is not pending approval
   */
  approve(event: Event, principal: Principal, code: string, body: ApproveOrderDto): Promise<OrderJson> {
    return this.run(event, principal, code, async (ctx) => {
      const { order } = ctx;
      if (order.status !== 'n' || !order.requireApproval)
        throw new ActionRefused(ACTION_MESSAGES.notPendingApproval);
      const change: OrderChange = { requireApproval: false };
      await this.log(ctx, 'pretix.event.order.approved');
      if (new Decimal(order.total).isZero()) {
        await this.payments.settle(ctx.em, ctx, order, 'free', ctx.now);
        change.status = 'p';
        ctx.transition = 'paid';
      }
      if (body.send_email ?? true) {
        await this.sendMail(ctx, `Order approved: ${order.code}`, [
          `your order ${order.code} for ${eventName(ctx.event)} has been approved.`,
        ]);
      }
      return change;
    });
  }

  /**
   * Denies a pending order that requires approval: status `c`, positions canceled, voucher redemptions given
   * back; `require_approval` stays true. Logs `pretix.event.order.denied` with the comment; with `send_email`
   * (default true) queues the mail.
   * @throws ActionRefused when the order is not pending approval
   */
  deny(event: Event, principal: Principal, code: string, body: DenyOrderDto): Promise<OrderJson> {
    return this.run(event, principal, code, async (ctx) => {
      const { order } = ctx;
      if (order.status !== 'n' || !order.requireApproval)
        throw new ActionRefused(ACTION_MESSAGES.notPendingApproval);
      await this.redemptions.release(ctx.em, voucherUses(await this.positionsOf(ctx, false)));
      const comment = body.comment ?? null;
      await this.log(ctx, 'pretix.event.order.denied', { comment });
      if (body.send_email ?? true) {
        await this.sendMail(ctx, `Order denied: ${order.code}`, [
          `unfortunately, your order ${order.code} for ${eventName(ctx.event)} has been denied.`,
          ...(comment ? [comment] : []),
        ]);
      }
      return { positions: 'cancel', status: 'c' };
    });
  }

  /**
   * Runs an action in one transaction: bounds lock waits, locks the order row of the event, runs `work`, then
   * (unless `work` returns null: nothing changed, or `work` applied its change itself) applies its change with a new `last_modified`
   * and fires the {@link OrderHooks} of the transition `work` named; after the commit, runs the hooks' follow-up
   * work and presents the order.
   * @throws NotFound for a code that is not an order of this event
   */
  private async run(
    event: Event,
    principal: Principal,
    code: string,
    work: (ctx: ActionContext) => Promise<OrderChange | null>,
  ): Promise<OrderJson> {
    return withOneConnection(this.em, async (conn) => {
      let after: AfterCommit[] = [];
      const order = await conn.transaction(async (em) => {
        await setLockTimeout(em, this.config.orderLockTimeoutMs);
        const order =
          code.length <= 16
            ? await em.findOne(Order, {
                where: { eventId: event.id, code },
                lock: { mode: 'pessimistic_write' },
              })
            : null;
        if (!order) throw new NotFound();
        const ctx: ActionContext = { em, event, principal, order, now: new Date() };
        const change = await work(ctx);
        if (change) await this.writer.change(em, order, change, ctx.now);
        if (change) await this.transactions.sync(em, order.id, ctx.now);
        if (ctx.transition) after = await this.hooks.fire({ ...ctx, transition: ctx.transition });
        return order;
      });
      await this.hooks.afterCommit(after);
      // Presented after the commit on the connection that wrote (withOneConnection): the locks are held no longer
      // than the change needs, and a busy pool cannot answer 503 ("retry") for a change that was made.
      const [json] = await this.presentation.orders(conn, [order], new Map([[event.id, event.slug]]));
      return json;
    });
  }

  /**
   * New secrets (compat §4.4 `regenerate_secrets`): the order's secret and every position's ticket secret are
   * replaced; the old ticket secrets are kept as revoked (table `revoked_secret`), so that scanning one answers
   * `revoked` (compat §3.21). Three statements whatever the number of positions, plus the order's update. Logs
   * `pretix.event.order.secret.changed`.
   * @throws NotFound for a code that is not an order of the event
   */
  regenerateSecrets(event: Event, principal: Principal, code: string): Promise<OrderJson> {
    return this.run(event, principal, code, async (ctx) => {
      const rows = await this.queries.revokeSecrets(ctx.em, ctx.order.id);
      await this.queries.setSecrets(
        ctx.em,
        rows.map((r) => r.id),
        rows.map(() => generatePositionSecret()),
      );
      ctx.order.secret = generateOrderSecret();
      await ctx.em.update(Order, { id: ctx.order.id }, { secret: ctx.order.secret });
      await this.log(ctx, 'pretix.event.order.secret.changed');
      return {};
    });
  }

  /** The order's positions: the active ones, or those canceled with the order (to revive). */
  private positionsOf(ctx: ActionContext, withOrder: boolean): Promise<OrderPosition[]> {
    return this.places.positionsOf(ctx.em, ctx.order, withOrder);
  }

  /** An expired order takes the places of its active positions again (its vouchers stayed redeemed). */
  private reviveExpired(ctx: ActionContext): Promise<void> {
    return this.places.reviveExpired(ctx.em, ctx, ctx.order);
  }

  private log(ctx: ActionContext, action: string, data: Record<string, unknown> = {}): Promise<void> {
    return logOrder(this.audit, ctx.em, ctx, ctx.order.id, action, data);
  }

  /** Queues a mail to the order's address (none when the order has no e-mail). */
  private async sendMail(ctx: ActionContext, subject: string, paragraphs: string[]): Promise<void> {
    const to = ctx.order.email;
    if (!to) return;
    await this.mail.enqueue(ctx.em, {
      organizerId: ctx.event.organizerId,
      eventId: ctx.event.id,
      to,
      subject,
      body:
        ['Hello,', ...paragraphs, `Your order code: ${ctx.order.code}`, 'Best regards,'].join('\n\n') + '\n',
    });
  }
}

function eventName(event: Pick<Event, 'name' | 'slug'>): string {
  return i18nText(event.name) || event.slug;
}
