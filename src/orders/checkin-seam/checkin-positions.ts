import { ApiProperty } from '@nestjs/swagger';
import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, SelectQueryBuilder } from 'typeorm';
import { QuestionQueries } from '../../catalogue/questions/question.queries';
import { applyOrdering } from '../../common/listing/ordering';
import { findOneInOne, paginateInOne, paginateWithSeparateCount } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import type { ValidatedAnswer } from '../answers/answers.rules';
import { OrderPosition } from '../entities/order-position.entity';
import { AnswerQueries } from '../answers/answer.queries';
import { ListPositionExtras, OrderPresentation } from '../presentation/order-presentation.service';
import { nameFromParts, OrderPositionJson, toOrderPositionJson } from '../presentation/order.presenter';

/**
 * SEAM between orders and check-in (the second one beside `checkin-seam.ts`; test/table-ownership.spec.ts lists
 * both): which order positions a check-in list admits is a question over orders' rows and the list's settings,
 * answered here in SQL that also names the check-in tables (`checkin_list_item`, `checkin`). The check-in context
 * passes a list as {@link ListScope} and asks through {@link CheckinPositions}; it never reads orders' tables.
 */

/** A check-in list as the position queries need it (compat §3.20). */
export interface ListScope {
  id: number;
  eventId: number;
  allProducts: boolean;
  subeventId: number | null;
  includePending: boolean;
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

/** A position on a check-in list: the order position's wire form and `require_attention` (compat §3.21). */
export class CheckinPositionJson extends OrderPositionJson {
  /** The order asks staff to pay attention at check-in. */
  @ApiProperty({ type: 'boolean', description: 'The order asks staff to pay attention at check-in.' })
  require_attention!: boolean;
}

/** Per product counts of a list's `status/` (compat §3.20). */
export interface ListStatusRow {
  item_id: number;
  variation_id: number | null;
  positions: number;
  checked_in: number;
  inside: number;
}

/** A position as a redeem sees it (compat §3.21), with its order and its add-ons. */
export interface RedeemPosition {
  id: number;
  eventId: number;
  orderId: number;
  orderCode: string;
  orderStatus: string;
  orderAttention: boolean;
  /** The pending order admits its tickets (compat §3.21). */
  validIfPending: boolean;
  /** The order awaits approval. */
  requireApproval: boolean;
  itemId: number;
  variationId: number | null;
  subeventId: number | null;
  addonToId: number | null;
  canceled: boolean;
  secret: string;
  validFrom: Date | null;
  validUntil: Date | null;
  /** Its product has questions asked during check-in. */
  hasCheckinQuestions: boolean;
  /** Found by a revoked secret (compat §3.21 `revoked`). */
  revoked: boolean;
  /** The ticket carries a block (`blocked` not null): refused with reason `blocked`. */
  blocked: boolean;
  addons: { id: number; itemId: number; canceled: boolean }[];
}

/** Order positions for the check-in context (see the file's comment). */
@Injectable()
export class CheckinPositions {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly presentation: OrderPresentation,
    private readonly answers: AnswerQueries,
  ) {}

  /**
   * SQL of a list row `l`'s counts for the lists page (compat §3.20 `position_count`, `checkin_count`):
   * correlated subqueries over the event's positions.
   */
  listCountsSql(): { positions: string; checkins: string } {
    const from = `FROM order_position p JOIN orders o ON o.id = p.order_id WHERE ${admitted(ROW)}`;
    return {
      positions: `(SELECT count(*)::int ${from})`,
      checkins: `(SELECT count(*)::int ${from} AND ${checkedIn('l.id')})`,
    };
  }

