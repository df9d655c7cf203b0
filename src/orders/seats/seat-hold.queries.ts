import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { VoucherQueries } from '../../catalogue/vouchers/voucher.queries';
import type { SeatScope } from '../../seating/seat-scope';
import { CartPosition } from '../carts/cart-position.entity';

/** A held seat: by an order position (`o`), a live cart position (`c`) or a voucher (`v`), with the holder's id. */
export interface SeatHoldRow {
  seat: number;
  kind: 'o' | 'c' | 'v';
  id: number;
}

/**
 * The SQL of seat holds (spec "Seat"; compat §3.18): which seats order positions, live cart positions and vouchers
 * hold (the vouchers' part is the catalogue's fragment `VoucherQueries.seatHolds`, spliced into one statement), and
 * the purge of expired carts holding seats. Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class SeatHoldQueries {
  /**
   * The seats among `seatIds` held by a live order position, a cart position live at `now` (not one of
   * `except`) or a voucher (not one of `exceptVouchers`); one statement.
   */
  held(
    em: EntityManager,
    seatIds: readonly number[],
    now: Date,
    except: readonly number[],
    exceptVouchers: readonly number[],
  ): Promise<{ seat: number }[]> {
    return em.query(
      `SELECT live_seat_id AS seat FROM order_position WHERE live_seat_id = ANY($1)
       UNION
       SELECT seat_id FROM cart_position WHERE seat_id = ANY($1) AND expires >= $2 AND NOT (id = ANY($3))
       UNION
       SELECT seat FROM (${VoucherQueries.seatHolds('seat_id = ANY($1) AND NOT (id = ANY($4))')}) v`,
      [[...seatIds], now, [...except], [...exceptVouchers]],
    );
  }

  /** Deletes expired cart positions holding any of `seatIds` (one statement). */
  async purgeExpiredCarts(em: EntityManager, seatIds: readonly number[], now: Date): Promise<void> {
    await em
      .createQueryBuilder()
      .delete()
      .from(CartPosition)
      .where('seat_id = ANY(:ids) AND expires < :now', { ids: [...seatIds], now })
      .execute();
  }

  /**
   * Every hold of the scope's seats (of the date `scope.subeventId`, or of no date when null), live at `now`; one
   * statement.
   */
  ofScope(em: EntityManager, scope: SeatScope, now: Date): Promise<SeatHoldRow[]> {
    const sub = scope.subeventId === null ? 'subevent_id IS NULL' : 'subevent_id = $3';
    return em.query(
      `SELECT live_seat_id AS seat, 'o' AS kind, id FROM order_position
        WHERE event_id = $1 AND ${sub} AND live_seat_id IS NOT NULL
       UNION ALL
       SELECT seat_id, 'c', id FROM cart_position
        WHERE event_id = $1 AND ${sub} AND seat_id IS NOT NULL AND expires >= $2
       UNION ALL
       SELECT seat, 'v', id FROM (${VoucherQueries.seatHolds(`event_id = $1 AND ${sub}`)}) v`,
      scope.subeventId === null ? [scope.eventId, now] : [scope.eventId, now, scope.subeventId],
    );
  }
}
