import { Inject, Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { Principal } from '../../auth/principal';
import { applyOrdering } from '../../common/listing/ordering';
import { findOneInOne, paginateInOne, relatedValue } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import type { Event } from '../event.entity';
import type { Organizer } from '../organizer.entity';
import { SubEvent } from './subevent.entity';
import { SubEventJson, toSubEventJson } from './subevent.presenter';
import { SUBEVENT_PRICES, SubEventPrices } from './subevent-prices.port';

/** Ordering fields of both lists (compat §3.17); default `date_from`, ties by id. */
const ORDERING = { id: 's.id', date_from: 's.date_from', last_modified: 's.last_modified' };
export const SUBEVENT_ORDERING = Object.keys(ORDERING);

/** "Has not ended": the end, or without one the start, is at or after `:<param>` (compat §3.17 `is_future`). */
const endsAtOrAfter = (param: string) =>
  `((s.date_to IS NULL AND s.date_from >= :${param}) OR (s.date_to IS NOT NULL AND s.date_to >= :${param}))`;

/**
 * Reads of dates: the event's and the organizer's lists with their filters, and one date. Each answer takes two
 * statements (the page with the series' slugs, then the price overrides through the catalogue's port).
 */
@Injectable()
export class SubEventQueries {
  constructor(
    @InjectEntityManager() private readonly manager: EntityManager,
    @Inject(SUBEVENT_PRICES) private readonly prices: SubEventPrices,
  ) {}

  /**
   * `GET E/subevents/`: filters `active`, `is_public`, `is_future`, `is_past`, `ends_after`, `attr[<name>]`
   * (see {@link applyFilters}); ordering `id`, `date_from` (default), `last_modified`.
   * @throws ValidationFailed for an unparsable filter value (e.g. `ends_after=soon`)
   */
  listOfEvent(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<SubEventJson>> {
    const qb = this.base(this.manager).where('s.event_id = :event', { event: event.id });
    return this.page(qb, filters, page);
  }

  /**
   * `GET O/subevents/`: dates of the organizer's events the principal reaches; the filters of
   * {@link listOfEvent} and `event__live`.
   */
  listOfOrganizer(
    organizer: Organizer,
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<SubEventJson>> {
    const qb = this.base(this.manager)
      .innerJoin('event', 'e', 'e.id = s.event_id')
      .where('e.organizer_id = :org', { org: organizer.id });
    const reachable = principal.reachableEvents(organizer.id);
    if (reachable !== 'all') qb.andWhere('s.event_id = ANY(:ids)', { ids: reachable });
    const live = filters.bool('event__live');
    if (live !== undefined) qb.andWhere('e.live = :live', { live });
    return this.page(qb, filters, page);
  }

  /** `GET E/subevents/{id}/`. @throws NotFound for an id that is not a date of the event */
  get(event: Event, id: number): Promise<SubEventJson> {
    return this.getIn(this.manager, event, id);
  }

  /** One date of the event in wire form, read in `em`. @throws NotFound for an id that is not a date of the event */
  async getIn(em: EntityManager, event: Event, id: number): Promise<SubEventJson> {
    const qb = this.base(em).where('s.event_id = :event AND s.id = :id', { event: event.id, id });
    const found = await findOneInOne(qb, {}, (row) => row);
    return toSubEventJson(found, event.slug, (await this.prices.load(em, [found.id])).get(found.id)!);
  }

  private base(em: EntityManager): SelectQueryBuilder<SubEvent> {
    return em.getRepository(SubEvent).createQueryBuilder('s');
  }

  private async page(
    qb: SelectQueryBuilder<SubEvent>,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<SubEventJson>> {
    applyFilters(qb, filters);
    applyOrdering(qb, filters, ORDERING, ['date_from']);
    const rows = await paginateInOne(
      qb,
      page,
      { slug: relatedValue<string>('SELECT se.slug FROM event se WHERE se.id = s.event_id') },
      (row, related) => ({ row, slug: related.slug }),
    );
    const prices = await this.prices.load(
      this.manager,
      rows.items.map((r) => r.row.id),
    );
    return new Paginated(
      rows.items.map((r) => toSubEventJson(r.row, r.slug, prices.get(r.row.id)!)),
      rows.total,
      rows.page,
    );
  }
}

/**
 * The filters both lists share (compat §3.17): `active`, `is_public` (booleans); `is_future` / `is_past` (not
 * ended / ended now: the end, or the start without one, compared with now); `ends_after` (datetime, same
 * comparison); `attr[<property>]=<value>`: the date's meta-data value, else the series', else the property's
 * default, equals the value (an empty value matches dates where none of them is set).
 * @throws ValidationFailed for an unparsable value
 */
export function applyFilters(qb: SelectQueryBuilder<SubEvent>, filters: QueryFilters): void {
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
