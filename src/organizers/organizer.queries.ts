import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../common/listing/ordering';
import { paginateRows } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { Organizer } from './organizer.entity';

/**
 * The organizers context's own SQL of organizers (compat §4.1). Stateless; runs in the caller's `em`. Other
 * contexts use {@link TenancyQueries} (`tenancy.queries.ts`).
 */
@Injectable()
export class OrganizerQueries {
  /**
   * A page of the organizers with these ids; ordering `name`, `slug` (default `slug`). Rows and total in one
   * statement each (see `paginateRows`), no lock.
   */
  page<T>(
    em: EntityManager,
    organizerIds: number[],
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: Organizer[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(Organizer)
      .createQueryBuilder('o')
      .where('o.id = ANY(:ids)', { ids: organizerIds });
    applyOrdering(qb, filters, { name: 'o.name', slug: 'o.slug' }, ['slug']);
    return paginateRows(qb, page, present);
  }

  /** Inserts the organizer unless one with this slug exists (`ON CONFLICT DO NOTHING`). */
  async insertIfMissing(em: EntityManager, slug: string, name: string): Promise<void> {
    await em
      .getRepository(Organizer)
      .createQueryBuilder()
      .insert()
      .values({ slug, name })
      .orIgnore()
      .execute();
  }
}
