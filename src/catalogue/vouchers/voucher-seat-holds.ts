import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { Voucher } from './voucher.entity';

/**
 * SQL selecting `(seat, id)` of the vouchers holding seats, for callers that add it to their own statement (the
 * catalogue owns the `voucher` table and gives the fragment): `where` is a condition on the voucher's columns
 * (`event_id`, `subevent_id`, `seat_id`, `id`) written with the caller's parameters.
 */
export function voucherSeatHoldsSql(where: string): string {
  return `SELECT seat_id AS seat, id FROM voucher
           WHERE seat_id IS NOT NULL AND redeemed < max_usages AND ${where}`;
}

/**
 * Vouchers for the seat holders the orders' core gathers (the catalogue's table `voucher`): a voucher bound to a
 * seat holds it while it can still be redeemed (`redeemed < max_usages`; compat §3.18), see
 * {@link voucherSeatHoldsSql}; and the vouchers to nest in a seat.
 */
@Injectable()
export class VoucherSeatHolds {
  /** Vouchers by id, for nesting in a seat (`?expand=voucher`); one statement, none for an empty list. */
  async byIds(em: EntityManager, ids: readonly number[]): Promise<Voucher[]> {
    if (ids.length === 0) return [];
    return em.getRepository(Voucher).findBy({ id: In([...ids]) });
  }
}
