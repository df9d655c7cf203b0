import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { ValidationFailed } from '../../common/errors';
import { applyOrdering } from '../../common/listing/ordering';
import { findOneInOne, paginateInOne, relatedValue, RelatedSpec } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import type { SqlFragment } from '../../common/persistence/sql-fragment';
import { OrderTransaction } from './order-transaction.entity';

/** Which transactions a list shows: one event's, or an organizer's over the events the credential may read. */
export type TransactionScope =
  { eventId: number } | { organizerId: number; eventIds: readonly number[] | 'all' };

/** What each listed row shows beside its own columns: the order's code and the event's slug. */
export interface TransactionRefs {
  order: string;
  event: string;
}

/** The organizers context's subquery of an event's slug (`TenancyQueries.eventSlugOf`). */
export type EventSlugSql = (eventId: string) => SqlFragment;

/** `?ordering=` fields of the lists (pretix: `datetime`, `created`, `id`); default `datetime,id`. */
export const TRANSACTION_ORDERING = ['datetime', 'created', 'id'] as const;

/** Equality filters on a column with an `__in` twin (pretix's `exact` and `in` lookups), by kind. */
const INT_FILTERS = {
  item: 't.item_id',
  variation: 't.variation_id',
  subevent: 't.subevent_id',
  tax_rule: 't.tax_rule_id',
};
const TEXT_FILTERS = { tax_code: 't.tax_code', fee_type: 't.fee_type' };

/** The columns that identify a sold line (pretix `Transaction.key`). */
const KEY = `positionid, item_id, variation_id, subevent_id, price, tax_rate, tax_rule_id, tax_value, fee_type,
             internal_type, tax_code`;

/**
 * The SQL of the order transaction log (table `order_transaction`): the set-based write of {@link sync} and the
 * pages of `E/transactions/` and `O/transactions/`. Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class OrderTransactionQueries {
  /**
   * Brings the log of order `orderId` in line with what it sells, in ONE statement: the target is one +1 per
   * active position and active fee while the order counts (status `n` or `p` and not awaiting approval; pretix
   * `Order.create_transactions`), nothing otherwise; from it the sum of the existing rows is subtracted per line
   * key, and every non-zero difference is inserted as one row at `at` (negative counts first, then by
   * `positionid`, fees first, as pretix sorts them). Nothing changed: nothing written.
   * @returns the number of rows written
   */
  async sync(em: EntityManager, orderId: number, at: Date): Promise<number> {
    const rows: unknown[] = await em.query(
      `WITH o AS (
         SELECT id, event_id, organizer_id, (status IN ('n', 'p') AND NOT require_approval) AS counts
           FROM orders WHERE id = $1
       ), lines AS (
         SELECT p.positionid, p.item_id, p.variation_id, p.subevent_id, p.price, p.tax_rate, p.tax_rule_id,
                p.tax_value, NULL::varchar AS fee_type, NULL::varchar AS internal_type, p.tax_code, 1 AS n
           FROM order_position p JOIN o ON o.id = p.order_id
          WHERE o.counts AND NOT p.canceled
         UNION ALL
         SELECT NULL, NULL, NULL, NULL, f.value, f.tax_rate, f.tax_rule_id, f.tax_value, f.fee_type,
                f.internal_type, f.tax_code, 1
           FROM order_fee f JOIN o ON o.id = f.order_id
          WHERE o.counts AND NOT f.canceled
         UNION ALL
         SELECT ${KEY}, -count FROM order_transaction WHERE order_id = $1
       ), diff AS (
         SELECT ${KEY}, sum(n)::int AS d FROM lines GROUP BY ${KEY} HAVING sum(n) <> 0
       )
       INSERT INTO order_transaction (order_id, event_id, organizer_id, datetime, count, ${KEY})
       SELECT o.id, o.event_id, o.organizer_id, $2, d.d, d.positionid, d.item_id, d.variation_id, d.subevent_id,
              d.price, d.tax_rate, d.tax_rule_id, d.tax_value, d.fee_type, d.internal_type, d.tax_code
         FROM diff d CROSS JOIN o
        ORDER BY d.d > 0, coalesce(d.positionid, 0)
       RETURNING id`,
      [orderId, at],
    );
    return rows.length;
  }

  /**
   * One page of transactions with their order code and event slug, in one statement. Filters (pretix
   * `TransactionFilter`): `order` (code, case-insensitive), `event` (slug, case-insensitive), `datetime_since`,
   * `created_since` (at or after), `datetime_before`, `created_before` (before), and `item`, `variation`,
   * `subevent`, `tax_rule`, `tax_code`, `tax_rate`, `fee_type` with their `__in` (comma-separated) forms;
   * ordering `datetime` (default, then `id`), `created`, `id`.
   * @throws ValidationFailed (400) naming the filter for a malformed value
   */
  page<T>(
    em: EntityManager,
    scope: TransactionScope,
    filters: QueryFilters,
    page: PageRequest,
    eventSlugOf: EventSlugSql,
    present: (row: OrderTransaction, refs: TransactionRefs) => T,
  ): Promise<Paginated<T>> {
    const qb = this.scoped(em, scope);
    applyFilters(qb, filters, eventSlugOf);
    applyOrdering(qb, filters, { datetime: 't.datetime', created: 't.created', id: 't.id' }, [
      'datetime',
      'id',
    ]);
    return paginateInOne(qb, page, related(eventSlugOf), present);
  }

  /**
   * One transaction of the scope by id, with its order code and event slug (one statement).
   * @throws NotFound when the scope has no transaction with this id
   */
  one<T>(
    em: EntityManager,
    scope: TransactionScope,
    id: number,
    eventSlugOf: EventSlugSql,
    present: (row: OrderTransaction, refs: TransactionRefs) => T,
  ): Promise<T> {
    const qb = this.scoped(em, scope).andWhere('t.id = :id', { id });
    return findOneInOne(qb, related(eventSlugOf), present);
  }

  /** The scope's rows, aliased `t`. */
  private scoped(em: EntityManager, scope: TransactionScope): SelectQueryBuilder<OrderTransaction> {
    const qb = em.getRepository(OrderTransaction).createQueryBuilder('t');
    if ('eventId' in scope) return qb.where('t.event_id = :event', { event: scope.eventId });
    qb.where('t.organizer_id = :org', { org: scope.organizerId });
    if (scope.eventIds !== 'all') qb.andWhere('t.event_id = ANY(:events)', { events: scope.eventIds });
    return qb;
  }
}

