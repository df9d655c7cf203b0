import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { ItemQueries } from '../../catalogue/items/item.queries';
import { QuestionQueries } from '../../catalogue/questions/question.queries';
import { RowMapper } from '../../common/persistence/row-mapper';
import { SqlFragment, sqlFragment } from '../../common/persistence/sql-fragment';
import { SubEventQueries } from '../../organizers/subevents/subevent.queries';
import { TenancyQueries } from '../../organizers/tenancy.queries';
import { SeatQueries } from '../../seating/seat.queries';
import { CheckinSeamQueries } from '../checkin-seam/checkin-seam.queries';
import { PrintLogQueries } from './print-log.queries';
import { OrderPosition } from '../entities/order-position.entity';
import { Order } from '../entities/order.entity';

/** An order's id, code and event. */
export interface OrderCodeRow {
  id: number;
  code: string;
  event_id: number;
}

/** An answer of a position with its option ids. */
export interface AnswerRow {
  position_id: number;
  question_id: number;
  answer: string;
  option_ids: number[];
}

/** SQL conditions on an order aliased `o` per order status filter of the mail rules (spec "Sendmail rule"). */
export const ORDER_STATUS_SQL: Record<string, string> = {
  p: `o.status = 'p'`,
  e: `o.status = 'e'`,
  c: `o.status = 'c'`,
  n__valid_if_pending: `(o.status = 'n' AND o.valid_if_pending)`,
  n__pending_overdue: `(o.status = 'n' AND o.expires < now())`,
  n__pending_approval: `(o.status = 'n' AND o.require_approval)`,
  n__not_pending_approval_and_not_valid_if_pending: `(o.status = 'n' AND NOT o.require_approval AND NOT o.valid_if_pending)`,
};

/**
 * The SQL of the order reads (compat §4.4): the base queries of the order and position lists and details (aliased
 * `o` and `p`; the services add filters, ordering and paging), the answers of presented positions, the reads
 * for other contexts (nested positions, exports, mail recipients). Stateless; every method runs on the caller's
 * `em`.
 */
/** JSON array of the options (`[id, identifier, position]`) of the answer with id `answerId` (SQL). */
function optionsOfAnswer(answerId: string): string {
  return `coalesce((SELECT jsonb_agg(${QuestionQueries.optionOf('ao.option_id')})
    FROM question_answer_option ao WHERE ao.answer_id = ${answerId}), '[]'::jsonb)`;
}

@Injectable()
export class OrderListQueries {
  /**
   * Fragment, scalar subquery: the answers of the order (or cart) position whose id is the SQL expression
   * `positionId`, by answer id, as a JSON array of `{q, a, i, o}` (question id, answer, question identifier,
   * options as `[id, identifier, position]`); aliases `a`, `ao` inside.
   */
  answersOf(positionId: string, column = 'order_position_id'): SqlFragment {
    return sqlFragment(`(SELECT coalesce(jsonb_agg(jsonb_build_object('q', a.question_id, 'a', a.answer,
      'i', ${QuestionQueries.identifierOf('a.question_id')}, 'o', ${optionsOfAnswer('a.id')}) ORDER BY a.id), '[]'::jsonb)
    FROM question_answer a WHERE a.${column} = ${positionId})`);
  }

  /** Fragment: the seating context's seat object (jsonb or NULL) of the seat id SQL expression `seatIdExpr`. */
  positionSeat(seatIdExpr: string): SqlFragment {
    return new SeatQueries().positionSeat(seatIdExpr);
  }

  /**
   * Fragment, scalar subquery: the positions of order `o` by `positionid` as a JSON array of `{row, code, answers,
   * checkins, seat}` (`row` as `rows` builds it, alias `op`), for one-statement order pages; with `printFacts`,
   * also `pdf`: that fragment of the position (pdf_data).
   */
  positionsOfOrder(rows: RowMapper<OrderPosition>, printFacts?: (alias: string) => SqlFragment): SqlFragment {
    const pdf = printFacts ? `'pdf', ${printFacts('op')}, ` : '';
    return sqlFragment(`(SELECT coalesce(jsonb_agg(jsonb_build_object(${pdf}'row', ${rows.jsonSql('op')}, 'code', o.code,
        'answers', ${this.answersOf('op.id')}, 'checkins', ${new CheckinSeamQueries().checkins('op.id')},
        'print_logs', ${PrintLogQueries.printLogsSql('op.id')}, 'seat', ${this.positionSeat('op.seat_id')},
        'ticket', ${this.ticketFacts('op')}) ORDER BY op.positionid, op.id),
        '[]'::jsonb) FROM order_position op WHERE op.order_id = o.id)`);
  }

