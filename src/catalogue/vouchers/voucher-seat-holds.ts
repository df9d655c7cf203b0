import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { Voucher } from './voucher.entity';

/**
 * Which vouchers hold seats (the catalogue's table `voucher`), for the seat holders the orders' core gathers: a
 * voucher bound to a seat holds it while it can still be redeemed (`redeemed < max_usages`; compat §3.18).
 */
@Injectable()
export class VoucherSeatHolds {
  /** Seats among `seatIds` held by a voucher other than those in `except`, with the voucher (one statement). */
  async held(
    em: EntityManager,
    seatIds: readonly number[],
    except: readonly number[] = [],
  ): Promise<Map<number, number>> {
    if (seatIds.length === 0) return new Map();
    const rows: { seat_id: number; id: number }[] = await em.query(
      `SELECT seat_id, id FROM voucher
        WHERE seat_id = ANY($1) AND redeemed < max_usages AND NOT (id = ANY($2))`,
      [[...seatIds], [...except]],
    );
    return new Map(rows.map((r) => [r.seat_id, r.id]));
  }

  /** Vouchers by id, for nesting in a seat (`?expand=voucher`); one statement, none for an empty list. */
  async byIds(em: EntityManager, ids: readonly number[]): Promise<Voucher[]> {
    if (ids.length === 0) return [];
    return em.getRepository(Voucher).findBy({ id: In([...ids]) });
  }

  /** Every seat of the event (date) held by a voucher, with the voucher (one statement). */
  async ofScope(em: EntityManager, eventId: number, subeventId: number | null): Promise<Map<number, number>> {
    const rows: { seat_id: number; id: number }[] = await em.query(
      `SELECT seat_id, id FROM voucher
        WHERE event_id = $1 AND seat_id IS NOT NULL AND redeemed < max_usages
          AND ${subeventId === null ? 'subevent_id IS NULL AND $2::int IS NULL' : 'subevent_id = $2'}`,
      [eventId, subeventId],
    );
    return new Map(rows.map((r) => [r.seat_id, r.id]));
  }
}
