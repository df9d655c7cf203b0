/**
 * Whether a voucher may be used for a product (pretix `Voucher.applies_to` and the checks of order and cart
 * creation; compat §3.2, §4.4). Pure functions: callers load the rows and count usage in one go.
 */
export interface VoucherRuleInput {
  itemId: number | null;
  variationId: number | null;
  quotaId: number | null;
  subeventId: number | null;
  validUntil: Date | null;
  maxUsages: number;
  redeemed: number;
}

export type VoucherProblem = 'invalid_item' | 'invalid_subevent' | 'expired' | 'used_up';

/**
 * @param quotaItemIds for a quota voucher: the products of its quota (item ids, and `item:variation` keys)
 * @param usedElsewhere live cart positions holding the voucher (not counting carts being consumed)
 * @param usedInRequest uses by earlier positions of the same request, including this one
 */
export function voucherProblem(
  voucher: VoucherRuleInput,
  product: { itemId: number; variationId: number | null; subeventId: number | null },
  now: Date,
  usedElsewhere: number,
  usedInRequest: number,
  quotaProducts?: ReadonlySet<string>,
): VoucherProblem | null {
  if (voucher.itemId !== null) {
    if (voucher.itemId !== product.itemId) return 'invalid_item';
    if (voucher.variationId !== null && voucher.variationId !== product.variationId) return 'invalid_item';
  } else if (voucher.quotaId !== null) {
    const key =
      product.variationId === null ? `${product.itemId}` : `${product.itemId}:${product.variationId}`;
    if (!quotaProducts?.has(key)) return 'invalid_item';
  }
  if (voucher.subeventId !== null && voucher.subeventId !== product.subeventId) return 'invalid_subevent';
  if (voucher.validUntil !== null && voucher.validUntil < now) return 'expired';
  if (voucher.maxUsages - voucher.redeemed - usedElsewhere < usedInRequest) return 'used_up';
  return null;
}

/** Messages for orders (pretix's order serializer and cart service). */
export const ORDER_VOUCHER_MESSAGES: Record<VoucherProblem, string> = {
  invalid_item:
    'The voucher code used for one of the items in your cart is not valid for this product. We removed this item from your cart.',
  invalid_subevent:
    'The voucher code used for one of the items in your cart is not valid for this event date. We removed this item from your cart.',
  expired:
    'The voucher code used for one of the items in your cart is expired. We removed this item from your cart.',
  used_up: 'The voucher has already been used the maximum number of times.',
};

/** Messages for cart positions (compat §3.2). */
export const CART_VOUCHER_MESSAGES: Record<VoucherProblem, string> = {
  invalid_item: 'The specified voucher is not valid for the given item and variation.',
  invalid_subevent: 'The specified voucher is not valid for this subevent.',
  expired: 'The specified voucher is expired.',
  used_up: 'The specified voucher has already been used the maximum number of times.',
};