  /**
   * Fragment, scalar subquery: what the ticket download rule (`ticket-download.rules.ts`) and the download URLs need
   * of the position aliased `position`, as JSON `{s, ra, vp, org, ev, item}`: its order's status, require_approval and
   * valid_if_pending, the organizer's and event's slugs, and the product's `[admission, generate_tickets]`. Alias `tf`.
   */
  ticketFacts(position: string): SqlFragment {
    const tenancy = new TenancyQueries();
    return sqlFragment(`(SELECT jsonb_build_object('s', tf.status, 'ra', tf.require_approval, 'vp', tf.valid_if_pending,
      'org', ${tenancy.organizerSlugOf('tf.organizer_id')}, 'ev', ${tenancy.eventSlugOf('tf.event_id')},
      'item', ${ItemQueries.ticketFlagsOf(`${position}.item_id`)}) FROM orders tf WHERE tf.id = ${position}.order_id)`);
  }

  /** The ticket facts ({@link ticketFacts}) of these positions, by position id (one statement). */
  async ticketFactsOf(
    em: EntityManager,
    positionIds: readonly number[],
  ): Promise<{ id: number; facts: unknown }[]> {
    if (positionIds.length === 0) return [];
    return em.query(
      `SELECT p.id, ${this.ticketFacts('p')} AS facts FROM order_position p WHERE p.id = ANY($1)`,
      [[...positionIds]],
    );
  }

  /** Fragments: the FROM clauses of order `o`'s fees (`f`), payments (`pay`), refunds (`rf`) and invoice address (`ia`). */
  orderParts(): {
    fees: SqlFragment;
    payments: SqlFragment;
    refunds: SqlFragment;
    invoiceAddress: SqlFragment;
  } {
    return {
      fees: sqlFragment('FROM order_fee f WHERE f.order_id = o.id'),
      payments: sqlFragment('FROM order_payment pay WHERE pay.order_id = o.id'),
      refunds: sqlFragment('FROM order_refund rf WHERE rf.order_id = o.id'),
      invoiceAddress: sqlFragment('FROM invoice_address ia WHERE ia.order_id = o.id'),
    };
  }

  /**
   * Fragments, scalar subqueries on position `p`: its order's code and check-in attention flag, and its parent
   * position's attendee name parts.
   */
  positionParts(): { orderCode: SqlFragment; orderAttention: SqlFragment; parentNameParts: SqlFragment } {
    return {
      orderCode: sqlFragment('(SELECT po.code FROM orders po WHERE po.id = p.order_id)'),
      orderAttention: sqlFragment('(SELECT po.checkin_attention FROM orders po WHERE po.id = p.order_id)'),
      parentNameParts: sqlFragment(
        '(SELECT pp.attendee_name_parts FROM order_position pp WHERE pp.id = p.addon_to_id)',
      ),
    };
  }

  /** The event's orders matching `where`, aliased `o`. */
  ordersOfEvent(em: EntityManager, eventId: number, where: OrderListWhere): SelectQueryBuilder<Order> {
    const qb = em
      .getRepository(Order)
      .createQueryBuilder('o')
      .where('o.event_id = :event', { event: eventId });
    return applyOrderWhere(qb, where);
  }

  /** The organizer's orders of the `events` (or all its events) matching `where`, aliased `o`. */
  ordersOfOrganizer(
    em: EntityManager,
    organizerId: number,
    events: readonly number[] | 'all',
    where: OrderListWhere,
  ): SelectQueryBuilder<Order> {
    const qb = em
      .getRepository(Order)
      .createQueryBuilder('o')
      .where('o.organizer_id = :org', { org: organizerId });
    if (events !== 'all') qb.andWhere('o.event_id = ANY(:events)', { events });
    return applyOrderWhere(qb, where);
  }

  /**
   * The time a sync may pass back as `modified_since` after reading a list now (header `X-Page-Generated`, compat
   * §4.4): the database's now, or the start of the oldest transaction of another session of this database still
   * open, when earlier. A change committed after the list's snapshot belongs to a transaction open now or started
   * later, and writers take `last_modified` inside their transaction, so it is at or after this time and the next
   * `modified_since` sync sees it (at worst an order comes twice). Truncated to milliseconds. One statement; call it
   * before the list's statement.
   */
  async syncHorizon(em: EntityManager): Promise<Date> {
    const rows: { at: Date }[] = await em.query(
      `SELECT date_trunc('milliseconds', LEAST(now(), coalesce((SELECT min(a.xact_start) FROM pg_stat_activity a
          WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.xact_start IS NOT NULL
            AND a.backend_type = 'client backend' AND a.state <> 'idle'), now()))) AS at`,
    );
    return rows[0].at;
  }

  /** The orders with these ids (any event; the caller scopes), aliased `o`. */
  ordersWithIds(em: EntityManager, ids: readonly number[]): SelectQueryBuilder<Order> {
    return em.getRepository(Order).createQueryBuilder('o').where('o.id = ANY(:ids)', { ids });
  }

