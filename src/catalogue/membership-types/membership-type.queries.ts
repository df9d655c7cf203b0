import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { paginateRows } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { MembershipType } from './membership-type.entity';

/**
 * The SQL of the catalogue's `membership_type` table (compat §3.6): the list page and the delete check.
 * Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class MembershipTypeQueries {
  /**
   * One page of the organizer's membership types (rows and count in one statement), presented by `present`;
   * ordering `id`.
   * @throws NotFound "Invalid page."
   */
  async page<T>(
    em: EntityManager,
    organizerId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: MembershipType[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(MembershipType)
      .createQueryBuilder('m')
      .where('m.organizer_id = :organizer', { organizer: organizerId });
    applyOrdering(qb, filters, { id: 'm.id' }, ['id']);
    return paginateRows(qb, page, present);
  }

  /** Whether an item grants or requires the type, or a variation requires it; one statement. */
  async usedByCatalogue(em: EntityManager, typeId: number): Promise<boolean> {
    const rows: { used: boolean }[] = await em.query(
      `SELECT EXISTS (SELECT 1 FROM item WHERE grant_membership_type = $1 OR $1 = ANY(require_membership_types))
             OR EXISTS (SELECT 1 FROM item_variation WHERE $1 = ANY(require_membership_types)) AS used`,
      [typeId],
    );
    return rows[0].used;
  }
}
