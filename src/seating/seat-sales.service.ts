import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SeatQueries, SeatRow } from './seat.queries';

/** A seat as sales see it: where it is, what it sells, whether it is blocked, and pretix's display name. */
export interface SaleSeat {
  id: number;
  subeventId: number | null;
  guid: string;
  productId: number | null;
  blocked: boolean;
  name: string;
}

/** The seat object of an order or cart position (spec "Cart position" `seat`: id, name, seat_guid). */
export interface PositionSeat {
  id: number;
  name: string;
  seat_guid: string;
}

/** Key of a seat (or a seated product) of an event: `<date id or 0>:<guid or item id>`. */
export function seatKey(subeventId: number | null, key: string | number): string {
  return `${subeventId ?? 0}:${key}`;
}

/**
 * pretix's display name of a seat: zone, row label (else `Row <name>`), seat label (else `Seat <number>`), the
 * non-empty ones joined by `, ` (compat §3.2 `The selected seat "Seat A1" is not available.`).
 */
export function seatName(
  row: Omit<SeatRow, 'id' | 'subevent_id' | 'seat_guid' | 'product_id' | 'blocked'>,
): string {
  const parts = [
    row.zone_name,
    row.row_label ?? (row.row_name ? `Row ${row.row_name}` : ''),
    row.seat_label ?? (row.seat_number ? `Seat ${row.seat_number}` : ''),
  ];
  return parts.filter((p) => p !== '').join(', ');
}

function toSaleSeat(r: SeatRow): SaleSeat {
  return {
    id: r.id,
    subeventId: r.subevent_id,
    guid: r.seat_guid,
    productId: r.product_id,
    blocked: r.blocked,
    name: seatName(r),
  };
}

/**
 * The seating context's service for the sales side (orders, carts, vouchers through their port): the seats a
 * request names, locked for the sale, the seated products, and the seat objects of presented positions. Lock
 * order of a sale (README "Locks"): event row, carts, vouchers, **seats** (id order), quotas.
 */
@Injectable()
export class SeatSales {
  constructor(private readonly queries: SeatQueries) {}

  /**
   * The event's seats named by (date, guid), locked `FOR UPDATE` in id order when `lock` (one statement, none for
   * an empty list).
   * @returns seats by {@link seatKey}(date, guid); unknown ones are absent
   */
  async find(
    em: EntityManager,
    eventId: number,
    wanted: readonly { subeventId: number | null; guid: string }[],
    lock: boolean,
  ): Promise<Map<string, SaleSeat>> {
    if (wanted.length === 0) return new Map();
    const rows = await this.queries.bySaleKeys(em, eventId, wanted, lock);
    return new Map(rows.map((r) => [seatKey(r.subevent_id, r.seat_guid), toSaleSeat(r)]));
  }

  /**
   * The seated products among `itemIds` (compat §3.2: an item mapped to a category of the plan of the event or of
   * the date needs a seat there), as {@link seatKey}(date, item id). One statement, none for an empty list.
   */
  async seatedProducts(em: EntityManager, eventId: number, itemIds: readonly number[]): Promise<Set<string>> {
    if (itemIds.length === 0) return new Set();
    const rows = await this.queries.seatedProducts(em, eventId, [...new Set(itemIds)]);
    return new Set(rows.map((r) => seatKey(r.subevent_id, r.product_id)));
  }

  /** Seat objects of presented positions by seat id (one statement, none for an empty list). */
  async describe(em: EntityManager, ids: readonly (number | null)[]): Promise<Map<number, PositionSeat>> {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
    if (wanted.length === 0) return new Map();
    const rows = await this.queries.byIds(em, wanted);
    return new Map(rows.map((r) => [r.id, { id: r.id, name: seatName(r), seat_guid: r.seat_guid }]));
  }
}
