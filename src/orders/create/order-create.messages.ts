import type { VoucherProblem } from '../../catalogue/vouchers/voucher-redemption.rules';

/**
 * The messages of order creation (compat §4.4 "Order creation", pretix's `OrderCreateSerializer` wording), apart
 * from the rules that raise them (`order-create.rules.ts`, which re-exports them).
 */

export const CODE_IN_USE = 'This order code is already in use.';
export const CODE_INVALID_CHARS = 'This order code contains invalid characters.';
export const ORDER_EMPTY = 'An order cannot be empty.';
export const SEAT_ON_ADDON = 'Seats are currently not supported for add-on products.';
export const VOUCHER_UNKNOWN_CODE = 'The specified voucher does not exist.';
export const VOUCHER_ON_ADDON = 'Vouchers are currently not supported for add-on products.';
export const INVOICE_NAME_TWICE = 'Do not specify name if you specified name_parts.';
export const FREE_PROVIDER_NOT_FREE = 'You cannot use the "free" payment provider for non-free orders.';
/** Order code of a simulated order (compat §4.4 `simulate`). */
export const PREVIEW = 'PREVIEW';

/** Voucher messages of orders (pretix's order serializer and cart service). */
export const ORDER_VOUCHER_MESSAGES: Record<VoucherProblem, string> = {
  invalid_item:
    'The voucher code used for one of the items in your cart is not valid for this product. We removed this item from your cart.',
  invalid_subevent:
    'The voucher code used for one of the items in your cart is not valid for this event date. We removed this item from your cart.',
  expired:
    'The voucher code used for one of the items in your cart is expired. We removed this item from your cart.',
  used_up: 'The voucher has already been used the maximum number of times.',
};
