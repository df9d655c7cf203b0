import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { paginateRows } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { ItemMetaProperty } from './item-meta-property.entity';

/** Tables whose `meta_data` objects are keyed by item meta property name, with their rows of event `$1`. */
const META_TABLES: [table: string, ofEvent: string][] = [
  ['item', 'event_id = $1'],
  ['item_variation', 'item_id IN (SELECT id FROM item WHERE event_id = $1)'],
];

/**
 * The SQL of item meta properties (`item_meta_property`) and of the `meta_data` values keyed by them on the
 * event's items and variations. Stateless; runs in the caller's `em`.
 */
@Injectable()
export class ItemMetaPropertyQueries {
  /** A page of the event's properties, ordered by `name` (default, as pretix) or `id`. Two statements, no lock. */
  page<T>(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: ItemMetaProperty[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(ItemMetaProperty)
      .createQueryBuilder('p')
      .where('p.event_id = :event', { event: eventId });
    applyOrdering(qb, filters, { id: 'p.id', name: 'p.name' }, ['name', 'id']);
    return paginateRows(qb, page, present);
  }

  /** Whether another property (not `id`; any for null) of the event has this name. No lock. */
  nameTaken(em: EntityManager, eventId: number, name: string, id: number | null): Promise<boolean> {
    return em
      .getRepository(ItemMetaProperty)
      .createQueryBuilder('p')
      .where('p.event_id = :event AND p.name = :name', { event: eventId, name })
      .andWhere(id === null ? 'TRUE' : 'p.id <> :id', { id })
      .getExists();
  }

  /**
   * The names of the event's properties, share-locked (`FOR SHARE`) so that a concurrent rename or delete waits
   * for the write that checked them. One statement.
   */
  async namesForWrite(em: EntityManager, eventId: number): Promise<Set<string>> {
    const rows: { name: string }[] = await em.query(
      'SELECT name FROM item_meta_property WHERE event_id = $1 ORDER BY id FOR SHARE',
      [eventId],
    );
    return new Set(rows.map((r) => r.name));
  }

  /** Name to default of each event's properties, by event id; one statement (none for no ids). */
  async defaults(
    em: EntityManager,
    eventIds: readonly number[],
  ): Promise<Map<number, Record<string, string>>> {
    const result = new Map<number, Record<string, string>>(eventIds.map((id) => [id, {}]));
    if (eventIds.length === 0) return result;
    const rows: { event_id: number; name: string; default: string }[] = await em.query(
      'SELECT event_id, name, "default" FROM item_meta_property WHERE event_id = ANY($1::int[]) ORDER BY name, id',
      [[...eventIds]],
    );
    for (const row of rows) result.get(row.event_id)![row.name] = row.default;
    return result;
  }

  /** The event's properties, locked `FOR UPDATE` in id order. */
  allForUpdate(em: EntityManager, eventId: number): Promise<ItemMetaProperty[]> {
    return em
      .getRepository(ItemMetaProperty)
      .createQueryBuilder('p')
      .where('p.event_id = :event', { event: eventId })
      .orderBy('p.id')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** Renames the key `oldName` to `newName` in the `meta_data` of the event's items, then variations (2 statements). */
  async renameValues(em: EntityManager, eventId: number, oldName: string, newName: string): Promise<void> {
    for (const [table, ofEvent] of META_TABLES) {
      await em.query(
        `UPDATE ${table} SET meta_data = (meta_data - $2::text) || jsonb_build_object($3::text, meta_data -> $2::text)
         WHERE ${ofEvent} AND meta_data ? $2::text`,
        [eventId, oldName, newName],
      );
    }
  }

  /** Removes the keys `names` from the `meta_data` of the event's items, then variations (2 statements). */
  async deleteValues(em: EntityManager, eventId: number, names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    for (const [table, ofEvent] of META_TABLES) {
      await em.query(
        `UPDATE ${table} SET meta_data = meta_data - $2::text[] WHERE ${ofEvent} AND meta_data ?| $2::text[]`,
        [eventId, [...names]],
      );
    }
  }
}
