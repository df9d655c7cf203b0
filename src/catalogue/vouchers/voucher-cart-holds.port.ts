import type { EntityManager } from 'typeorm';

/**
 * Port through which the vouchers ask how many live cart positions hold each voucher (a voucher in a cart counts
 * one use while the position lives, compat §3.2). Cart positions belong to `orders/`, which provides it; the
 * catalogue never reads their table (architecture.md "Layout").
 */
export interface VoucherCartHolds {
  /**
   * Live cart positions (`expires` not before `now`) of every cart (web shop ones included) holding each
   * voucher, leaving out the cart positions in `except` (those an order is consuming). One SQL statement.
   * @returns counts per voucher id; vouchers held by no cart are absent
   */
  count(
    em: EntityManager,
    voucherIds: readonly number[],
    now: Date,
    except?: readonly number[],
  ): Promise<Map<number, number>>;
}

export const VOUCHER_CART_HOLDS = Symbol('VoucherCartHolds');
