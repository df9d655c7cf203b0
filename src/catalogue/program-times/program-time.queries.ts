import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { paginateRows, Related, relatedRows } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { ItemProgramTime } from './item-program-time.entity';

/**
 * The SQL of the catalogue's `item_program_time` table: the list page and the program times read in an item's
 * statement. Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class ProgramTimeQueries {
  /**
   * One page of the item's program times (rows and count in one statement), presented by `present`; ordering
   * `id` (default, as pretix).
   * @throws NotFound "Invalid page."
   */
  page<T>(
    em: EntityManager,
    itemId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: ItemProgramTime[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(ItemProgramTime)
      .createQueryBuilder('pt')
      .where('pt.item_id = :item', { item: itemId });
    applyOrdering(qb, filters, { id: 'pt.id' }, ['id']);
    return paginateRows(qb, page, present);
  }

  /** The program times of the item whose id is the SQL expression `itemId`, by id (style.md "Data access"). */
  relatedToItem(em: EntityManager, itemId: string): Related<ItemProgramTime[]> {
    return relatedRows(
      em.connection.getMetadata(ItemProgramTime),
      'pt',
      `FROM item_program_time pt WHERE pt.item_id = ${itemId}`,
      'pt.id',
    );
  }
}
