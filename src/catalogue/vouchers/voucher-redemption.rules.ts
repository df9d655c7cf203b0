import { Decimal } from '../../common/values/money';
import type { QuotaProducts } from '../quotas/quota-availability';
import type { Product } from '../quotas/quota-lookup.service';
import type { Voucher } from './voucher.entity';

/**
 * Pure rules of redeeming vouchers (pretix `Voucher.applies_to`, the usage checks of order and cart creation and
 * of reviving orders; compat §3.2, §3.23, §4.4). No database access: {@link VoucherRedemptions} loads the rows
 * and counts the carts; unit-tested in `voucher-redemption.rules.spec.ts`.
 */

/** A voucher as the sales path sees it (spec "Voucher"); money fields are strings with two decimals. */
export type SaleVoucher = Pick<
  Voucher,
  | 'id'
  | 'code'
  | 'itemId'
  | 'variationId'
  | 'quotaId'
  | 'subeventId'
  | 'validUntil'
  | 'maxUsages'
  | 'minUsages'
  | 'redeemed'
  | 'budget'
  | 'budgetUsed'
  | 'blockQuota'
  | 'allowIgnoreQuota'
  | 'priceMode'
  | 'value'
  | 'seatId'
>;

/** The fields of a voucher the product, expiry and usage rules read. */
export type VoucherRuleInput = Pick<
  SaleVoucher,
  'itemId' | 'variationId' | 'quotaId' | 'subeventId' | 'validUntil' | 'maxUsages' | 'redeemed'
>;

/** Why a voucher cannot be used for a product; the callers word it (orders and carts differ, compat §3.2, §4.4). */
export type VoucherProblem = 'invalid_item' | 'invalid_subevent' | 'expired' | 'used_up';

/** Why a revived order cannot take its redemptions again. */
export type RedoProblem = 'used_up' | 'budget';

/** Uses of one voucher by a set of positions: how many, and how much of its budget (money). */
export interface VoucherUse {
  count: number;
  budget: Decimal;
}

/**
 * Whether a voucher may be used for a product: bound to another item or variation (or, for a quota voucher, a
 * product its quota does not count), another sub-event, expired, or used up (`max_usages` minus `redeemed`
 * minus the live carts holding it must cover this request's uses).
 * @param usedElsewhere live cart positions holding the voucher (not counting carts being consumed)
 * @param usedInRequest uses by earlier positions of the same request, including this one
 * @param quotaProducts for a quota voucher: the products its quota counts
 */
export function voucherProblem(
  voucher: VoucherRuleInput,
  product: Product,
  now: Date,
  usedElsewhere: number,
  usedInRequest: number,
  quotaProducts?: QuotaProducts,
): VoucherProblem | null {
  if (voucher.itemId !== null) {
    if (voucher.itemId !== product.itemId) return 'invalid_item';
    if (voucher.variationId !== null && voucher.variationId !== product.variationId) return 'invalid_item';
  } else if (voucher.quotaId !== null) {
    const counted =
      product.variationId === null
        ? quotaProducts?.itemIds.includes(product.itemId)
        : quotaProducts?.variationIds.includes(product.variationId);
    if (!counted) return 'invalid_item';
  }
  if (voucher.subeventId !== null && voucher.subeventId !== product.subeventId) return 'invalid_subevent';
  if (voucher.validUntil !== null && voucher.validUntil < now) return 'expired';
  if (exceedsUsage(voucher, usedElsewhere, usedInRequest)) return 'used_up';
  return null;
}

/** Whether `uses` more redemptions exceed `max_usages` beside the stored ones and the live carts holding it. */
export function exceedsUsage(
  voucher: Pick<SaleVoucher, 'maxUsages' | 'redeemed'>,
  inCarts: number,
  uses: number,
): boolean {
  return voucher.maxUsages - voucher.redeemed - inCarts < uses;
}

/**
 * Whether a revived order can take its redemptions again (pretix `_is_still_available(check_voucher_usage)`):
 * its uses must fit next to the stored redemptions and the live carts, and the budget must hold its budget use.
 */
export function redoProblem(
  voucher: Pick<SaleVoucher, 'maxUsages' | 'redeemed' | 'budget' | 'budgetUsed'>,
  use: VoucherUse,
  inCarts: number,
): RedoProblem | null {
  if (exceedsUsage(voucher, inCarts, use.count)) return 'used_up';
  if (voucher.budget !== null && new Decimal(voucher.budgetUsed).plus(use.budget).gt(voucher.budget))
    return 'budget';
  return null;
}

/** Uses of each voucher by positions (or positions being created): count and budget use (money strings). */
export function voucherUses(
  positions: readonly { voucherId: number | null; voucherBudgetUse: string | Decimal | null }[],
): Map<number, VoucherUse> {
  const uses = new Map<number, VoucherUse>();
  for (const p of positions) {
    if (p.voucherId === null) continue;
    const use = uses.get(p.voucherId) ?? { count: 0, budget: new Decimal(0) };
    use.count += 1;
    use.budget = use.budget.plus(p.voucherBudgetUse ?? 0);
    uses.set(p.voucherId, use);
  }
  return uses;
}

/** A voucher that lets its position ignore quota, or already holds the place (blocking): no quota is drawn. */
export function skipsQuota(voucher: Pick<SaleVoucher, 'allowIgnoreQuota' | 'blockQuota'> | null): boolean {
  return voucher !== null && (voucher.allowIgnoreQuota || voucher.blockQuota);
}
