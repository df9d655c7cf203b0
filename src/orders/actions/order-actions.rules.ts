import { DateTime, IANAZone } from 'luxon';
import type { Product } from '../../catalogue/quotas/quota-lookup.service';
import { productKey } from '../../catalogue/quotas/quota-lookup.service';
import type { SaleTaxRule } from '../../catalogue/sales/sales-catalogue.service';
import type { RedoProblem } from '../../catalogue/vouchers/voucher-redemption.rules';
import { InvalidRequest } from '../../common/errors';
import { checkDate } from '../../common/validation/fields';
import { Decimal, toMoney } from '../../common/values/money';
import type { OrderFee } from '../entities/order-fee.entity';
import type { OrderPosition } from '../entities/order-position.entity';
import type { Values } from '../writing/order-writer';
import { lineTax } from '../create/pricing';

/**
 * Pure rules of the order status actions (compat §4.4 "Actions"): refusals, the new deadline of `extend`, the
 * cancellation fee, the places a revived order needs. Unit-tested in `order-actions.rules.spec.ts`.
 */

/** 400 `{"detail": "..."}`: an action the order's state (or quota, or a voucher) does not allow (compat §4.4). */
export class ActionRefused extends InvalidRequest {}

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

/** The refusal of reactivating an order whose voucher cannot be redeemed again. */
export function redoRefusal(problem: RedoProblem): string {
  return problem === 'used_up' ? ACTION_MESSAGES.voucherUsedUp : ACTION_MESSAGES.voucherBudget;
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

/** The `cancellation` fee of a canceled order, taxed (gross) by the event's default tax rule when there is one. */
export function cancellationFee(fee: Decimal, rule: SaleTaxRule | null): Omit<Values<OrderFee>, 'orderId'> {
  const { tax, rate } = lineTax(fee, rule, true);
  return {
    feeType: 'cancellation',
    value: toMoney(fee),
    description: '',
    internalType: '',
    taxRate: toMoney(rate),
    taxValue: toMoney(tax),
    taxRuleId: rule?.id ?? null,
    taxCode: rule?.code ?? null,
    canceled: false,
    canceledWithOrder: false,
  };
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

type CountedPosition = Pick<OrderPosition, 'itemId' | 'variationId' | 'subeventId' | 'voucherId'>;

/**
 * The distinct products of a revived order's positions that draw quota, in position order. Positions whose
 * voucher lets them ignore quotas (`allow_ignore_quota`) draw none.
 */
export function revivedProducts(
  positions: readonly CountedPosition[],
  ignoresQuota: (voucherId: number) => boolean,
): Product[] {
  const out = new Map<string, Product>();
  for (const p of positions) {
    if (p.voucherId !== null && ignoresQuota(p.voucherId)) continue;
    const product = { itemId: p.itemId, variationId: p.variationId, subeventId: p.subeventId };
    if (!out.has(productKey(product))) out.set(productKey(product), product);
  }
  return [...out.values()];
}

/**
 * Places a revived order needs per quota: one per position on every quota of its product, except for positions
 * whose voucher ignores quotas.
 * @param quotasByProduct quota ids per product key
 */
export function placesNeeded(
  positions: readonly CountedPosition[],
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
