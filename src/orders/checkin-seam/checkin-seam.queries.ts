import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import {
  findManyInOne,
  findOneInOne,
  paginateInOne,
  paginateWithSeparateCount,
  RelatedSpec,
} from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { SqlFragment, sqlFragment } from '../../common/persistence/sql-fragment';
import { OrderPosition } from '../entities/order-position.entity';

/**
 * SEAM to the check-in context (the one file of `orders/` whose SQL names the check-in tables `checkin` and
 * `checkin_list_item`; test/table-ownership.spec.ts lists it). The check-in context sits above orders (it redeems
 * order positions); what orders needs from its tables, and which order positions a check-in list admits (a
 * question over orders' rows and the list's settings), is read here and nowhere else in `orders/`:
 * - the last successful scan of a position (exits free places on quotas with `release_after_exit`), as SQL
 *   conditions the consistency check of the maintained counts embeds (`QuotaEngineQueries`; the counts themselves
 *   are kept by database triggers on `checkin`, migration `ProductSalesCounts`; architecture.md "Concurrency");
 * - the successful check-ins of positions, for the order presentation (compat §4.4 `checkins`);
 * - the positions a check-in list admits, their counts and their redeem state (compat §3.20, §3.21), for
 *   `CheckinPositions`, which the check-in context asks (passing a list as {@link ListScope}); it never reads
 *   orders' tables.
 */

/** A check-in list as the position queries need it (compat §3.20). */
export interface ListScope {
  id: number;
  eventId: number;
  allProducts: boolean;
  subeventId: number | null;
  includePending: boolean;
}

/** A successful scan of a position. */
export interface CheckinRow {
  id: number;
  position_id: number;
  list_id: number | null;
  type: string;
  datetime: Date;
  /** Made by an automatic check-in rule (`auto_checked_in`). */
  auto_checked_in: boolean;
  /** pretix device number of the device that made it, or null. */
  device_id: number | null;
  gate_id: number | null;
}

/** A position of a `checkinlist` export with its last successful scan on the list (null: never scanned). */
export interface CheckinExportRow {
  position_id: number;
  order_code: string;
  order_status: string;
  positionid: number;
  item_id: number;
  variation_id: number | null;
  attendee_name: string | null;
  attendee_email: string | null;
  last_scan_type: string | null;
  last_scan_datetime: Date | null;
}

/** Per product counts of a list's `status/` (compat §3.20). */
export interface ListStatusRow {
  item_id: number;
  variation_id: number | null;
  positions: number;
  checked_in: number;
  inside: number;
}

/**
 * The typed filters of a list's positions page (compat §3.21), as `CheckinPositions` parses them: `search` is a
 * `LIKE` pattern (`QueryFilters.contains`), `orderStatus` lower-cased, `orderStatusIn` lower-cased and
 * comma-separated.
 */
export interface CheckinPositionWhere {
  search?: string;
  hasCheckin?: boolean;
  item?: number;
  itemIn?: number[];
  variation?: number;
  variationIn?: number[];
  order?: string;
  secret?: string;
  attendeeName?: string;
  orderStatus?: string;
  orderStatusIn?: string[];
}

/** The counts of a list row `l` for the lists page, as correlated subqueries (compat §3.20). */
export interface ListCountsFragments {
  positions: SqlFragment;
  checkins: SqlFragment;
}

/** SQL expressions of a list's settings: literal values of a known list, or columns of a list row `l`. */
interface ScopeSql {
  id: string;
  eventId: string;
  allProducts: string;
  subeventId: string;
  includePending: string;
}

const literal = (list: ListScope): ScopeSql => ({
  id: String(Math.trunc(list.id)),
  eventId: String(Math.trunc(list.eventId)),
  allProducts: list.allProducts ? 'true' : 'false',
  subeventId: list.subeventId === null ? 'NULL::int' : String(Math.trunc(list.subeventId)),
  includePending: list.includePending ? 'true' : 'false',
});