  /**
   * One page of the positions a list admits (or any of several lists: the RPC search), with the list's (lists')
   * check-ins only (compat §3.21). `ignore_status`
   * admits any status; `search` (3+ characters) matches the secret's start, the order code, attendee name and
   * e-mail; `has_checkin`; `item`, `variation` (and `__in`), `order`, `secret`, `attendee_name`,
   * `order__status` (and `__in`). Ordering as the spec lists (default `attendee_name,positionid`); the attendee
   * name falls back to the parent position's. One statement; with `separateCount` two at once (page and count:
   * the page's costly values are then computed for its rows only, what a list of 10,000s of tickets needs).
   * @throws ValidationFailed for a malformed filter value
   */
  async page(
    listOrLists: ListScope | readonly ListScope[],
    filters: QueryFilters,
    page: PageRequest,
    separateCount = false,
  ): Promise<Paginated<CheckinPositionJson>> {
    const lists: readonly ListScope[] = 'id' in listOrLists ? [listOrLists] : listOrLists;
    if (lists.length === 0) return Paginated.of([], 0, page);
    const ignoreStatus = filters.bool('ignore_status') === true;
    // The lists' ids as SQL (`1` or `1, 2`); several lists: positions any of them admits (the RPC search).
    const ids = lists.map((l) => String(Math.trunc(l.id))).join(', ');
    const qb = this.db
      .getRepository(OrderPosition)
      .createQueryBuilder('p')
      .innerJoin('orders', 'o', 'o.id = p.order_id')
      .where(`(${lists.map((l) => `(${admitted(literal(l), ignoreStatus)})`).join(' OR ')})`);
    this.filter(qb, ids, filters);
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
    const related = this.presentation.listPositionRelated(lists.map((l) => l.id));
    return separateCount
      ? paginateWithSeparateCount(qb, page, related, toListPositionJson)
      : paginateInOne(qb, page, related, toListPositionJson);
  }

  private filter(qb: SelectQueryBuilder<OrderPosition>, ids: string, filters: QueryFilters): void {
    const pattern = filters.contains('search');
    if (pattern !== undefined) {
      qb.andWhere(
        `(p.secret LIKE :prefix OR upper(o.code) LIKE upper(:pattern) OR upper(coalesce(${NAME('p')}, '')) LIKE upper(:pattern)
          OR upper(coalesce(p.attendee_email, '')) LIKE upper(:pattern) OR upper(coalesce(o.email, '')) LIKE upper(:pattern))`,
        { prefix: pattern.slice(1), pattern },
      );
    }
    const hasCheckin = filters.bool('has_checkin');
    if (hasCheckin !== undefined) qb.andWhere(`${hasCheckin ? '' : 'NOT '}${checkedIn(ids)}`);
    for (const [param, column] of [
      ['item', 'p.item_id'],
      ['variation', 'p.variation_id'],
    ] as const) {
      const one = filters.int(param);
      if (one !== undefined) qb.andWhere(`${column} = :${param}`, { [param]: one });
      const many = filters.intList(`${param}__in`);
      if (many !== undefined) qb.andWhere(`${column} = ANY(:${param}In)`, { [`${param}In`]: many });
    }
    const order = filters.str('order');
    if (order !== undefined) qb.andWhere('upper(o.code) = upper(:order)', { order });
    const secret = filters.str('secret');
    if (secret !== undefined) qb.andWhere('p.secret = :secret', { secret });
    const attendee = filters.str('attendee_name');
    if (attendee !== undefined) qb.andWhere(`lower(${NAME('p')}) = lower(:attendee)`, { attendee });
    const status = filters.str('order__status');
    if (status !== undefined) qb.andWhere('o.status = :status', { status: status.toLowerCase() });
    const statuses = filters.str('order__status__in');
    if (statuses !== undefined) {
      qb.andWhere('o.status = ANY(:statuses)', { statuses: statuses.toLowerCase().split(',') });
    }
  }

