import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { applyOrdering } from '../common/listing/ordering';
import { paginateRows } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { ReusableMedium } from './reusable-medium.entity';

/** The query of one list of media, filtered and ordered, not yet read ({@link ReusableMediumQueries.page}). */
export type MediaListQuery = SelectQueryBuilder<ReusableMedium>;

/** The statements of reusable media (`reusable_medium`; compat §3.3) beyond plain repository calls. Stateless. */
@Injectable()
export class ReusableMediumQueries {
  /**
   * The organizer's media filtered by `identifier` (exact), `type`, `customer`, `active`, `created_since`,
   * `updated_since`, `linked_orderposition`, `linked_giftcard`, ordered by `created`, `updated`, `identifier`,
   * `type`, `id` (default `-updated,-id`); read with {@link page}.
   * @throws ValidationFailed (400) for a malformed filter value
   */
  mediaList(em: EntityManager, organizerId: number, filters: QueryFilters): MediaListQuery {
    const qb = em
      .getRepository(ReusableMedium)
      .createQueryBuilder('m')
      .where('m.organizer_id = :organizer', { organizer: organizerId });
    for (const [param, column] of [
      ['identifier', 'identifier'],
      ['type', 'type'],
      ['customer', 'customer'],
    ] as const) {
      const value = filters.str(param);
      if (value !== undefined) qb.andWhere(`m.${column} = :${param}`, { [param]: value });
    }
    const active = filters.bool('active');
    if (active !== undefined) qb.andWhere('m.active = :active', { active });
    for (const [param, column] of [
      ['created_since', 'created'],
      ['updated_since', 'updated'],
    ] as const) {
      const value = filters.datetime(param);
      if (value !== undefined) qb.andWhere(`m.${column} >= :${param}`, { [param]: value });
    }
    for (const [param, column] of [
      ['linked_orderposition', 'linked_orderposition_id'],
      ['linked_giftcard', 'linked_giftcard_id'],
    ] as const) {
      const value = filters.int(param);
      if (value !== undefined) qb.andWhere(`m.${column} = :${param}`, { [param]: value });
    }
    applyOrdering(
      qb,
      filters,
      { created: 'm.created', updated: 'm.updated', identifier: 'm.identifier', type: 'm.type', id: 'm.id' },
      ['-updated', '-id'],
    );
    return qb;
  }

  /** One page of a {@link mediaList} (rows and count in one statement); no lock. */
  page(list: MediaListQuery, page: PageRequest): Promise<Paginated<ReusableMedium>> {
    return paginateRows(list, page, (rows) => rows);
  }

  /**
   * The medium of this type and identifier among the media of `organizerIds`, the organizer `ownId`'s first,
   * then by id; no lock.
   */
  lookup(
    em: EntityManager,
    organizerIds: readonly number[],
    ownId: number,
    type: string,
    identifier: string,
  ): Promise<ReusableMedium | null> {
    return em
      .getRepository(ReusableMedium)
      .createQueryBuilder('m')
      .where('m.organizer_id IN (:...organizers)', { organizers: organizerIds })
      .andWhere('m.type = :type AND m.identifier = :identifier', {
        type,
        identifier,
      })
      .orderBy('m.organizer_id = :own', 'DESC')
      .addOrderBy('m.id', 'ASC')
      .setParameter('own', ownId)
      .limit(1)
      .getOne();
  }

  /** Clears `customer` of the organizer's media naming `identifier` (an anonymized customer); one statement. */
  async unlinkCustomer(em: EntityManager, organizerId: number, identifier: string): Promise<void> {
    await em.query('UPDATE reusable_medium SET customer = NULL WHERE organizer_id = $1 AND customer = $2', [
      organizerId,
      identifier,
    ]);
  }
}