/** The columns of the list row aliased `l` (for the lists page). */
const ROW: ScopeSql = {
  id: 'l.id',
  eventId: 'l.event_id',
  allProducts: 'l.all_products',
  subeventId: 'l.subevent_id',
  includePending: 'l.include_pending',
};

/**
 * SQL condition: position `p` of order `o` is admitted by the list (compat §3.21): of the list's event, not
 * canceled, paid (or pending when the list includes pending or the order is `valid_if_pending`), of a listed product (unless all products), of the
 * list's sub-event (when it has one). With `ignoreStatus` any order status and canceled positions too.
 */
function admitted(s: ScopeSql, ignoreStatus = false): string {
  const status = ignoreStatus
    ? 'true'
    : `NOT p.canceled AND (o.status = 'p' OR (o.status = 'n' AND (${s.includePending} OR o.valid_if_pending)))`;
  return `p.event_id = ${s.eventId} AND ${status}
    AND (${s.allProducts} OR EXISTS (SELECT 1 FROM checkin_list_item li WHERE li.list_id = ${s.id} AND li.item_id = p.item_id))
    AND (${s.subeventId} IS NULL OR p.subevent_id = ${s.subeventId})`;
}

/**
 * SQL: the attendee name of position `alias` as one string (the legacy value, or given and family name), null
 * when empty; what name search, filter and ordering compare.
 */
const NAME = (alias: string) =>
  `nullif(coalesce(nullif(${alias}.attendee_name_parts->>'_legacy', ''),
     concat_ws(' ', nullif(${alias}.attendee_name_parts->>'given_name', ''), nullif(${alias}.attendee_name_parts->>'family_name', ''))), '')`;

/** SQL condition: position `p` has a successful entry on the list (or one of the lists: ids comma-separated). */
const checkedIn = (list: string) =>
  `EXISTS (SELECT 1 FROM checkin c WHERE c.position_id = p.id AND c.list_id IN (${list}) AND c.successful AND c.type = 'entry')`;

/** SQL: the last successful scan of position `p` on the list (type and time), as a row subquery column. */
const lastScan = (list: string, column: 'type' | 'datetime') =>
  `(SELECT c.${column} FROM checkin c WHERE c.position_id = p.id AND c.list_id IN (${list}) AND c.successful
     ORDER BY c.datetime DESC, c.id DESC LIMIT 1)`;

/**
 * The statements and fragments of the check-in seam (see the file's comment). Stateless; each method runs on
 * the caller's EntityManager.
 */
@Injectable()
export class CheckinSeamQueries {
  /**
   * Fragment, SQL condition: the last successful scan of the order position `alias.id` was an exit (NULL without
   * scans). Expects an `order_position` row aliased `alias`; uses the alias `c` inside.
   */
  lastScanIsExit(alias: string): SqlFragment {
    return sqlFragment(`(SELECT c.type FROM checkin c WHERE c.position_id = ${alias}.id AND c.successful
            ORDER BY c.datetime DESC, c.id DESC LIMIT 1) = 'exit'`);
  }

  /**
   * Fragment, SQL condition: the order position `alias.id` has an exit scan at all (cheap pre-filter). Expects an
   * `order_position` row aliased `alias`; uses the alias `c` inside.
   */
  hasExitScan(alias: string): SqlFragment {
    return sqlFragment(
      `EXISTS (SELECT 1 FROM checkin c WHERE c.position_id = ${alias}.id AND c.type = 'exit')`,
    );
  }

  /** Successful check-ins of positions, by time (one statement, no lock). */
  successfulCheckins(em: EntityManager, positionIds: readonly number[]): Promise<CheckinRow[]> {
    return em.query(
      `SELECT id, position_id, list_id, type, datetime, auto_checked_in, device_id, gate_id FROM checkin
      WHERE position_id = ANY($1) AND successful ORDER BY datetime, id`,
      [[...positionIds]],
    );
  }

