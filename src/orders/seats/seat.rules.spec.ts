import type { SaleSeat } from '../../seating/seat-sales.service';
import { seatKey } from '../../seating/seat-sales.service';
import { resolveSeats, SEAT_MESSAGES, SeatRefs } from './seat.rules';

const seat = (
  id: number,
  guid: string,
  productId: number | null,
  extra: Partial<SaleSeat> = {},
): SaleSeat => ({
  id,
  subeventId: null,
  guid,
  productId,
  blocked: false,
  name: `Seat ${guid}`,
  ...extra,
});

describe('resolveSeats', () => {
  const refs: SeatRefs = {
    seats: new Map([
      [seatKey(null, 'a'), seat(1, 'a', 10)],
      [seatKey(null, 'b'), seat(2, 'b', 10, { blocked: true })],
      [seatKey(null, 'c'), seat(3, 'c', 10)],
      [seatKey(null, 'd'), seat(4, 'd', 11)],
      [seatKey(7, 'a'), seat(5, 'a', 10, { subeventId: 7 })],
    ]),
    seated: new Set([seatKey(null, 10), seatKey(null, 11), seatKey(7, 10)]),
    held: new Set([3]),
  };

  it('requires a seat for a seated product and refuses one for another', () => {
    expect(resolveSeats([{ itemId: 10, subeventId: null, guid: null }], refs)).toEqual([
      { error: SEAT_MESSAGES.required },
    ]);
    expect(resolveSeats([{ itemId: 12, subeventId: null, guid: 'a' }], refs)).toEqual([
      { error: SEAT_MESSAGES.notAllowed },
    ]);
    expect(resolveSeats([{ itemId: 12, subeventId: null, guid: null }], refs)).toEqual([{ seat: null }]);
  });

  it('refuses unknown, blocked, held and other-product seats, and a seat twice; picks the seat of the date', () => {
    const out = resolveSeats(
      [
        { itemId: 10, subeventId: null, guid: 'x' },
        { itemId: 10, subeventId: null, guid: 'b' },
        { itemId: 10, subeventId: null, guid: 'c' },
        { itemId: 10, subeventId: null, guid: 'd' },
        { itemId: 10, subeventId: null, guid: 'a' },
        { itemId: 10, subeventId: null, guid: 'a' },
        { itemId: 10, subeventId: 7, guid: 'a' },
      ],
      refs,
    );
    expect(out).toEqual([
      { error: SEAT_MESSAGES.unknown },
      { error: SEAT_MESSAGES.unavailable('Seat b') },
      { error: SEAT_MESSAGES.unavailable('Seat c') },
      { error: SEAT_MESSAGES.unavailable('Seat d') },
      { seat: refs.seats.get(seatKey(null, 'a')) },
      { error: SEAT_MESSAGES.twice },
      { seat: refs.seats.get(seatKey(7, 'a')) },
    ]);
  });
});
