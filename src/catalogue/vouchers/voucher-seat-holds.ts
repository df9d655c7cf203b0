import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { Voucher } from './voucher.entity';

/**
 * Vouchers for the seat holders the orders' core gathers (the catalogue's table `voucher`): a voucher bound to a
 * seat holds it while it can still be redeemed (`redeemed < max_usages`; compat §3.18), see
 * {@link VoucherQueries.seatHolds}; and the vouchers to nest in a seat.
 */
@Injectable()
export class VoucherSeatHolds {
  /** Vouchers by id, for nesting in a seat (`?expand=voucher`); one statement, none for an empty list. */
  async byIds(em: EntityManager, ids: readonly number[]): Promise<Voucher[]> {
    if (ids.length === 0) return [];
    return em.getRepository(Voucher).findBy({ id: In([...ids]) });
  }
}