  /**
   * Fragment, scalar subquery: the successful check-ins of the position whose id is the SQL expression
   * `positionId`, by time, as a JSON array of `[id, list_id, type, datetime, auto_checked_in, device_id, gate_id]`
   * (for one-statement
   * list pages of orders and positions); with `listIds` only those of that list or lists (the check-in positions
   * of a list, compat §3.21). Uses the alias `c` inside.
   */
  checkins(positionId: string, listIds?: number | readonly number[]): SqlFragment {
    const ids = listIds === undefined ? [] : typeof listIds === 'number' ? [listIds] : listIds;
    const list =
      listIds === undefined
        ? ''
        : ` AND c.list_id IN (${ids.map((id) => String(Math.trunc(id))).join(', ') || 'NULL'})`;
    return sqlFragment(`(SELECT coalesce(jsonb_agg(jsonb_build_array(c.id, c.list_id, c.type, c.datetime, c.auto_checked_in, c.device_id, c.gate_id)
      ORDER BY c.datetime, c.id), '[]'::jsonb) FROM checkin c WHERE c.position_id = ${positionId} AND c.successful${list})`);
  }

  /**
   * Fragments, scalar subqueries: the counts of a list row aliased `l` for the lists page (compat §3.20
   * `position_count`, `checkin_count`), correlated over the event's positions (aliases `p`, `o`, `li`, `c`
   * inside); each yields an int.
   */
  listCounts(): ListCountsFragments {
    const from = `FROM order_position p JOIN orders o ON o.id = p.order_id WHERE ${admitted(ROW)}`;
    return {
      positions: sqlFragment(`(SELECT count(*)::int ${from})`),
      checkins: sqlFragment(`(SELECT count(*)::int ${from} AND ${checkedIn('l.id')})`),
    };
  }

  /**
   * One page of the positions any of `lists` admits (compat §3.21), `where` applied in its field order, then the
   * ordering of `filters` (default `attendee_name,positionid`; the attendee name falls back to the parent
   * position's; without a name and never-scanned positions first). One statement, with `separateCount` two at once
   * (see `paginateWithSeparateCount`). No lock.
   * @throws ValidationFailed for a malformed `ordering`
   */
  positionsPage<R, T>(
    em: EntityManager,
    lists: readonly ListScope[],
    ignoreStatus: boolean,
    where: CheckinPositionWhere,
    filters: QueryFilters,
    page: PageRequest,
    related: RelatedSpec<R>,
    present: (row: OrderPosition, related: R) => T,
    separateCount: boolean,
  ): Promise<Paginated<T>> {
    const { qb, ids } = this.admittedQuery(em, lists, ignoreStatus, where);
    // Without a name (own or the parent's) first, as pretix; never-scanned positions first too.
    const name = `lower(coalesce(${NAME('p')}, CASE WHEN p.addon_to_id IS NOT NULL THEN
      (SELECT ${NAME('pp')} FROM order_position pp WHERE pp.id = p.addon_to_id) END, ''))`;
    applyOrdering(
      qb,
      filters,
      {
        order__code: 'o.code',
        order__datetime: 'o.datetime',
        positionid: 'p.positionid',
        attendee_name: name,
        last_checked_in: `coalesce(${lastScan(ids, 'datetime')}, '-infinity'::timestamptz)`,
        order__email: 'lower(o.email)',
      },
      ['attendee_name', 'positionid'],
    );
    return separateCount
      ? paginateWithSeparateCount(qb, page, related, present)
      : paginateInOne(qb, page, related, present);
  }

