import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../common/listing/ordering';
import { paginateInOne, relatedValue } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { GiftCardAcceptance } from './giftcard-acceptance.entity';
import type { OrganizerSlugSql } from './giftcard.queries';

/** The statements of gift card acceptances (`giftcard_acceptance`; compat §3.4) beyond plain repository calls. */
@Injectable()
export class GiftCardAcceptanceQueries {
  /**
   * One page of the acceptor's acceptances with each issuer's slug, in one statement; filter `active`, ordering
   * `id` (default). No lock.
   * @throws ValidationFailed (400) for a malformed filter value
   */
  acceptancesPage<T>(
    em: EntityManager,
    acceptorId: number,
    filters: QueryFilters,
    page: PageRequest,
    organizerSlugOf: OrganizerSlugSql,
    present: (row: GiftCardAcceptance, issuerSlug: string) => T,
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(GiftCardAcceptance)
      .createQueryBuilder('a')
      .where('a.acceptor_id = :acceptor', { acceptor: acceptorId });
    const active = filters.bool('active');
    if (active !== undefined) qb.andWhere('a.active = :active', { active });
    applyOrdering(qb, filters, { id: 'a.id' }, ['id']);
    const issuer = { issuer: relatedValue<string>(organizerSlugOf('a.issuer_id')) };
    return paginateInOne(qb, page, issuer, (row, rel) => present(row, rel.issuer));
  }
}
