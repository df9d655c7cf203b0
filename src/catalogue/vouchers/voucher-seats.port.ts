import type { EntityManager } from 'typeorm';

/** The seat a voucher is bound to, as the vouchers need it. */
export interface VoucherSeat {
  id: number;
  guid: string;
  /** The item mapped to the seat (null: its category is not mapped). */
  productId: number | null;
}

/**
 * Port through which vouchers bind seats (compat §3.23 `seat`). Seats belong to `seating/` and their holders to
 * `orders/`, both above the catalogue; the orders' core provides it. Mandatory.
 */
export interface VoucherSeats {
  /**
   * The seat `guid` of the event (of the date `subeventId` on a series), locked for the rest of the transaction
   * (lock order: after the voucher rows, before quotas); whether a live order position, a live cart position or
   * another voucher than `voucherId` holds it.
   * @returns null for an unknown guid
   */
  lock(
    em: EntityManager,
    eventId: number,
    subeventId: number | null,
    guid: string,
    voucherId: number | null,
    now: Date,
  ): Promise<{ seat: VoucherSeat; held: boolean } | null>;

  /** Guids by seat id, for presenting vouchers (one statement, none for an empty list). */
  guids(em: EntityManager, seatIds: readonly (number | null)[]): Promise<Map<number, string>>;
}

export const VOUCHER_SEATS = Symbol('VoucherSeats');
