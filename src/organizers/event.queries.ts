import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../auth/principal';
import { applyOrdering } from '../common/listing/ordering';
import { paginateRows } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { Event } from './event.entity';

/**
 * The organizers context's own SQL of events (compat §4.2). Stateless; runs in the caller's `em`. Other contexts
 * use {@link TenancyQueries} (`tenancy.queries.ts`).
 */
@Injectable()
export class EventQueries {
  /**
   * A page of the organizer's events the principal reaches. Filters `live`, `has_subevents`, `is_public`,
   * `testmode`, `is_future`, `is_past`, `ends_after`, `sales_channel`; ordering `date_from`, `slug` (default `slug`). No lock.
   * @throws ValidationFailed for an unparsable filter value
   */
  page<T>(
    em: EntityManager,
    organizerId: number,
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: Event[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(Event)
      .createQueryBuilder('e')
      .where('e.organizer_id = :org', { org: organizerId });
    const reachable = principal.reachableEvents(organizerId);
    if (reachable !== 'all') qb.andWhere('e.id = ANY(:ids)', { ids: reachable });
    for (const [param, column] of [
      ['live', 'live'],
      ['has_subevents', 'has_subevents'],
      ['is_public', 'is_public'],
      ['testmode', 'testmode'],
    ] as const) {
      const value = filters.bool(param);
      if (value !== undefined) qb.andWhere(`e.${column} = :${param}`, { [param]: value });
    }
    const now = new Date();
    const future =
      '((e.date_to IS NULL AND e.date_from >= :now) OR (e.date_to IS NOT NULL AND e.date_to >= :now))';
    const isFuture = filters.bool('is_future');
    if (isFuture !== undefined) qb.andWhere(isFuture ? future : `NOT ${future}`, { now });
    const isPast = filters.bool('is_past');
    if (isPast !== undefined) qb.andWhere(isPast ? `NOT ${future}` : future, { now });
    const endsAfter = filters.datetime('ends_after');
    if (endsAfter) {
      qb.andWhere(
        '((e.date_to IS NULL AND e.date_from >= :ea) OR (e.date_to IS NOT NULL AND e.date_to >= :ea))',
        {
          ea: endsAfter,
        },
      );
    }
    const channel = filters.str('sales_channel');
    if (channel !== undefined) {
      qb.andWhere('(e.all_sales_channels OR :channel = ANY(e.limit_sales_channels))', { channel });
    }
    applyOrdering(qb, filters, { date_from: 'e.date_from', slug: 'e.slug' }, ['slug']);
    return paginateRows(qb, page, present);
  }

  /** Locks the event row `FOR UPDATE` (an event delete; sales share-lock it); false when it no longer exists. */
  async lockForDelete(em: EntityManager, eventId: number): Promise<boolean> {
    const locked: unknown[] = await em.query('SELECT id FROM event WHERE id = $1 FOR UPDATE', [eventId]);
    return locked.length > 0;
  }

  /** Whether the event has any date (series). No lock. */
  async hasDates(em: EntityManager, eventId: number): Promise<boolean> {
    const dates: unknown[] = await em.query('SELECT 1 FROM subevent WHERE event_id = $1 LIMIT 1', [eventId]);
    return dates.length > 0;
  }

  /** Whether the organizer has an event with this slug (case-insensitive). No lock. */
  slugTaken(em: EntityManager, organizerId: number, slug: string): Promise<boolean> {
    return em
      .getRepository(Event)
      .createQueryBuilder('e')
      .where('e.organizer_id = :org AND lower(e.slug) = lower(:slug)', {
        org: organizerId,
        slug,
      })
      .getExists();
  }
}
