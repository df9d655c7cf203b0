import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { paginateRows } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { ItemCategory } from './item-category.entity';

/**
 * The SQL of the catalogue's `item_category` table (compat §3.9): the list page, the reference check items make,
 * the cross-selling lists. Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class CategoryQueries {
  /**
   * One page of the event's categories (rows and count in one statement), presented by `present`. Filter
   * `is_addon`; ordering `id`, `position` (default `position,id`).
   * @throws ValidationFailed on a malformed filter; NotFound "Invalid page."
   */
  async page<T>(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: ItemCategory[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(ItemCategory)
      .createQueryBuilder('c')
      .where('c.event_id = :event', { event: eventId });
    const isAddon = filters.bool('is_addon');
    if (isAddon !== undefined) qb.andWhere('c.is_addon = :isAddon', { isAddon });
    applyOrdering(qb, filters, { id: 'c.id', position: 'c.position' }, ['position', 'id']);
    return paginateRows(qb, page, present);
  }

  /** Whether `id` is a category of the event; share-locks it (`FOR KEY SHARE`); one statement. */
  async belongsToEvent(em: EntityManager, eventId: number, id: number): Promise<boolean> {
    const rows: unknown[] = await em.query(
      'SELECT 1 FROM item_category WHERE id = $1 AND event_id = $2 FOR KEY SHARE',
      [id, eventId],
    );
    return rows.length > 0;
  }

  /** Removes an item from the cross-selling lists of the event's categories; one statement. */
  async forgetItem(em: EntityManager, eventId: number, itemId: number): Promise<void> {
    await em.query(
      `UPDATE item_category SET cross_selling_match_products = array_remove(cross_selling_match_products, $2)
       WHERE event_id = $1 AND $2 = ANY(cross_selling_match_products)`,
      [eventId, itemId],
    );
  }

  /** The ids among `ids` that are items of the event, share-locked (`FOR KEY SHARE`); one statement. */
  async itemsOfEventForWrite(em: EntityManager, eventId: number, ids: readonly number[]): Promise<{ id: number }[]> {
    return em.query('SELECT id FROM item WHERE event_id = $1 AND id = ANY($2) FOR KEY SHARE', [eventId, ids]);
  }
}
