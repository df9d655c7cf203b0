import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../common/listing/ordering';
import { paginateRows } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { SqlFragment, sqlFragment } from '../common/persistence/sql-fragment';
import { Seat } from './seat.entity';
import type { SeatScope } from './seat-scope';

/** A `seat` row as sales read it. */
export interface SeatRow {
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

/** A seat generated from a plan, as the upsert of an event's seats takes it (jsonb record). */
export interface PlannedSeatRow {
  zone_name: string;
  row_name: string;
  row_label: string | null;
  seat_number: string;
  seat_label: string | null;
  seat_guid: string;
  product_id: number | null;
  sorting_rank: number;
}

/** Text filters of the seat list, each an exact match on its column (compat §3.18). */
const TEXT_FILTERS: Record<string, string> = {
  zone_name: 's.zone_name',
  row_name: 's.row_name',
  row_label: 's.row_label',
  seat_number: 's.seat_number',
  seat_label: 's.seat_label',
  seat_guid: 's.seat_guid',
};

/** Names of the seat list's text filters, in the order they are read. */
export const SEAT_TEXT_FILTERS = Object.keys(TEXT_FILTERS);

/** The typed filters of a seats page (compat §3.18): the text filters, `blocked`, `is_available`. */
export interface SeatListFilter {
  /** Exact matches: filter name (of {@link SEAT_TEXT_FILTERS}) and value, in {@link SEAT_TEXT_FILTERS} order. */
  text: [name: string, value: string][];
  blocked?: boolean;
  available?: boolean;
  /** Ids of seats held by a sale (not available). */
  held: number[];
}

const COLUMNS = `id, subevent_id, seat_guid, product_id, blocked, zone_name, row_name, row_label, seat_number,
  seat_label`;

/**
 * SQL condition selecting the seats of a scope, with the event id as `$<first>` and (for a date) the date id as
 * `$<first + 1>`; `params` are the values to pass in that order.
 */
function scopeCondition(scope: SeatScope, alias: string, first: number): { sql: string; params: number[] } {
  const a = alias ? `${alias}.` : '';
  return scope.subeventId === null
    ? { sql: `${a}event_id = $${first} AND ${a}subevent_id IS NULL`, params: [scope.eventId] }
    : {
        sql: `${a}event_id = $${first} AND ${a}subevent_id = $${first + 1}`,
        params: [scope.eventId, scope.subeventId],
      };
}

/**
 * The seating context's statements on `seat` (compat §3.18; spec "Seat"): the seats of a scope, the seats sales
 * lock, the seat generation of an event from its plan, and the seat object other contexts splice into their
 * presentations ({@link positionSeat}). Stateless.
 */
@Injectable()
export class SeatQueries {
  /**
   * SQL of the seat object `{id, name, seat_guid}` (jsonb, or NULL) of the seat whose id is the SQL expression
   * `seatIdExpr` (e.g. `p.seat_id`), with pretix's display name (zone, row label else `Row <name>`, seat label
   * else `Seat <number>`, joined by `, `): a scalar subquery over `seat` aliased `st`, for presenters that build
   * a position in one statement.
   */
  positionSeat(seatIdExpr: string): SqlFragment {
    return sqlFragment(`(SELECT jsonb_build_object('id', st.id, 'seat_guid', st.seat_guid, 'name', concat_ws(', ',
      nullif(st.zone_name, ''), coalesce(st.row_label, 'Row ' || nullif(st.row_name, '')),
      coalesce(st.seat_label, 'Seat ' || nullif(st.seat_number, ''))))
    FROM seat st WHERE st.id = ${seatIdExpr})`);
  }

  /**
   * The event's seats named by (date or 0, guid), in id order, locked `FOR UPDATE` when `lock` (one statement).
   */
  bySaleKeys(
    em: EntityManager,
    eventId: number,
    wanted: readonly { subeventId: number | null; guid: string }[],
    lock: boolean,
  ): Promise<SeatRow[]> {
    return em.query(
      `SELECT ${COLUMNS} FROM seat
        WHERE event_id = $1
          AND (coalesce(subevent_id, 0), seat_guid) IN (SELECT * FROM unnest($2::int[], $3::text[]))
        ORDER BY id ${lock ? 'FOR UPDATE' : ''}`,
      [eventId, wanted.map((w) => w.subeventId ?? 0), wanted.map((w) => w.guid)],
    );
  }

  /** (date, product) pairs of the event's seats whose product is among `itemIds` (distinct `itemIds`); no lock. */
  seatedProducts(
    em: EntityManager,
    eventId: number,
    itemIds: readonly number[],
  ): Promise<{ subevent_id: number | null; product_id: number }[]> {
    return em.query(
      `SELECT DISTINCT subevent_id, product_id FROM seat WHERE event_id = $1 AND product_id = ANY($2)`,
      [eventId, itemIds],
    );
  }