function related(eventSlugOf: EventSlugSql): RelatedSpec<TransactionRefs> {
  return {
    order: relatedValue<string>('SELECT ro.code FROM orders ro WHERE ro.id = t.order_id'),
    event: relatedValue<string>(eventSlugOf('t.event_id')),
  };
}

/** Applies the filters of {@link OrderTransactionQueries.page} to `qb` (alias `t`). */
function applyFilters(
  qb: SelectQueryBuilder<OrderTransaction>,
  filters: QueryFilters,
  eventSlugOf: EventSlugSql,
): void {
  const order = filters.str('order');
  if (order !== undefined) {
    qb.andWhere(
      't.order_id IN (SELECT fo.id FROM orders fo WHERE fo.event_id = t.event_id AND upper(fo.code) = upper(:code))',
      {
        code: order,
      },
    );
  }
  const event = filters.str('event');
  if (event !== undefined)
    qb.andWhere(`lower(${eventSlugOf('t.event_id')}) = lower(:eventSlug)`, { eventSlug: event });
  const times: [string, string, '>=' | '<'][] = [
    ['datetime_since', 't.datetime', '>='],
    ['datetime_before', 't.datetime', '<'],
    ['created_since', 't.created', '>='],
    ['created_before', 't.created', '<'],
  ];
  for (const [name, column, op] of times) {
    const value = filters.datetime(name);
    if (value !== undefined) qb.andWhere(`${column} ${op} :${name}`, { [name]: value });
  }
  for (const [name, column] of Object.entries(INT_FILTERS)) {
    const one = filters.int(name);
    if (one !== undefined) qb.andWhere(`${column} = :${name}`, { [name]: one });
    const many = filters.intList(`${name}__in`);
    if (many !== undefined) qb.andWhere(`${column} = ANY(:${name}__in)`, { [`${name}__in`]: many });
  }
  for (const [name, column] of Object.entries(TEXT_FILTERS)) {
    const one = filters.str(name);
    if (one !== undefined) qb.andWhere(`${column} = :${name}`, { [name]: one });
    const many = textList(filters, `${name}__in`);
    if (many !== undefined) qb.andWhere(`${column} = ANY(:${name}__in)`, { [`${name}__in`]: many });
  }
  const rate = filters.decimal('tax_rate');
  if (rate !== undefined) qb.andWhere('t.tax_rate = :taxRate', { taxRate: rate });
  const rates = textList(filters, 'tax_rate__in');
  if (rates !== undefined) {
    if (rates.some((r) => !/^-?\d+(\.\d+)?$/.test(r)))
      throw ValidationFailed.field('tax_rate__in', 'Enter a number.');
    qb.andWhere('t.tax_rate = ANY(:taxRates::numeric[])', { taxRates: rates });
  }
}

/** A comma-separated text filter (`fee_type__in=payment,shipping`), empty parts dropped. */
function textList(filters: QueryFilters, name: string): string[] | undefined {
  const s = filters.str(name);
  if (s === undefined) return undefined;
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}
