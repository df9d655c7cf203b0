import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { findOneInOne, paginateInOne, relatedValue } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { SqlFragment, sqlFragment } from '../../common/persistence/sql-fragment';
import { SubEvent } from './subevent.entity';
import type { SubEventLabel, SubEventRef, SubEventTimes } from './subevent-scope';

/** Ordering fields of both lists (compat §3.17); default `date_from`, ties by id. */
const ORDERING = { id: 's.id', date_from: 's.date_from', last_modified: 's.last_modified' };
export const SUBEVENT_ORDERING = Object.keys(ORDERING);

/** "Has not ended": the end, or without one the start, is at or after `:<param>` (compat §3.17 `is_future`). */
const endsAtOrAfter = (param: string) =>
  `((s.date_to IS NULL AND s.date_from >= :${param}) OR (s.date_to IS NOT NULL AND s.date_to >= :${param}))`;

/** A date of a list page with the slug of its event. */
export interface SubEventWithSlug {
  row: SubEvent;
  slug: string;
}

/**
 * The SQL of dates (`subevent`; compat §3.17): the lists and one date for this context, and what other contexts
 * need of a date they know by id (typed reads, one statement each and none for an empty list, and fragments that
 * their query layer embeds). Stateless; runs in the caller's `em`; takes no locks.
 */
