import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { paginateRows, Related, relatedRows } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { ItemAddon } from './item-addon.entity';

/**
 * The SQL of the catalogue's `item_addon` table (compat §3.12): the list page, the add-ons read in an item's
 * statement, the write checks. Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class AddonQueries {
  /**
   * One page of the item's add-ons (rows and count in one statement), presented by `present`; ordering `id`,
   * `position` (default `position,id`).
   * @throws NotFound "Invalid page."
   */
  async page<T>(
    em: EntityManager,
    itemId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: ItemAddon[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(ItemAddon)
      .createQueryBuilder('a')
      .where('a.base_item_id = :item', { item: itemId });
    applyOrdering(qb, filters, { id: 'a.id', position: 'a.position' }, ['position', 'id']);
    return paginateRows(qb, page, present);
  }

  /**
   * The add-ons of the item whose id is the SQL expression `itemId`, by position then id (style.md "Data access").
   */
  relatedToItem(em: EntityManager, itemId: string): Related<ItemAddon[]> {
    return relatedRows(
      em.connection.getMetadata(ItemAddon),
      'a',
      `FROM item_addon a WHERE a.base_item_id = ${itemId}`,
      'a.position, a.id',
    );
  }

  /** Ids among `ids` that are categories of the event, share-locked (`FOR KEY SHARE`, id order); one statement. */
  async categoriesOfEvent(em: EntityManager, eventId: number, ids: readonly number[]): Promise<{ id: number }[]> {
    return em.query(
      'SELECT id FROM item_category WHERE event_id = $1 AND id = ANY($2) ORDER BY id FOR KEY SHARE',
      [eventId, ids],
    );
  }

  /** Whether another add-on (`exceptId`; 0 for none) of the item has this add-on category; one statement. */
  async categoryTaken(
    em: EntityManager,
    itemId: number,
    categoryId: number,
    exceptId: number,
  ): Promise<boolean> {
    const rows: unknown[] = await em.query(
      'SELECT 1 FROM item_addon WHERE base_item_id = $1 AND addon_category_id = $2 AND id <> $3',
      [itemId, categoryId, exceptId],
    );
    return rows.length > 0;
  }
}