  /** The event's order with this code (exact), aliased `o`. */
  orderByCode(em: EntityManager, eventId: number, code: string): SelectQueryBuilder<Order> {
    return em
      .getRepository(Order)
      .createQueryBuilder('o')
      .where('o.event_id = :event AND o.code = :code', { event: eventId, code });
  }

  /** The event's positions, aliased `p` (parameter `:event` bound). */
  positionsOfEvent(
    em: EntityManager,
    eventId: number,
    where: PositionListWhere,
  ): SelectQueryBuilder<OrderPosition> {
    const qb = em
      .getRepository(OrderPosition)
      .createQueryBuilder('p')
      .where('p.event_id = :event', { event: eventId });
    return applyPositionWhere(qb, where, 'event_id = :event');
  }

  /**
   * `O/orderpositions/`: the positions of the organizer's orders in the `events` (or all its events), aliased `p`
   * (parameter `:org` bound); `eventSlug` keeps those of the event with that slug.
   */
  positionsOfOrganizer(
    em: EntityManager,
    organizerId: number,
    events: readonly number[] | 'all',
    where: PositionListWhere & { eventSlug?: string },
  ): SelectQueryBuilder<OrderPosition> {
    const qb = em
      .getRepository(OrderPosition)
      .createQueryBuilder('p')
      .where('p.order_id IN (SELECT id FROM orders WHERE organizer_id = :org)', { org: organizerId });
    if (events !== 'all') qb.andWhere('p.event_id = ANY(:events)', { events });
    if (where.eventSlug !== undefined) {
      qb.andWhere(`${new TenancyQueries().eventSlugOf('p.event_id')} = :eventSlug`, {
        eventSlug: where.eventSlug,
      });
    }
    return applyPositionWhere(qb, where, 'organizer_id = :org');
  }

  /** The event's position with this id (hidden when canceled, per `canceled`), aliased `p`. */
  positionById(
    em: EntityManager,
    eventId: number,
    id: number,
    canceled: CanceledFilter,
  ): SelectQueryBuilder<OrderPosition> {
    const qb = em
      .getRepository(OrderPosition)
      .createQueryBuilder('p')
      .where('p.event_id = :event AND p.id = :id', { event: eventId, id });
    applyCanceled(qb, canceled);
    return qb;
  }

  /** The ids among `ids` that are positions of orders of the organizer, canceled ones included (one statement). */
  positionsInOrganizer(
    em: EntityManager,
    organizerId: number,
    ids: readonly number[],
  ): Promise<{ id: number }[]> {
    return em.query(
      `SELECT p.id FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE o.organizer_id = $1 AND p.id = ANY($2)`,
      [organizerId, [...new Set(ids)]],
    );
  }

  /** Up to two ids of the organizer's positions with this ticket secret (one statement). */
  positionIdsBySecret(em: EntityManager, organizerId: number, secret: string): Promise<{ id: number }[]> {
    return em.query(
      `SELECT p.id FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE o.organizer_id = $1 AND p.secret = $2 LIMIT 2`,
      [organizerId, secret],
    );
  }

  /** Id, code and event of orders by id (one statement). */
  ordersByIds(em: EntityManager, ids: number[]): Promise<OrderCodeRow[]> {
    return em.query('SELECT id, code, event_id FROM orders WHERE id = ANY($1)', [ids]);
  }

  /**
   * Answers of order or cart positions (`column` `order_position_id` or `cart_position_id`) with their option
   * ids, in answer order (one statement).
   */
  answers(
    em: EntityManager,
    column: 'order_position_id' | 'cart_position_id',
    ids: number[],
  ): Promise<AnswerRow[]> {
    return em.query(
      `SELECT a.${column} AS position_id, a.question_id, a.answer,
              COALESCE(array_agg(ao.option_id) FILTER (WHERE ao.option_id IS NOT NULL), '{}') AS option_ids
         FROM question_answer a
         LEFT JOIN question_answer_option ao ON ao.answer_id = a.id
        WHERE a.${column} = ANY($1)
        GROUP BY a.id
        ORDER BY a.id`,
      [ids],
    );
  }
}

/** The order list filters of compat §4.4, parsed (status lower-cased); absent ones are `undefined`. */
export interface OrderListWhere {
  status?: string;
  code?: string;
  email?: string;
  locale?: string;
  testmode?: boolean;
  require_approval?: boolean;
  modifiedSince?: Date;
  createdSince?: Date;
  createdBefore?: Date;
  /** Orders with any position (canceled ones too) whose date ends strictly after this time (pretix). */
  subeventAfter?: Date;
  /** Orders with any position (canceled ones too) whose date starts strictly before this time (pretix). */
  subeventBefore?: Date;
}