@Injectable()
export class SubEventQueries {
  /**
   * A page of the event's dates with the filters of {@link applyFilters}; ordering `id`, `date_from` (default),
   * `last_modified`. One statement.
   * @throws ValidationFailed for an unparsable filter value
   */
  pageOfEvent(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<SubEventWithSlug>> {
    const qb = this.base(em).where('s.event_id = :event', { event: eventId });
    return this.page(qb, filters, page);
  }

  /**
   * A page of the dates of the organizer's events (`reachable`: the event ids the principal reaches, or all),
   * with the filters of {@link pageOfEvent} and `event__live`. One statement.
   */
  pageOfOrganizer(
    em: EntityManager,
    organizerId: number,
    reachable: number[] | 'all',
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<SubEventWithSlug>> {
    const qb = this.base(em)
      .innerJoin('event', 'e', 'e.id = s.event_id')
      .where('e.organizer_id = :org', { org: organizerId });
    if (reachable !== 'all') qb.andWhere('s.event_id = ANY(:ids)', { ids: reachable });
    const live = filters.bool('event__live');
    if (live !== undefined) qb.andWhere('e.live = :live', { live });
    return this.page(qb, filters, page);
  }

  /** The date `id` of the event. One statement. @throws NotFound for an id that is not a date of the event */
  oneOfEvent(em: EntityManager, eventId: number, id: number): Promise<SubEvent> {
    const qb = this.base(em).where('s.event_id = :event AND s.id = :id', { event: eventId, id });
    return findOneInOne(qb, {}, (row) => row);
  }

  private base(em: EntityManager): SelectQueryBuilder<SubEvent> {
    return em.getRepository(SubEvent).createQueryBuilder('s');
  }

  private page(
    qb: SelectQueryBuilder<SubEvent>,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<SubEventWithSlug>> {
    applyFilters(qb, filters);
    applyOrdering(qb, filters, ORDERING, ['date_from']);
    return paginateInOne(
      qb,
      page,
      { slug: relatedValue<string>('SELECT se.slug FROM event se WHERE se.id = s.event_id') },
      (row, related) => ({ row, slug: related.slug }),
    );
  }

  /**
   * Dates by id, of any event (callers tell "another event's" from "unknown"): the read other contexts use to
   * resolve a `subevent` they were sent.
   */
  async subeventsByIds(
    em: EntityManager,
    ids: readonly (number | null | undefined)[],
  ): Promise<Map<number, SubEventRef>> {
    const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
    if (wanted.length === 0) return new Map();
    const rows: { id: number; event_id: number }[] = await em.query(
      'SELECT id, event_id FROM subevent WHERE id = ANY($1)',
      [wanted],
    );
    return new Map(rows.map((r) => [r.id, { id: r.id, eventId: r.event_id }]));
  }

  /** Dates by id with their printed data (invoice lines). */
  async subeventLabels(em: EntityManager, ids: readonly number[]): Promise<Map<number, SubEventLabel>> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) return new Map();
    const rows: SubEventLabel[] = await em.query(
      `SELECT id, name, date_from AS "dateFrom", date_to AS "dateTo", location FROM subevent WHERE id = ANY($1)`,
      [wanted],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** The times of the date `id` of the event, or null when it is not one (check-in rules, compat §3.20). */
  async subeventTimes(em: EntityManager, eventId: number, id: number): Promise<SubEventTimes | null> {
    const rows: { date_from: Date; date_to: Date | null; date_admission: Date | null }[] = await em.query(
      'SELECT date_from, date_to, date_admission FROM subevent WHERE id = $1 AND event_id = $2',
      [id, eventId],
    );
    const r = rows[0];
    return r ? { dateFrom: r.date_from, dateTo: r.date_to, dateAdmission: r.date_admission } : null;
  }

  /**
   * Fragment, scalar subquery: what ticket layouts print of the date whose id is the SQL expression `subeventId`
   * (NULL for none), as JSON `{n, f, t, a, l, m}`: name, start, end, admission, location and meta data. Alias `ps`.
   */
  printLabelsOf(subeventId: string): SqlFragment {
    return sqlFragment(`(SELECT jsonb_build_object('n', ps.name, 'f', ps.date_from, 't', ps.date_to,
      'a', ps.date_admission, 'l', ps.location, 'm', ps.meta_data) FROM subevent ps WHERE ps.id = ${subeventId})`);
  }

  /**
   * Fragment, scalar subquery: the start of the date whose id is the SQL expression `subeventId` (null for none;
   * check-in lists order by it). Alias `se`.
   */
  dateFromOf(subeventId: string): SqlFragment {
    return sqlFragment(`(SELECT se.date_from FROM subevent se WHERE se.id = ${subeventId})`);
  }

  /**
   * Fragment, SQL condition: the date whose id is the SQL expression `subeventId` ends (its end, or its start
   * without an end) at or after the parameter `param` (`:name`). Alias `se`.
   */
  endsAfter(subeventId: string, param: string): SqlFragment {
    return sqlFragment(
      `EXISTS (SELECT 1 FROM subevent se WHERE se.id = ${subeventId} AND coalesce(se.date_to, se.date_from) >= ${param})`,
    );
  }

  /**
   * Fragment, SQL condition: the date whose id is the SQL expression `subeventId` ends strictly after the parameter
   * `param` (its end; its start when it has no end). pretix's order filter `subevent_after`. Alias `sa`.
   */
  endsStrictlyAfter(subeventId: string, param: string): SqlFragment {
    return sqlFragment(`EXISTS (SELECT 1 FROM subevent sa WHERE sa.id = ${subeventId}
      AND (sa.date_to > ${param} OR (sa.date_to IS NULL AND sa.date_from > ${param})))`);
  }

  /**
   * Fragment, SQL condition: the date whose id is the SQL expression `subeventId` starts strictly before the
   * parameter `param`. pretix's order filter `subevent_before`. Alias `sb`.
   */
  startsBefore(subeventId: string, param: string): SqlFragment {
    return sqlFragment(
      `EXISTS (SELECT 1 FROM subevent sb WHERE sb.id = ${subeventId} AND sb.date_from < ${param})`,
    );
  }

  /** Start and end of every active date of the event, by id (scheduled e-mail rules, compat §3.26). */
  async activeSubeventDates(
    em: EntityManager,
    eventId: number,
  ): Promise<{ id: number; dateFrom: Date; dateTo: Date | null }[]> {
    const rows: { id: number; date_from: Date; date_to: Date | null }[] = await em.query(
      'SELECT id, date_from, date_to FROM subevent WHERE event_id = $1 AND active ORDER BY id',
      [eventId],
    );
    return rows.map((r) => ({ id: r.id, dateFrom: r.date_from, dateTo: r.date_to }));
  }

  /** When the event's last active date ends (its end, else its start); null without dates. */
  async lastSubeventEnd(em: EntityManager, eventId: number): Promise<Date | null> {
    const rows: { last: Date | null }[] = await em.query(
      'SELECT max(coalesce(date_to, date_from)) AS last FROM subevent WHERE event_id = $1 AND active',
      [eventId],
    );
    return rows[0].last;
  }
}

/**
 * The filters both lists share (compat §3.17): `active`, `is_public` (booleans); `is_future` / `is_past` (not
 * ended / ended now: the end, or the start without one, compared with now); `ends_after` (datetime, same
 * comparison); `attr[<property>]=<value>`: the date's meta-data value, else the series', else the property's
 * default, equals the value (an empty value matches dates where none of them is set).
 * @throws ValidationFailed for an unparsable value
 */
function applyFilters(qb: SelectQueryBuilder<SubEvent>, filters: QueryFilters): void {
  for (const [param, column] of [
    ['active', 'active'],
    ['is_public', 'is_public'],
  ] as const) {
    const value = filters.bool(param);
    if (value !== undefined) qb.andWhere(`s.${column} = :${param}`, { [param]: value });
  }
  const now = new Date();
  const isFuture = filters.bool('is_future');
  if (isFuture !== undefined)
    qb.andWhere(isFuture ? endsAtOrAfter('now') : `NOT ${endsAtOrAfter('now')}`, { now });
  const isPast = filters.bool('is_past');
  if (isPast !== undefined)
    qb.andWhere(isPast ? `NOT ${endsAtOrAfter('now')}` : endsAtOrAfter('now'), { now });
  const endsAfter = filters.datetime('ends_after');
  if (endsAfter) qb.andWhere(endsAtOrAfter('ends_after'), { ends_after: endsAfter });
  let i = 0;
  for (const [name, value] of filters.keyed('attr')) {
    const [k, v] = [`attr_k${i}`, `attr_v${i}`];
    i += 1;
    qb.andWhere(
      `COALESCE(s.meta_data ->> :${k},
         (SELECT ae.meta_data ->> :${k} FROM event ae WHERE ae.id = s.event_id),
         (SELECT ap."default" FROM event_meta_property ap JOIN event pe ON pe.organizer_id = ap.organizer_id
           WHERE pe.id = s.event_id AND ap.name = :${k}),
         '') = :${v}`,
      { [k]: name, [v]: value },
    );
  }
}