  /**
   * The position `positionId` as {@link positionsPage} would list it among the positions of `lists` with `where`
   * applied (the detail of a list's positions, pretix `CheckinListPositionViewSet.retrieve`); one statement, no
   * lock.
   * @throws NotFound when the list (with those filters) does not show it
   */
  positionOnLists<R, T>(
    em: EntityManager,
    lists: readonly ListScope[],
    ignoreStatus: boolean,
    where: CheckinPositionWhere,
    positionId: number,
    related: RelatedSpec<R>,
    present: (row: OrderPosition, related: R) => T,
  ): Promise<T> {
    const { qb } = this.admittedQuery(em, lists, ignoreStatus, where);
    qb.andWhere('p.id = :positionId', { positionId });
    return findOneInOne(qb, related, present);
  }

  /**
   * Those of the positions `ids` that `list` shows with `where` applied (the scanners' delta sync), by id, with
   * their related values; one statement, no lock.
   */
  async positionsWithIds<R, T>(
    em: EntityManager,
    list: ListScope,
    ignoreStatus: boolean,
    where: CheckinPositionWhere,
    ids: readonly number[],
    related: RelatedSpec<R>,
    present: (row: OrderPosition, related: R) => T,
  ): Promise<T[]> {
    const { qb } = this.admittedQuery(em, [list], ignoreStatus, where);
    qb.andWhere('p.id = ANY(:deltaIds)', { deltaIds: [...ids] }).orderBy('p.id');
    return (await paginateInOne(qb, new PageRequest(1, Math.max(ids.length, 1)), related, present)).items;
  }

  /**
   * The positions any of `lists` admits (several lists: the RPC search) with `where` applied, as a query over
   * positions `p` of orders `o`; `ids`: the lists' ids as SQL (`1` or `1, 2`).
   */
  private admittedQuery(
    em: EntityManager,
    lists: readonly ListScope[],
    ignoreStatus: boolean,
    where: CheckinPositionWhere,
  ): { qb: SelectQueryBuilder<OrderPosition>; ids: string } {
    const ids = lists.map((l) => String(Math.trunc(l.id))).join(', ');
    const qb = em
      .getRepository(OrderPosition)
      .createQueryBuilder('p')
      .innerJoin('orders', 'o', 'o.id = p.order_id')
      .where(`(${lists.map((l) => `(${admitted(literal(l), ignoreStatus)})`).join(' OR ')})`);
    this.applyWhere(qb, ids, where);
    return { qb, ids };
  }

  /** The conditions of `where` on positions `p` of orders `o`, in its field order; `ids`: the lists' ids as SQL. */
  private applyWhere(qb: SelectQueryBuilder<OrderPosition>, ids: string, where: CheckinPositionWhere): void {
    const pattern = where.search;
    if (pattern !== undefined) {
      qb.andWhere(
        `(p.secret LIKE :prefix OR upper(o.code) LIKE upper(:pattern) OR upper(coalesce(${NAME('p')}, '')) LIKE upper(:pattern)
          OR upper(coalesce(p.attendee_email, '')) LIKE upper(:pattern) OR upper(coalesce(o.email, '')) LIKE upper(:pattern))`,
        { prefix: pattern.slice(1), pattern },
      );
    }
    const hasCheckin = where.hasCheckin;
    if (hasCheckin !== undefined) qb.andWhere(`${hasCheckin ? '' : 'NOT '}${checkedIn(ids)}`);
    for (const [param, column, one, many] of [
      ['item', 'p.item_id', where.item, where.itemIn],
      ['variation', 'p.variation_id', where.variation, where.variationIn],
    ] as const) {
      if (one !== undefined) qb.andWhere(`${column} = :${param}`, { [param]: one });
      if (many !== undefined) qb.andWhere(`${column} = ANY(:${param}In)`, { [`${param}In`]: many });
    }
    const { order, secret, attendeeName: attendee, orderStatus: status, orderStatusIn: statuses } = where;
    if (order !== undefined) qb.andWhere('upper(o.code) = upper(:order)', { order });
    if (secret !== undefined) qb.andWhere('p.secret = :secret', { secret });
    if (attendee !== undefined) qb.andWhere(`lower(${NAME('p')}) = lower(:attendee)`, { attendee });
    if (status !== undefined) qb.andWhere('o.status = :status', { status });
    if (statuses !== undefined) qb.andWhere('o.status = ANY(:statuses)', { statuses });
  }

