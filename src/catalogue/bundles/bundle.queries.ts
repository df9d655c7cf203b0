import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { paginateRows, Related, relatedRows } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { ItemBundle } from './item-bundle.entity';

/** A bundled item of the event: whether it has variations, and bundles of its own. */
export interface BundledItemRow {
  id: number;
  has_variations: boolean;
  has_bundles: boolean;
}

/** A bundled variation of the event with its item. */
export interface BundledVariationRow {
  id: number;
  item_id: number;
}

/**
 * The SQL of the catalogue's `item_bundle` table (compat §3.13): the list page, the bundles read in an item's
 * statement, the facts the bundle rules check. Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class BundleQueries {
  /**
   * One page of the item's bundles (rows and count in one statement), presented by `present`; ordering `id`.
   * @throws NotFound "Invalid page."
   */
  async page<T>(
    em: EntityManager,
    itemId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: ItemBundle[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(ItemBundle)
      .createQueryBuilder('b')
      .where('b.base_item_id = :item', { item: itemId });
    applyOrdering(qb, filters, { id: 'b.id' }, ['id']);
    return paginateRows(qb, page, present);
  }

  /** The bundles of the item whose id is the SQL expression `itemId`, by id (style.md "Data access"). */
  relatedToItem(em: EntityManager, itemId: string): Related<ItemBundle[]> {
    return relatedRows(
      em.connection.getMetadata(ItemBundle),
      'b',
      `FROM item_bundle b WHERE b.base_item_id = ${itemId}`,
      'b.id',
    );
  }

  /** Items of the event among `itemIds` with `has_variations` and whether they have bundles; one statement. */
  async bundledItems(em: EntityManager, eventId: number, itemIds: readonly number[]): Promise<BundledItemRow[]> {
    return em.query(
      `SELECT i.id, i.has_variations, EXISTS (SELECT 1 FROM item_bundle b WHERE b.base_item_id = i.id) AS has_bundles
       FROM item i WHERE i.event_id = $1 AND i.id = ANY($2)`,
      [eventId, itemIds],
    );
  }

  /** Variations of the event's items among `variationIds` with their item; one statement. */
  async bundledVariations(
    em: EntityManager,
    eventId: number,
    variationIds: readonly number[],
  ): Promise<BundledVariationRow[]> {
    return em.query(
      `SELECT v.id, v.item_id FROM item_variation v JOIN item i ON i.id = v.item_id
       WHERE i.event_id = $1 AND v.id = ANY($2)`,
      [eventId, variationIds],
    );
  }
}