  /** Per product counts of the positions a list admits, checked in, and inside now (one statement). */
  async status(em: EntityManager, list: ListScope): Promise<ListStatusRow[]> {
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

  /**
   * The event's position with this secret (or, when `byId`, this id; else the one whose revoked secret this is,
   * marked `revoked`), with its order and add-ons, row-locked
   * until the caller's transaction ends, so that two scans of one ticket are decided one after the other
   * (compat §3.21: exactly one `ok`). Null when there is none.
   */
  async forRedeem(
    em: EntityManager,
    eventId: number,
    identifier: string,
    byId: boolean,
  ): Promise<RedeemPosition | null> {
    const id = byId && /^\d{1,9}$/.test(identifier) ? Number(identifier) : null;
    const rows: RedeemPosition[] = await em.query(
      `SELECT p.id, p.event_id AS "eventId", p.order_id AS "orderId", o.code AS "orderCode", o.status AS "orderStatus",
              o.checkin_attention AS "orderAttention",
              o.valid_if_pending AS "validIfPending", o.require_approval AS "requireApproval", p.item_id AS "itemId", p.variation_id AS "variationId",
              p.subevent_id AS "subeventId", p.addon_to_id AS "addonToId", p.canceled, p.secret,
              p.valid_from AS "validFrom", p.valid_until AS "validUntil",
              (p.secret <> $2 AND p.id IS DISTINCT FROM $3::int) AS revoked, (p.blocked IS NOT NULL) AS blocked,
              ${QuestionQueries.hasCheckinQuestions('p.item_id')} AS "hasCheckinQuestions",
              (SELECT coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'itemId', a.item_id, 'canceled', a.canceled)
                       ORDER BY a.positionid), '[]'::jsonb)
                 FROM order_position a WHERE a.addon_to_id = p.id) AS addons
         FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE p.event_id = $1 AND (p.secret = $2 OR p.id = $3::int
              OR p.id = (SELECT r.position_id FROM revoked_secret r WHERE r.event_id = $1 AND r.secret = $2
                          ORDER BY r.id DESC LIMIT 1))
        ORDER BY (p.secret = $2) DESC, (p.id = $3::int) IS TRUE DESC LIMIT 1
          FOR UPDATE OF p`,
      [eventId, identifier, id],
    );
    return rows[0] ?? null;
  }

  /** Which of `questionIds` the position has answered (check-in questions, compat §3.21); one statement. */
  async answeredQuestions(
    em: EntityManager,
    positionId: number,
    questionIds: readonly number[],
  ): Promise<Set<number>> {
    const rows: { question_id: number }[] = await em.query(
      'SELECT question_id FROM question_answer WHERE order_position_id = $1 AND question_id = ANY($2)',
      [positionId, [...questionIds]],
    );
    return new Set(rows.map((r) => r.question_id));
  }

  /**
   * Stores answers given at check-in on the position, replacing earlier answers to the same questions (compat
   * §3.21 `answers`); two or three statements, none without answers.
   */
  async saveAnswers(
    em: EntityManager,
    positionId: number,
    answers: readonly ValidatedAnswer[],
  ): Promise<void> {
    if (answers.length === 0) return;
    await em.query('DELETE FROM question_answer WHERE order_position_id = $1 AND question_id = ANY($2)', [
      positionId,
      answers.map((a) => a.questionId),
    ]);
    await this.answers.insert(
      em,
      answers.map((answer) => ({ orderPositionId: positionId, cartPositionId: null, answer })),
    );
  }

  /** Whether `positionId` is a position of the event (failed scans naming a position); one statement. */
  async inEvent(em: EntityManager, eventId: number, positionId: number): Promise<boolean> {
    const rows: unknown[] = await em.query('SELECT 1 FROM order_position WHERE id = $1 AND event_id = $2', [
      positionId,
      eventId,
    ]);
    return rows.length > 0;
  }

  /**
   * One position presented as on the list (whatever its status), for a redeem's answer; one statement.
   * @throws NotFound when the position is not of the list's event
   */
  async one(list: ListScope, positionId: number): Promise<CheckinPositionJson> {
    const qb = this.db
      .getRepository(OrderPosition)
      .createQueryBuilder('p')
      .where('p.id = :id AND p.event_id = :event', { id: positionId, event: list.eventId });
    return findOneInOne(qb, this.presentation.listPositionRelated(list.id), toListPositionJson);
  }

  /**
   * The positions a list admits with their last successful scan on it, in batches by position id (keyset, one
   * statement per batch) for the `checkinlist` export (issue 13); `paidOnly` leaves pending orders out.
   */
  async *exportBatches(
    list: ListScope,
    paidOnly: boolean,
    batchSize = 2000,
  ): AsyncGenerator<CheckinExportRow[]> {
    const s = literal(list);
    let after = 0;
    for (;;) {
      const rows: CheckinExportRow[] = await this.db.query(
        `SELECT p.id AS position_id, o.code AS order_code, o.status AS order_status, p.positionid, p.item_id,
                p.variation_id, ${NAME('p')} AS attendee_name, p.attendee_email,
                ${lastScan(s.id, 'type')} AS last_scan_type, ${lastScan(s.id, 'datetime')} AS last_scan_datetime
           FROM order_position p JOIN orders o ON o.id = p.order_id
          WHERE ${admitted(s)} AND p.id > $1 AND ($2::boolean IS FALSE OR o.status = 'p')
          ORDER BY p.id LIMIT $3`,
        [after, paidOnly, batchSize],
      );
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < batchSize) return;
      after = rows[rows.length - 1].position_id;
    }
  }
}

/** A position on a list: attendee name falls back to the parent's; `require_attention` from the order. */
function toListPositionJson(p: OrderPosition, extras: ListPositionExtras): CheckinPositionJson {
  const json = toOrderPositionJson(p, extras);
  const attendee =
    json.attendee_name ?? (extras.parentNameParts ? nameFromParts(extras.parentNameParts) : null);
  return { ...json, attendee_name: attendee, require_attention: extras.orderAttention };
}
