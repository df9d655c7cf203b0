import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { paginateRows, Related, relatedRows } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import type { SqlFragment } from '../../common/persistence/sql-fragment';
import { ItemVariation } from './item-variation.entity';

/**
 * The SQL of the catalogue's `item_variation` table (compat §3.11): the list page and the variations read in an
 * item's statement. Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class VariationQueries {
  /**
   * One page of the item's variations (rows and count in one statement), presented by `present`. Filters
   * `active`, `search`; ordering `id`, `position` (default `position,id`).
   * @throws ValidationFailed on malformed filters; NotFound "Invalid page."
   */
  async page<T>(
    em: EntityManager,
    itemId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: ItemVariation[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(ItemVariation)
      .createQueryBuilder('v')
      .where('v.item_id = :item', { item: itemId });
    const active = filters.bool('active');
    if (active !== undefined) qb.andWhere('v.active = :active', { active });
    const pattern = filters.contains('search');
    if (pattern !== undefined) {
      qb.andWhere(
        'EXISTS (SELECT 1 FROM jsonb_each_text(v.value) AS t WHERE upper(t.value) LIKE upper(:search))',
        {
          search: pattern,
        },
      );
    }
    applyOrdering(qb, filters, { id: 'v.id', position: 'v.position' }, ['position', 'id']);
    return paginateRows(qb, page, present);
  }

  /**
   * The variations of the item whose id is the SQL expression `itemId`, by position then id, read in the
   * statement of the item's page (style.md "Data access").
   */
  relatedToItem(em: EntityManager, itemId: string): Related<ItemVariation[]> {
    return relatedRows(
      em.connection.getMetadata(ItemVariation),
      'v',
      `FROM item_variation v WHERE v.item_id = ${itemId}`,
      'v.position, v.id',
    );
  }

  /**
   * The item's variation `id` with the organizer's sales channel identifiers (`channels`, the SQL fragment of
   * `SalesChannelDirectory.identifiersOfEventSql` on `i.event_id`), in one statement; null when the item has no
   * such variation.
   */
  async oneWithChannels(
    em: EntityManager,
    itemId: number,
    id: number,
    channels: (eventId: string) => SqlFragment,
  ): Promise<{ variation: ItemVariation; channels: string[] } | null> {
    const { entities, raw } = await em
      .getRepository(ItemVariation)
      .createQueryBuilder('v')
      .innerJoin('item', 'i', 'i.id = v.item_id')
      .addSelect(channels('i.event_id'), 'organizer_channels')
      .where('v.id = :id AND v.item_id = :itemId', { id, itemId })
      .getRawAndEntities<{ organizer_channels: string[] }>();
    if (entities.length === 0) return null;
    return { variation: entities[0], channels: raw[0].organizer_channels };
  }
}
