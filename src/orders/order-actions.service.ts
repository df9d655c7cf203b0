import { BadRequestException, Injectable } from '@nestjs/common';
import { setLockTimeout } from '../common/persistence/lock-timeout';
import { InjectDataSource } from '@nestjs/typeorm';
import { DateTime, IANAZone } from 'luxon';
import { DataSource, EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { quotasForProduct } from '../catalogue/quotas/quota-availability';
import {
  noQuotaMessage,
  QuotaExceeded,
  QuotaReservations,
} from '../catalogue/quotas/quota-reservations.service';
import { TaxRule } from '../catalogue/tax-rules/tax-rule.entity';
import { NotFound } from '../common/errors';
import { checkDate } from '../common/validation/fields';
import { isoUtc } from '../common/values/datetime';
import { i18nText } from '../common/values/i18n';
import { Decimal, toMoney } from '../common/values/money';
import { MailOutboxService } from '../mail/mail-outbox.service';
import type { Event } from '../organizers/event.entity';
import type {
  ApproveOrderDto,
  DenyOrderDto,
  ExtendOrderDto,
  MarkCanceledDto,
  MarkPaidDto,
} from './order-action.dto';
import { OrderFee } from './order-fee.entity';
import { OrderPayment } from './order-payment.entity';
import { OrderPresentation } from './order-presentation.service';
import { OrderPosition } from './order-position.entity';
import { Order } from './order.entity';
import type { OrderJson } from './order.presenter';

/** 400 `{"detail": "..."}`: an action the order's state (or quota, or a voucher) does not allow (compat §4.4). */
export class ActionRefused extends BadRequestException {
  constructor(readonly detail: string) {
    super({ detail });
  }
}

/** The refusal texts of pretix's order actions (compat §4.4 "Actions"). */
export const ACTION_MESSAGES = {
  notPendingOrExpired: 'The order is not pending or expired.',
  notPaid: 'The order is not paid.',
  notPending: 'The order is not pending.',
  notCancelable: 'The order is not allowed to be canceled.',
  notCanceled: 'The order is not canceled.',
  notPendingApproval: 'This order is not pending approval.',
  dateMissing: 'New date is missing.',
  dateInvalid: 'New date is invalid.',
  dateInPast: 'The new expiry date needs to be in the future.',
  feeAboveTotal: 'The cancellation fee cannot be higher than the total amount of this order.',
  feeAboveCredit: 'The cancellation fee cannot be higher than the payment credit of this order.',
  voucherUsedUp: 'The voucher has already been used the maximum number of times.',
  voucherBudget: 'The voucher budget has already been used up.',
} as const;

/** Payment states that still wait for money (canceled when another payment settles the order). */
const OPEN_PAYMENT_STATES = ['created', 'pending'];

// ---------------------------------------------------------------------------------------------------------------
// Pure rules (unit-tested in order-actions.service.spec.ts)
// ---------------------------------------------------------------------------------------------------------------

/** Sum of the confirmed payments of an order (money). Refunds do not exist yet, so this is the paid credit. */
export function paidCredit(payments: readonly Pick<OrderPayment, 'state' | 'amount'>[]): Decimal {
  return payments
    .filter((p) => p.state === 'confirmed')
    .reduce((sum, p) => sum.plus(p.amount), new Decimal(0));
}

/** What is still to be paid: total minus the paid credit, never below zero (money). */
export function openAmount(
  total: string,
  payments: readonly Pick<OrderPayment, 'state' | 'amount'>[],
): Decimal {
  return Decimal.max(new Decimal(total).minus(paidCredit(payments)), 0);
}

/**
 * The refusal of a cancellation fee (compat §4.4 `mark_canceled`): it is kept from the money received, so it may
 * exceed neither the order's total nor its paid credit. Null when the fee is acceptable.
 */
export function cancellationFeeRefusal(fee: Decimal, total: Decimal, credit: Decimal): string | null {
  if (fee.gt(total)) return ACTION_MESSAGES.feeAboveTotal;
  if (fee.gt(credit)) return ACTION_MESSAGES.feeAboveCredit;
  return null;
}

/**
 * The end (23:59:59) of a calendar day in a time zone, as a UTC instant (compat §1.11, §4.4 `extend`). An unknown
 * zone falls back to UTC.
 */
export function endOfDayIn(date: string, zone: string): Date {
  const tz = IANAZone.isValidZone(zone) ? zone : 'UTC';
  return DateTime.fromISO(`${date}T23:59:59`, { zone: tz }).toUTC().toJSDate();
}

/**
 * The new deadline of `extend` from its `expires` input (`YYYY-MM-DD`): the end of that day in the event's time
 * zone. Missing (absent, null or empty) and malformed values are refused with pretix's details.
 * @throws ActionRefused `New date is missing.` / `New date is invalid.`
 */
export function newExpiry(value: unknown, zone: string): Date {
  if (value === undefined || value === null || value === '')
    throw new ActionRefused(ACTION_MESSAGES.dateMissing);
  if (typeof value !== 'string' || checkDate(value) !== null)
    throw new ActionRefused(ACTION_MESSAGES.dateInvalid);
  return endOfDayIn(value, zone);
}

/** Uses of each voucher by positions: how many positions and how much of the budget (money). */
export function voucherUses(
  positions: readonly Pick<OrderPosition, 'voucherId' | 'voucherBudgetUse'>[],
): Map<number, { count: number; budget: Decimal }> {
  const uses = new Map<number, { count: number; budget: Decimal }>();
  for (const p of positions) {
    if (p.voucherId === null) continue;
    const use = uses.get(p.voucherId) ?? { count: 0, budget: new Decimal(0) };
    use.count += 1;
    use.budget = use.budget.plus(p.voucherBudgetUse ?? 0);
    uses.set(p.voucherId, use);
  }
  return uses;
}

/** The voucher fields that decide whether its redemptions can be taken again. */
export interface VoucherState {
  id: number;
  max_usages: number;
  redeemed: number;
  budget: string | null;
  budget_used: string;
  allow_ignore_quota: boolean;
}

/**
 * Whether a voucher can be redeemed again by a revived order (pretix `_is_still_available(check_voucher_usage)`):
 * `count` more redemptions must fit next to the stored ones and the live carts holding it, and the budget must
 * hold `budget` more. Null when it can.
 */
export function voucherRedoRefusal(
  voucher: VoucherState,
  use: { count: number; budget: Decimal },
  inCarts: number,
): string | null {
  if (voucher.max_usages - voucher.redeemed - inCarts < use.count) return ACTION_MESSAGES.voucherUsedUp;
  if (voucher.budget !== null && new Decimal(voucher.budget_used).plus(use.budget).gt(voucher.budget))
    return ACTION_MESSAGES.voucherBudget;
  return null;
}

/** A product key of a position: item, variation and sub-event. */
export const productKey = (p: Pick<OrderPosition, 'itemId' | 'variationId' | 'subeventId'>): string =>
  `${p.itemId}/${p.variationId ?? ''}/${p.subeventId ?? ''}`;

/**
 * Places a set of positions needs per quota: one on every quota of its product. Positions whose voucher lets
 * them ignore quotas (`allow_ignore_quota`) need none.
 * @param quotasByProduct quota ids per {@link productKey}
 */
export function placesNeeded(
  positions: readonly Pick<OrderPosition, 'itemId' | 'variationId' | 'subeventId' | 'voucherId'>[],
  quotasByProduct: ReadonlyMap<string, readonly number[]>,
  ignoresQuota: (voucherId: number) => boolean,
): Map<number, number> {
  const needed = new Map<number, number>();
  for (const p of positions) {
    if (p.voucherId !== null && ignoresQuota(p.voucherId)) continue;
    for (const id of quotasByProduct.get(productKey(p)) ?? []) needed.set(id, (needed.get(id) ?? 0) + 1);
  }
  return needed;
}

// ---------------------------------------------------------------------------------------------------------------

/** What an action works on: the locked order of the event, inside the writing transaction. */
interface ActionContext {
  em: EntityManager;
  event: Event;
  principal: Principal;
  order: Order;
  /** One instant for everything the action writes (payment date, last_modified, cancellation date). */
  now: Date;
}

/**
 * The order status actions `POST E/orders/{code}/<action>/` (compat §4.4 "Actions"): mark_paid, mark_pending,
 * mark_expired, mark_canceled, reactivate, extend, approve, deny. Each runs in one transaction that locks the
 * order row (`SELECT … FOR UPDATE`), checks the state rules, changes the order and what hangs on it (positions,
 * fees, payments, voucher redemptions, quota places), moves `last_modified`, writes the pretix log action(s)
 * (content type `order`) and queues the customer e-mail; after the commit the full order is answered through
 * {@link OrderPresentation}.
 *
 * Quota: canceled and expired orders do not count in the quota engine; paid and pending ones do (also while
 * pending approval, so `approve` needs no new reservation). Reviving an order (`mark_paid` or `extend` of an
 * expired one, `reactivate`) reserves its positions' places through {@link QuotaReservations}, which locks only
 * the quotas involved, in id order. Vouchers: a voucher stays redeemed while its order is expired (it can be
 * revived); canceling or denying gives the redemption back (`redeemed - 1` per position, `budget_used` back),
 * reactivating takes it again. Lock waits are bounded ({@link lockTimeoutMs}): a lock not had in time answers
 * 409 with `Retry-After` (global filter).
 */
@Injectable()
export class OrderActionsService {
  /** Longest wait for a lock inside an action, in milliseconds (`SET LOCAL lock_timeout`). */
  lockTimeoutMs = 3000;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditLogService,
    private readonly reservations: QuotaReservations,
    private readonly presentation: OrderPresentation,
    private readonly mail: MailOutboxService,
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
      if (order.status === 'e') {
        const positions = await this.positionsOf(ctx, false);
        const vouchers = await this.vouchersOf(ctx.em, [...voucherUses(positions).keys()], false);
        await this.reservePlaces(ctx, positions, vouchers);
      }
      await this.settle(ctx, 'manual');
      if (body.send_email ?? true) {
        await this.sendMail(ctx, `Payment received for your order: ${order.code}`, [
          `we successfully received your payment for ${eventName(ctx.event)}. Thank you!`,
        ]);
      }
    });
  }

  /**
   * Paid → pending: the confirmed payments are canceled (their money no longer settles the order). Logs
   * `pretix.event.order.unpaid`.
   * @throws ActionRefused when the order is not paid
   */
  markPending(event: Event, principal: Principal, code: string): Promise<OrderJson> {
    return this.run(event, principal, code, async (ctx) => {
      const { em, order } = ctx;
      if (order.status !== 'p') throw new ActionRefused(ACTION_MESSAGES.notPaid);
      await em.update(OrderPayment, { orderId: order.id, state: 'confirmed' }, { state: 'canceled' });
      order.status = 'n';
      await this.log(ctx, 'pretix.event.order.unpaid');
    });
  }

  /**
   * Pending → expired: the positions stop counting on their quotas; voucher redemptions stay (the order may be
   * revived). Logs `pretix.event.order.expired`.
   * @throws ActionRefused when the order is not pending
   */
  markExpired(event: Event, principal: Principal, code: string): Promise<OrderJson> {
    return this.run(event, principal, code, async (ctx) => {
      if (ctx.order.status !== 'n') throw new ActionRefused(ACTION_MESSAGES.notPending);
      ctx.order.status = 'e';
      await this.log(ctx, 'pretix.event.order.expired');
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
      const payments = await em.find(OrderPayment, { where: { orderId: order.id } });
      if (fee.gt(0)) {
        const refusal = cancellationFeeRefusal(fee, new Decimal(order.total), paidCredit(payments));
        if (refusal) throw new ActionRefused(refusal);
      }
      await this.releaseVouchers(ctx, positions);
      await em.update(OrderPosition, { orderId: order.id, canceled: false }, { canceled: true });
      await em.update(OrderFee, { orderId: order.id, canceled: false }, { canceled: true });
      await this.cancelOpenPayments(ctx, payments);
      order.cancellationDate = now;
      if (fee.gt(0)) {
        await this.addCancellationFee(ctx, fee);
        order.total = toMoney(fee);
        order.status = 'p';
      } else {
        order.status = 'c';
      }
      const comment = body.comment ?? null;
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
    });
  }

  /**
   * Canceled → pending (or paid when confirmed payments cover the total and no approval is pending, as pretix
   * does): voucher redemptions are taken again, the positions' places reserved again, positions and fees
   * uncanceled, `cancellation_date` cleared. Logs `pretix.event.order.reactivated`.
   * @throws ActionRefused not canceled; a voucher used up meanwhile; not enough quota
   */
  reactivate(event: Event, principal: Principal, code: string): Promise<OrderJson> {
    return this.run(event, principal, code, async (ctx) => {
      const { em, order } = ctx;
      if (order.status !== 'c') throw new ActionRefused(ACTION_MESSAGES.notCanceled);
      const positions = await this.positionsOf(ctx, true);
      // Redeem first: a blocking voucher then stops holding the place its position takes back.
      const vouchers = await this.redeemVouchersAgain(ctx, positions);
      await this.reservePlaces(ctx, positions, vouchers);
      await em.update(OrderPosition, { orderId: order.id }, { canceled: false });
      await em.update(OrderFee, { orderId: order.id }, { canceled: false });
      const payments = await em.find(OrderPayment, { where: { orderId: order.id } });
      const settled =
        !order.requireApproval &&
        payments.some((p) => p.state === 'confirmed') &&
        paidCredit(payments).gte(order.total);
      order.status = settled ? 'p' : 'n';
      order.cancellationDate = null;
      await this.log(ctx, 'pretix.event.order.reactivated', { expires: isoUtc(order.expires) });
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
      if (!wasExpired && order.expires.getTime() === expires.getTime()) return false;
      if (wasExpired && !(body.force ?? false)) {
        const positions = await this.positionsOf(ctx, false);
        const vouchers = await this.vouchersOf(ctx.em, [...voucherUses(positions).keys()], false);
        await this.reservePlaces(ctx, positions, vouchers);
      }
      order.expires = expires;
      order.status = 'n';
      await this.log(ctx, 'pretix.event.order.expirychanged', {
        expires: isoUtc(expires),
        state_change: wasExpired,
      });
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
      order.requireApproval = false;
      await this.log(ctx, 'pretix.event.order.approved');
      if (new Decimal(order.total).isZero()) await this.settle(ctx, 'free');
      if (body.send_email ?? true) {
        await this.sendMail(ctx, `Order approved: ${order.code}`, [
          `your order ${order.code} for ${eventName(ctx.event)} has been approved.`,
        ]);
      }
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
      const { em, order } = ctx;
      if (order.status !== 'n' || !order.requireApproval)
        throw new ActionRefused(ACTION_MESSAGES.notPendingApproval);
      const positions = await this.positionsOf(ctx, false);
      await this.releaseVouchers(ctx, positions);
      await em.update(OrderPosition, { orderId: order.id, canceled: false }, { canceled: true });
      order.status = 'c';
      const comment = body.comment ?? null;
      await this.log(ctx, 'pretix.event.order.denied', { comment });
      if (body.send_email ?? true) {
        await this.sendMail(ctx, `Order denied: ${order.code}`, [
          `unfortunately, your order ${order.code} for ${eventName(ctx.event)} has been denied.`,
          ...(comment ? [comment] : []),
        ]);
      }
    });
  }

  /**
   * Runs an action in one transaction: bounds lock waits, locks the order row of the event, runs `work`, then
   * (unless `work` returns false: nothing changed) writes the order's state with a new `last_modified`; after
   * the commit, presents the order.
   * @throws NotFound for a code that is not an order of this event
   */
  private async run(
    event: Event,
    principal: Principal,
    code: string,
    work: (ctx: ActionContext) => Promise<boolean | void>,
  ): Promise<OrderJson> {
    const order = await this.db.transaction(async (em) => {
      await setLockTimeout(em, this.lockTimeoutMs);
      const order =
        code.length <= 16
          ? await em.findOne(Order, {
              where: { eventId: event.id, code },
              lock: { mode: 'pessimistic_write' },
            })
          : null;
      if (!order) throw new NotFound();
      const ctx: ActionContext = { em, event, principal, order, now: new Date() };
      if ((await work(ctx)) !== false) {
        order.lastModified = ctx.now;
        await em.update(
          Order,
          { id: order.id },
          {
            status: order.status,
            expires: order.expires,
            total: order.total,
            requireApproval: order.requireApproval,
            cancellationDate: order.cancellationDate,
            lastModified: order.lastModified,
          },
        );
      }
      return order;
    });
    // Presented after the commit, on pool connections: the locks are held no longer than the change needs, and
    // the presentation's parallel loads do not share the transaction's single connection.
    const [json] = await this.presentation.orders(
      this.db.manager,
      [order],
      new Map([[event.id, event.slug]]),
    );
    return json;
  }

  /** The order's positions: the active ones, or all of them (a canceled order's, to revive). */
  private positionsOf(ctx: ActionContext, all: boolean): Promise<OrderPosition[]> {
    return ctx.em.find(OrderPosition, {
      where: all ? { orderId: ctx.order.id } : { orderId: ctx.order.id, canceled: false },
      order: { positionid: 'ASC', id: 'ASC' },
    });
  }

  /** Voucher rows by id (one statement); locked in id order when their redemptions are about to change. */
  private async vouchersOf(
    em: EntityManager,
    ids: number[],
    lock: boolean,
  ): Promise<Map<number, VoucherState>> {
    if (ids.length === 0) return new Map();
    const rows: VoucherState[] = await em.query(
      `SELECT id, max_usages, redeemed, budget, budget_used, allow_ignore_quota FROM voucher
        WHERE id = ANY($1) ORDER BY id ${lock ? 'FOR UPDATE' : ''}`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * Reserves one place per position on every quota of its product (positions with an `allow_ignore_quota`
   * voucher need none), locking only those quotas.
   * @throws ActionRefused `The product "X" is not assigned to a quota.` or the quota-exceeded message
   */
  private async reservePlaces(
    ctx: ActionContext,
    positions: OrderPosition[],
    vouchers: ReadonlyMap<number, VoucherState>,
  ): Promise<void> {
    const ignoresQuota = (id: number) => vouchers.get(id)?.allow_ignore_quota === true;
    const quotasByProduct = new Map<string, number[]>();
    for (const p of positions) {
      if (p.voucherId !== null && ignoresQuota(p.voucherId)) continue;
      const key = productKey(p);
      if (quotasByProduct.has(key)) continue;
      const ids = await quotasForProduct(ctx.em, ctx.event.id, p);
      if (ids.length === 0) {
        const rows: { name: Record<string, string> }[] = await ctx.em.query(
          'SELECT name FROM item WHERE id = $1',
          [p.itemId],
        );
        throw new ActionRefused(noQuotaMessage(i18nText(rows[0]?.name)));
      }
      quotasByProduct.set(key, ids);
    }
    const needed = placesNeeded(positions, quotasByProduct, ignoresQuota);
    if (needed.size === 0) return;
    try {
      await this.reservations.reserve(ctx.em, ctx.principal, [...needed.keys()], needed);
    } catch (err) {
      if (err instanceof QuotaExceeded) throw new ActionRefused(err.message);
      throw err;
    }
  }

  /** Gives back the redemptions (and budget) the positions took from their vouchers; vouchers locked in id order. */
  private async releaseVouchers(ctx: ActionContext, positions: OrderPosition[]): Promise<void> {
    const uses = voucherUses(positions);
    if (uses.size === 0) return;
    await this.vouchersOf(ctx.em, [...uses.keys()], true);
    await this.adjustVouchers(ctx.em, uses, -1);
  }

  /**
   * Takes the positions' voucher redemptions again (vouchers locked in id order); live carts holding a voucher
   * count against it.
   * @returns the vouchers as they were before
   * @throws ActionRefused when a voucher was used up (or its budget spent) meanwhile
   */
  private async redeemVouchersAgain(
    ctx: ActionContext,
    positions: OrderPosition[],
  ): Promise<Map<number, VoucherState>> {
    const uses = voucherUses(positions);
    const vouchers = await this.vouchersOf(ctx.em, [...uses.keys()], true);
    if (vouchers.size === 0) return vouchers;
    const carts: { voucher_id: number; n: number }[] = await ctx.em.query(
      `SELECT voucher_id, count(*)::int AS n FROM cart_position
        WHERE voucher_id = ANY($1) AND expires >= $2 GROUP BY voucher_id`,
      [[...vouchers.keys()], ctx.now],
    );
    const inCarts = new Map(carts.map((r) => [r.voucher_id, r.n]));
    for (const voucher of vouchers.values()) {
      const refusal = voucherRedoRefusal(voucher, uses.get(voucher.id)!, inCarts.get(voucher.id) ?? 0);
      if (refusal) throw new ActionRefused(refusal);
    }
    // A voucher deleted since the order was placed is gone from the positions too (SET NULL): nothing to redo.
    const present = new Map([...uses].filter(([id]) => vouchers.has(id)));
    await this.adjustVouchers(ctx.em, present, 1);
    return vouchers;
  }

  /** Adds (`sign` 1) or removes (`sign` -1) redemptions and budget use, never below zero; one statement. */
  private async adjustVouchers(
    em: EntityManager,
    uses: ReadonlyMap<number, { count: number; budget: Decimal }>,
    sign: 1 | -1,
  ): Promise<void> {
    if (uses.size === 0) return;
    const ids = [...uses.keys()];
    await em.query(
      `UPDATE voucher v SET redeemed = GREATEST(0, v.redeemed + $4 * u.n),
              budget_used = GREATEST(0, v.budget_used + $4 * u.b)
         FROM unnest($1::int[], $2::int[], $3::numeric[]) AS u(id, n, b)
        WHERE v.id = u.id`,
      [ids, ids.map((id) => uses.get(id)!.count), ids.map((id) => uses.get(id)!.budget.toFixed(2)), sign],
    );
  }

  /**
   * Settles the order with a confirmed payment of the open amount from `provider` and marks it paid: an open
   * payment of that provider and exact amount is confirmed, other open payments are canceled, else a new
   * payment is added (next `local_id`). Logs `.payment.confirmed` and `.paid`.
   */
  private async settle(ctx: ActionContext, provider: string): Promise<void> {
    const { em, order, now } = ctx;
    const payments = await em.find(OrderPayment, { where: { orderId: order.id }, order: { localId: 'ASC' } });
    const amount = openAmount(order.total, payments);
    const reuse = payments.find(
      (p) => OPEN_PAYMENT_STATES.includes(p.state) && p.provider === provider && amount.eq(p.amount),
    );
    await this.cancelOpenPayments(
      ctx,
      payments.filter((p) => p !== reuse),
    );
    let payment: OrderPayment;
    if (reuse) {
      reuse.state = 'confirmed';
      reuse.paymentDate = now;
      await em.update(OrderPayment, { id: reuse.id }, { state: 'confirmed', paymentDate: now });
      payment = reuse;
    } else {
      const localId = payments.reduce((max, p) => Math.max(max, p.localId), 0) + 1;
      payment = await em.save(
        em.create(OrderPayment, {
          orderId: order.id,
          localId,
          state: 'confirmed',
          amount: toMoney(amount),
          provider,
          created: now,
          paymentDate: now,
          info: {},
        }),
      );
    }
    order.status = 'p';
    await this.log(ctx, 'pretix.event.order.payment.confirmed', {
      local_id: payment.localId,
      provider: payment.provider,
    });
    await this.log(ctx, 'pretix.event.order.paid', {
      provider: payment.provider,
      info: {},
      date: isoUtc(now),
      force: false,
    });
  }

  /** Cancels the open (created or pending) payments among `payments`; logs `.payment.canceled` for each. */
  private async cancelOpenPayments(ctx: ActionContext, payments: OrderPayment[]): Promise<void> {
    for (const p of payments.filter((x) => OPEN_PAYMENT_STATES.includes(x.state))) {
      p.state = 'canceled';
      await ctx.em.update(OrderPayment, { id: p.id }, { state: 'canceled' });
      await this.log(ctx, 'pretix.event.order.payment.canceled', {
        local_id: p.localId,
        provider: p.provider,
      });
    }
  }

  /** Adds the `cancellation` fee, taxed (gross) by the event's default tax rule when there is one. */
  private async addCancellationFee(ctx: ActionContext, fee: Decimal): Promise<void> {
    const rule = await ctx.em.findOne(TaxRule, { where: { eventId: ctx.event.id, isDefault: true } });
    const rate = new Decimal(rule?.rate ?? 0);
    const tax = rule
      ? fee.times(rate).dividedBy(rate.plus(100)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
      : new Decimal(0);
    await ctx.em.insert(OrderFee, {
      orderId: ctx.order.id,
      feeType: 'cancellation',
      value: toMoney(fee),
      description: '',
      internalType: '',
      taxRate: toMoney(rate),
      taxValue: toMoney(tax),
      taxRuleId: rule?.id ?? null,
      canceled: false,
    });
  }

  private async log(ctx: ActionContext, action: string, data: Record<string, unknown> = {}): Promise<void> {
    await this.audit.record(ctx.em, ctx.principal, {
      organizerId: ctx.event.organizerId,
      eventId: ctx.event.id,
      contentType: 'order',
      objectId: ctx.order.id,
      action,
      data,
    });
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

function eventName(event: Event): string {
  return i18nText(event.name) || event.slug;
}
