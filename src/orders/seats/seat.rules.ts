import type { SaleSeat } from '../../seating/seat-sales.service';
import { seatKey } from '../../seating/seat-sales.service';
import { SALES_MESSAGES } from '../writing/sales.rules';

/**
 * The seat rules shared by order creation and cart positions (compat §3.2, §4.4; pretix's cart and order
 * serializers). Pure; the services gather {@link SeatRefs} under the seat locks.
 */

/** pretix's seat texts (compat §3.2). */
export const SEAT_MESSAGES = {
  required: 'The specified product requires to choose a seat.',
  notAllowed: 'The specified product does not allow to choose a seat.',
  unknown: SALES_MESSAGES.seatUnknown,
  twice: 'You can not select the same seat multiple times.',
  voucherOtherSeat: 'The specified voucher is not valid for this seat.',
  unavailable: (name: string) => `The selected seat "${name}" is not available.`,
} as const;

/** What the seat rules need, read under the seat locks. */
export interface SeatRefs {
  /** The seats the request names, by `seatKey(date, guid)`. */
  seats: ReadonlyMap<string, SaleSeat>;
  /** Seated products, as `seatKey(date, item id)`. */
  seated: ReadonlySet<string>;
  /** Ids of the seats held by another live order position, cart position or voucher. */
  held: ReadonlySet<number>;
}

/** One position's seat request: its product, date and the guid sent (or null). */
export interface SeatRequest {
  itemId: number;
  subeventId: number | null;
  guid: string | null;
  /** The seat the position's voucher is bound to (it may be blocked; it must be this one), or null. */
  voucherSeatId?: number | null;
}

/**
 * The seat of each request, or the first problem (message for the `seat` field), in pretix's order: a seated
 * product needs a seat and an unseated one takes none, the guid must name a seat of the event (of the date on a
 * series) for this product, a voucher bound to a seat allows only that one (blocked or not), the seat must not
 * be blocked or held, and one request names a seat once.
 * @returns per request: `{ seat }` (null for an unseated product) or `{ error }`
 */
export function resolveSeats(
  requests: readonly SeatRequest[],
  refs: SeatRefs,
): ({ seat: SaleSeat | null } | { error: string })[] {
  const taken = new Set<number>();
  return requests.map((r) => {
    const seated = refs.seated.has(seatKey(r.subeventId, r.itemId));
    if (r.guid === null) return seated ? { error: SEAT_MESSAGES.required } : { seat: null };
    if (!seated) return { error: SEAT_MESSAGES.notAllowed };
    const seat = refs.seats.get(seatKey(r.subeventId, r.guid));
    if (!seat) return { error: SEAT_MESSAGES.unknown };
    const bound = r.voucherSeatId ?? null;
    if (bound !== null && bound !== seat.id) return { error: SEAT_MESSAGES.voucherOtherSeat };
    if (seat.productId !== r.itemId || (seat.blocked && bound !== seat.id) || refs.held.has(seat.id)) {
      return { error: SEAT_MESSAGES.unavailable(seat.name) };
    }
    if (taken.has(seat.id)) return { error: SEAT_MESSAGES.twice };
    taken.add(seat.id);
    return { seat };
  });
}
