import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

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

interface SeatRow {
  id: number;
  subevent_id: number | null;
  seat_guid: string;
  product_id: number | null;
  blocked: boolean;
  zone_name: string;
  row_name: string;
  row_label: string | null;
  seat_number: string;
  seat_label: string | null;
}

const COLUMNS = `id, subevent_id, seat_guid, product_id, blocked, zone_name, row_name, row_label, seat_number,
  seat_label`;

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

/**
 * SQL of the seat object `{id, name, seat_guid}` (or NULL) of the seat whose id is the SQL expression
 * `seatIdExpr`, with {@link seatName}'s name, for presenters that build a position in one statement: the seating
 * context owns the `seat` table and gives the fragment, the caller embeds it.
 */
export function positionSeatSql(seatIdExpr: string): string {
  return `(SELECT jsonb_build_object('id', st.id, 'seat_guid', st.seat_guid, 'name', concat_ws(', ',
      nullif(st.zone_name, ''), coalesce(st.row_label, 'Row ' || nullif(st.row_name, '')),
      coalesce(st.seat_label, 'Seat ' || nullif(st.seat_number, ''))))
    FROM seat st WHERE st.id = ${seatIdExpr})`;
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
    const rows: SeatRow[] = await em.query(
      `SELECT ${COLUMNS} FROM seat
        WHERE event_id = $1
          AND (coalesce(subevent_id, 0), seat_guid) IN (SELECT * FROM unnest($2::int[], $3::text[]))
        ORDER BY id ${lock ? 'FOR UPDATE' : ''}`,
      [eventId, wanted.map((w) => w.subeventId ?? 0), wanted.map((w) => w.guid)],
    );
    return new Map(rows.map((r) => [seatKey(r.subevent_id, r.seat_guid), toSaleSeat(r)]));
  }

  /**
   * The seated products among `itemIds` (compat §3.2: an item mapped to a category of the plan of the event or of
   * the date needs a seat there), as {@link seatKey}(date, item id). One statement, none for an empty list.
   */
  async seatedProducts(em: EntityManager, eventId: number, itemIds: readonly number[]): Promise<Set<string>> {
    if (itemIds.length === 0) return new Set();
    const rows: { subevent_id: number | null; product_id: number }[] = await em.query(
      `SELECT DISTINCT subevent_id, product_id FROM seat WHERE event_id = $1 AND product_id = ANY($2)`,
      [eventId, [...new Set(itemIds)]],
    );
    return new Set(rows.map((r) => seatKey(r.subevent_id, r.product_id)));
  }

  /** Seat objects of presented positions by seat id (one statement, none for an empty list). */
  async describe(em: EntityManager, ids: readonly (number | null)[]): Promise<Map<number, PositionSeat>> {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
    if (wanted.length === 0) return new Map();
    const rows: SeatRow[] = await em.query(`SELECT ${COLUMNS} FROM seat WHERE id = ANY($1)`, [wanted]);
    return new Map(rows.map((r) => [r.id, { id: r.id, name: seatName(r), seat_guid: r.seat_guid }]));
  }
}