/** The order list filters on a query aliased `o`, in the order the service parsed them. */
function applyOrderWhere(qb: SelectQueryBuilder<Order>, where: OrderListWhere): SelectQueryBuilder<Order> {
  if (where.status !== undefined) qb.andWhere('o.status = :status', { status: where.status });
  if (where.code !== undefined) qb.andWhere('upper(o.code) = upper(:code)', { code: where.code });
  if (where.email !== undefined) qb.andWhere('lower(o.email) = lower(:email)', { email: where.email });
  if (where.locale !== undefined) qb.andWhere('o.locale = :locale', { locale: where.locale });
  for (const param of ['testmode', 'require_approval'] as const) {
    const value = where[param];
    if (value !== undefined) qb.andWhere(`o.${param} = :${param}`, { [param]: value });
  }
  if (where.modifiedSince !== undefined)
    qb.andWhere('o.last_modified >= :modifiedSince', { modifiedSince: where.modifiedSince });
  if (where.createdSince !== undefined)
    qb.andWhere('o.datetime >= :createdSince', { createdSince: where.createdSince });
  if (where.createdBefore !== undefined)
    qb.andWhere('o.datetime < :createdBefore', { createdBefore: where.createdBefore });
  const dates = new SubEventQueries();
  if (where.subeventAfter !== undefined) {
    qb.andWhere(
      `EXISTS (SELECT 1 FROM order_position sp WHERE sp.order_id = o.id
        AND ${dates.endsStrictlyAfter('sp.subevent_id', ':subeventAfter')})`,
      { subeventAfter: where.subeventAfter },
    );
  }
  if (where.subeventBefore !== undefined) {
    qb.andWhere(
      `EXISTS (SELECT 1 FROM order_position sp WHERE sp.order_id = o.id
        AND ${dates.startsBefore('sp.subevent_id', ':subeventBefore')})`,
      { subeventBefore: where.subeventBefore },
    );
  }
  return qb;
}

/** `canceled=<bool>` filters on it; otherwise canceled positions are hidden unless `include` is set. */
export type CanceledFilter = { canceled: boolean } | { include: boolean };

/** The order position list filters (see `OrderPositionsService.list`), parsed; absent ones are `undefined`. */
export interface PositionListWhere {
  canceled: CanceledFilter;
  order?: string;
  /** Lower-cased. */
  orderStatus?: string;
  item?: number;
  variation?: number;
  addon_to?: number;
  voucher?: number;
  attendeeEmail?: string;
  secret?: string;
  pseudonymization_id?: string;
}

/** Id filters of the position list: parameter → column. */
export const POSITION_ID_FILTERS = [
  ['item', 'item_id'],
  ['variation', 'variation_id'],
  ['addon_to', 'addon_to_id'],
  ['voucher', 'voucher_id'],
] as const;

/** Exact text filters of the position list: parameter → column. */
export const POSITION_TEXT_FILTERS = [
  ['secret', 'secret'],
  ['pseudonymization_id', 'pseudonymization_id'],
] as const;

/**
 * The position list filters of compat §4.4 on `p`; `orderScope` bounds the orders the order filters look at
 * (`event_id = :event` or `organizer_id = :org`).
 */
function applyPositionWhere(
  qb: SelectQueryBuilder<OrderPosition>,
  where: PositionListWhere,
  orderScope: string,
): SelectQueryBuilder<OrderPosition> {
  applyCanceled(qb, where.canceled);
  if (where.order !== undefined) {
    qb.andWhere(`p.order_id IN (SELECT id FROM orders WHERE ${orderScope} AND upper(code) = upper(:order))`, {
      order: where.order,
    });
  }
  if (where.orderStatus !== undefined) {
    qb.andWhere(`p.order_id IN (SELECT id FROM orders WHERE ${orderScope} AND status = :status)`, {
      status: where.orderStatus,
    });
  }
  for (const [param, column] of POSITION_ID_FILTERS) {
    const value = where[param];
    if (value !== undefined) qb.andWhere(`p.${column} = :${param}`, { [param]: value });
  }
  if (where.attendeeEmail !== undefined)
    qb.andWhere('lower(p.attendee_email) = lower(:email)', { email: where.attendeeEmail });
  for (const [param, column] of POSITION_TEXT_FILTERS) {
    const value = where[param];
    if (value !== undefined) qb.andWhere(`p.${column} = :${param}`, { [param]: value });
  }
  return qb;
}

function applyCanceled(qb: SelectQueryBuilder<OrderPosition>, filter: CanceledFilter): void {
  if ('canceled' in filter) qb.andWhere('p.canceled = :canceled', { canceled: filter.canceled });
  else if (!filter.include) qb.andWhere('NOT p.canceled');
}