  /** Seats by id; no lock. */
  byIds(em: EntityManager, ids: readonly number[]): Promise<SeatRow[]> {
    return em.query(`SELECT ${COLUMNS} FROM seat WHERE id = ANY($1)`, [ids]);
  }

  /**
   * One page of the scope's seats in plan order (`ordering` `id` first when asked), rows and count in one
   * statement; no lock. @throws ValidationFailed for a malformed `ordering`
   */
  seatsPage<T>(
    em: EntityManager,
    scope: SeatScope,
    where: SeatListFilter,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: Seat[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em.getRepository(Seat).createQueryBuilder('s').where('s.event_id = :event', {
      event: scope.eventId,
    });
    if (scope.subeventId === null) qb.andWhere('s.subevent_id IS NULL');
    else qb.andWhere('s.subevent_id = :subevent', { subevent: scope.subeventId });
    for (const [name, value] of where.text)
      qb.andWhere(`${TEXT_FILTERS[name]} = :${name}`, { [name]: value });
    if (where.blocked !== undefined) qb.andWhere('s.blocked = :blocked', { blocked: where.blocked });
    if (where.available !== undefined) {
      qb.andWhere(
        where.available ? 'NOT s.blocked AND NOT (s.id = ANY(:held))' : '(s.blocked OR s.id = ANY(:held))',
        {
          held: where.held,
        },
      );
    }
    applyOrdering(qb, filters, { id: 's.id' }, []);
    qb.addOrderBy('s.sorting_rank', 'ASC').addOrderBy('s.id', 'ASC');
    return paginateRows(qb, page, present);
  }

  /**
   * The scope's seats whose `id` (`byIds`) or `seat_guid` is among `wanted`, in id order, locked `FOR UPDATE`.
   * @returns each seat's id and the matched key as text
   */
  lockByKeys(
    em: EntityManager,
    scope: SeatScope,
    byIds: boolean,
    wanted: readonly (number | string)[],
  ): Promise<{ id: number; key: string }[]> {
    const column = byIds ? 'id' : 'seat_guid';
    const where = scopeCondition(scope, '', 2);
    return em.query(
      `SELECT id, ${column}::text AS key FROM seat
          WHERE ${column} = ANY($1) AND ${where.sql} ORDER BY id FOR UPDATE`,
      [wanted, ...where.params],
    );
  }

  /** Sets `blocked` of the seats `ids` (those not already so). */
  async setBlocked(em: EntityManager, ids: readonly number[], blocked: boolean): Promise<void> {
    await em.query('UPDATE seat SET blocked = $2 WHERE id = ANY($1) AND blocked <> $2', [ids, blocked]);
  }

  /** The scope's seats whose guid is not among `keptGuids`, in id order, locked `FOR UPDATE`. */
  lockLeaving(
    em: EntityManager,
    scope: SeatScope,
    keptGuids: readonly string[],
  ): Promise<{ id: number; seat_guid: string }[]> {
    const where = scopeCondition(scope, '', 1);
    const guids = `$${where.params.length + 1}`;
    return em.query(
      `SELECT id, seat_guid FROM seat WHERE ${where.sql} AND NOT (seat_guid = ANY(${guids}::text[]))
        ORDER BY id FOR UPDATE`,
      [...where.params, keptGuids],
    );
  }

  /** Deletes the seats `ids`. */
  async deleteSeats(em: EntityManager, ids: readonly number[]): Promise<void> {
    await em.query('DELETE FROM seat WHERE id = ANY($1)', [ids]);
  }

  /**
   * Inserts the scope's planned seats, updating in place the ones that exist (by guid; `blocked` kept). One
   * statement.
   */
  async upsertPlanned(
    em: EntityManager,
    eventId: number,
    subeventId: number | null,
    rows: readonly PlannedSeatRow[],
  ): Promise<void> {
    const conflict =
      subeventId === null
        ? '(event_id, seat_guid) WHERE subevent_id IS NULL'
        : '(subevent_id, seat_guid) WHERE subevent_id IS NOT NULL';
    await em.query(
      `INSERT INTO seat (event_id, subevent_id, zone_name, row_name, row_label, seat_number, seat_label, seat_guid,
                         product_id, sorting_rank)
       SELECT $1, $2::int, r.zone_name, r.row_name, r.row_label, r.seat_number, r.seat_label, r.seat_guid,
              r.product_id, r.sorting_rank
         FROM jsonb_to_recordset($3::jsonb) AS r(zone_name text, row_name text, row_label text, seat_number text,
              seat_label text, seat_guid text, product_id int, sorting_rank int)
       ON CONFLICT ${conflict} DO UPDATE SET
         zone_name = EXCLUDED.zone_name, row_name = EXCLUDED.row_name, row_label = EXCLUDED.row_label,
         seat_number = EXCLUDED.seat_number, seat_label = EXCLUDED.seat_label, product_id = EXCLUDED.product_id,
         sorting_rank = EXCLUDED.sorting_rank`,
      [eventId, subeventId, JSON.stringify(rows)],
    );
  }
}
