import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { paginateRows } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { EventMetaProperty } from './event-meta-property.entity';

/** Tables whose `meta_data` objects are keyed by property name (renames and deletes follow them). */
const META_TABLES = ['event', 'subevent'] as const;

/** The rows of `table` that belong to organizer `$1`. */
const ownedBy = (table: (typeof META_TABLES)[number]): string =>
  table === 'event' ? 'organizer_id = $1' : 'event_id IN (SELECT id FROM event WHERE organizer_id = $1)';

/**
 * The SQL of event meta-data properties (`event_meta_property`) and of the `meta_data` values keyed by them on
 * the organizer's events and dates (compat §4.2, §3.17). Stateless; runs in the caller's `em`.
 */
@Injectable()
export class EventMetaPropertyQueries {
  /** A page of the organizer's properties, ordered by `id` (default) or `name`. Two statements, no lock. */
  page<T>(
    em: EntityManager,
    organizerId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: EventMetaProperty[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(EventMetaProperty)
      .createQueryBuilder('p')
      .where('p.organizer_id = :organizer', { organizer: organizerId });
    applyOrdering(qb, filters, { id: 'p.id', name: 'p.name' }, ['id']);
    return paginateRows(qb, page, present);
  }

  /** Whether another property (not `id`; any for null) of the organizer has this name. No lock. */
  nameTaken(em: EntityManager, organizerId: number, name: string, id: number | null): Promise<boolean> {
    return em
      .getRepository(EventMetaProperty)
      .createQueryBuilder('p')
      .where('p.organizer_id = :org AND p.name = :name', { org: organizerId, name })
      .andWhere(id === null ? 'TRUE' : 'p.id <> :id', { id })
      .getExists();
  }

  /** Renames the key `oldName` to `newName` in the `meta_data` of the organizer's events, then dates (2 statements). */
  async renameValues(
    em: EntityManager,
    organizerId: number,
    oldName: string,
    newName: string,
  ): Promise<void> {
    for (const table of META_TABLES) {
      await em.query(
        `UPDATE ${table} SET meta_data = (meta_data - $2::text) || jsonb_build_object($3::text, meta_data -> $2::text)
                WHERE ${ownedBy(table)} AND meta_data ? $2::text`,
        [organizerId, oldName, newName],
      );
    }
  }

  /** Removes the key `name` from the `meta_data` of the organizer's events, then dates (2 statements). */
  async deleteValues(em: EntityManager, organizerId: number, name: string): Promise<void> {
    for (const table of META_TABLES) {
      await em.query(
        `UPDATE ${table} SET meta_data = meta_data - $2::text WHERE ${ownedBy(table)} AND meta_data ? $2::text`,
        [organizerId, name],
      );
    }
  }
}