  /** Per product counts of the positions a list admits, checked in, and inside now (one statement, no lock). */
  status(em: EntityManager, list: ListScope): Promise<ListStatusRow[]> {
    const s = literal(list);
    return em.query(
      `SELECT p.item_id, p.variation_id, count(*)::int AS positions,
              count(*) FILTER (WHERE ${checkedIn(s.id)})::int AS checked_in,
              count(*) FILTER (WHERE ${lastScan(s.id, 'type')} = 'entry')::int AS inside
         FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE ${admitted(s)}
        GROUP BY p.item_id, p.variation_id ORDER BY p.item_id, p.variation_id NULLS FIRST`,
    );
  }

  /** The positions `positionIds` of the event with their related values, in one statement (no lock). */
  manyPositions<R, T>(
    em: EntityManager,
    eventId: number,
    positionIds: readonly number[],
    related: RelatedSpec<R>,
    present: (row: OrderPosition, related: R) => T,
  ): Promise<T[]> {
    const qb = em
      .getRepository(OrderPosition)
      .createQueryBuilder('p')
      .where('p.id = ANY(:ids) AND p.event_id = :event', { ids: [...positionIds], event: eventId });
    return findManyInOne(qb, related, present);
  }

  /** The secret and order code of each position (the live check-in stream's payload); one statement, no lock. */
  async ticketRefs(
    em: EntityManager,
    positionIds: readonly number[],
  ): Promise<{ id: number; secret: string; order: string }[]> {
    return em.query(
      `SELECT p.id, p.secret, o.code AS "order" FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE p.id = ANY($1)`,
      [[...new Set(positionIds)]],
    );
  }

  /** Whether `positionId` is a position of the event (one statement, no lock). */
  async inEvent(em: EntityManager, eventId: number, positionId: number): Promise<boolean> {
    const rows: unknown[] = await em.query('SELECT 1 FROM order_position WHERE id = $1 AND event_id = $2', [
      positionId,
      eventId,
    ]);
    return rows.length > 0;
  }

  /**
   * The event's position `positionId` with its related values, in one statement (no lock).
   * @throws NotFound when the position is not of the event
   */
  onePosition<R, T>(
    em: EntityManager,
    eventId: number,
    positionId: number,
    related: RelatedSpec<R>,
    present: (row: OrderPosition, related: R) => T,
  ): Promise<T> {
    const qb = em
      .getRepository(OrderPosition)
      .createQueryBuilder('p')
      .where('p.id = :id AND p.event_id = :event', { id: positionId, event: eventId });
    return findOneInOne(qb, related, present);
  }

  /**
   * One batch of the positions a list admits with their last successful scan on it (keyset: ids above `after`,
   * at most `batchSize`, by id; `paidOnly` leaves pending orders out); one statement, no lock.
   */
  exportBatch(
    em: EntityManager,
    list: ListScope,
    paidOnly: boolean,
    after: number,
    batchSize: number,
  ): Promise<CheckinExportRow[]> {
    const s = literal(list);
    return em.query(
      `SELECT p.id AS position_id, o.code AS order_code, o.status AS order_status, p.positionid, p.item_id,
                p.variation_id, ${NAME('p')} AS attendee_name, p.attendee_email,
                ${lastScan(s.id, 'type')} AS last_scan_type, ${lastScan(s.id, 'datetime')} AS last_scan_datetime
           FROM order_position p JOIN orders o ON o.id = p.order_id
          WHERE ${admitted(s)} AND p.id > $1 AND ($2::boolean IS FALSE OR o.status = 'p')
          ORDER BY p.id LIMIT $3`,
      [after, paidOnly, batchSize],
    );
  }
}
