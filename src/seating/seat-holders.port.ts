import type { EntityManager } from 'typeorm';
import type { SeatScope } from './seat-scope';

/** What holds a seat: the live order position, live cart position or voucher (ids; null where none). */
export interface SeatHolder {
  orderposition: number | null;
  cartposition: number | null;
  voucher: number | null;
}

/**
 * Port: who holds the seats of a scope (compat §3.18 `orderposition`, `cartposition`, `voucher`, `is_available`).
 * Order and cart positions belong to `orders/`, which provides it (with the vouchers it reads through the
 * catalogue); seating never reads their tables (architecture.md "Layout"). Mandatory.
 */
export interface SeatHolders {
  /**
   * Every held seat of the scope: order positions of pending or paid orders that are not canceled, cart positions
   * that have not expired at `now`, vouchers bound to a seat. One statement.
   * @returns holders by seat id; seats held by nothing are absent
   */
  ofScope(em: EntityManager, scope: SeatScope, now: Date): Promise<Map<number, SeatHolder>>;

  /**
   * The nested objects of `?expand=` (compat §3.18): order positions (with `order` as `{code, event}` and without
   * `seat`), cart positions and vouchers by id, each as its resource shows it. One statement per kind asked for.
   */
  expand(
    em: EntityManager,
    ids: { orderposition: number[]; cartposition: number[]; voucher: number[] },
  ): Promise<{
    orderposition: Map<number, object>;
    cartposition: Map<number, object>;
    voucher: Map<number, object>;
  }>;
}

export const SEAT_HOLDERS = Symbol('SeatHolders');
