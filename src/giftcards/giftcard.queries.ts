import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { applyOrdering } from '../common/listing/ordering';
import { findManyInOne, findOneInOne, paginateInOne, relatedValue } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { SqlFragment, sqlFragment } from '../common/persistence/sql-fragment';
import { GiftCardTransaction } from './giftcard-transaction.entity';
import { GiftCard } from './giftcard.entity';

/** The organizers context's scalar subquery of an organizer's slug by the SQL expression of its id. */
export type OrganizerSlugSql = (organizerId: string) => string;

/** The related values of a transaction: its acceptor's slug, its event's slug and its order's code (or null). */
export interface TransactionRefs {
  acceptor: string;
  event: string | null;
  order: string | null;
}

/** The owners' scalar subqueries for {@link TransactionRefs}, each by the SQL expression of the id. */
export interface TransactionRefSql {
  organizerSlugOf: OrganizerSlugSql;
  eventSlugOf: (eventId: string) => string;
  orderCodeOf: (orderId: string) => string;
}

/** A `giftcard` row as `RETURNING *` gives it (money as text). */
export interface GiftCardRow {
  id: number;
  issuer_id: number;
  secret: string;
  issuance: Date;
  value: string;
  currency: string;
  testmode: boolean;
  expires: Date | null;
  conditions: string | null;
  owner_ticket_id: number | null;
}

/** One exported gift card (money as strings). */
export interface GiftCardExportRow {
  id: number;
  secret: string;
  issuance: Date;
  value: string;
  currency: string;
  testmode: boolean;
  expires: Date | null;
  conditions: string | null;
}

/** The organizer's reach of a read or write (spec "Gift cards"; compat §3.4 `include_accepted`). */
export interface GiftCardReach {
  organizerId: number;
  includeAccepted: boolean;
}

/**
 * The gift card context's statements (spec "Gift cards"; compat §3.4): `giftcard` and `giftcard_transaction`.
 * Every read and write is bounded by the organizer's reach ({@link reachCondition}). Stateless.
 */
@Injectable()
export class GiftCardQueries {
  /**
   * Reach condition: the gift card `alias` (its columns `issuer_id`) is within reach of the organizer bound as the
   * named parameter `:reachOrg`, i.e. issued by it, or, with `includeAccepted`, issued by an organizer whose
   * cards it accepts under an active acceptance (`giftcard_acceptance`). For query builders' `where` clauses.
   */
  reachCondition(alias: string, includeAccepted: boolean): SqlFragment {
    const own = `${alias}.issuer_id = :reachOrg`;
    if (!includeAccepted) return sqlFragment(own);
    return sqlFragment(`(${own} OR ${alias}.issuer_id IN (SELECT a.issuer_id FROM giftcard_acceptance a
            WHERE a.acceptor_id = :reachOrg AND a.active))`);
  }

  /**
   * One page of cards within reach with their issuer's slug, in one statement. Filters `secret`
   * (case-insensitive exact), `testmode`, `expired`, `value`; ordering `id` (default), `issuance`, `secret`,
   * `value`, `expires`. No lock.
   * @throws ValidationFailed (400) for a malformed filter value
   */
  cardsPage<T>(
    em: EntityManager,
    reach: GiftCardReach,
    filters: QueryFilters,
    page: PageRequest,
    organizerSlugOf: OrganizerSlugSql,
    present: (row: GiftCard, issuerSlug: string) => T,
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(GiftCard)
      .createQueryBuilder('g')
      .where(this.reachCondition('g', reach.includeAccepted), { reachOrg: reach.organizerId });
    const secret = filters.str('secret');
    if (secret !== undefined) qb.andWhere('lower(g.secret) = lower(:secret)', { secret });
    const testmode = filters.bool('testmode');
    if (testmode !== undefined) qb.andWhere('g.testmode = :testmode', { testmode });
    const expired = filters.bool('expired');
    if (expired === true) qb.andWhere('g.expires IS NOT NULL AND g.expires < now()');
    if (expired === false) qb.andWhere('(g.expires IS NULL OR g.expires >= now())');
    const value = filters.decimal('value');
    if (value !== undefined) qb.andWhere('g.value = :value', { value });
    applyOrdering(
      qb,
      filters,
      { id: 'g.id', issuance: 'g.issuance', secret: 'g.secret', value: 'g.value', expires: 'g.expires' },
      ['id'],
    );
    return paginateInOne(qb, page, this.slugOf(organizerSlugOf, 'g.issuer_id'), (row, rel) =>
      present(row, rel.slug),
    );
  }

  /** The issuer's own cards with these ids, each with its issuer's slug, in one statement (change feed). */
  cardsWithSlug<T>(
    em: EntityManager,
    organizerId: number,
    ids: readonly number[],
    organizerSlugOf: OrganizerSlugSql,
    present: (row: GiftCard, issuerSlug: string) => T,
  ): Promise<T[]> {
    const qb = em
      .getRepository(GiftCard)
      .createQueryBuilder('g')
      .where('g.id = ANY(:ids) AND g.issuer_id = :issuer', { ids, issuer: organizerId });
    return findManyInOne(qb, this.slugOf(organizerSlugOf, 'g.issuer_id'), (row, rel) => present(row, rel.slug));
  }

  /**
   * One card within reach with its issuer's slug, in one statement; no lock.
   * @throws NotFound for a card out of reach
   */
  cardWithSlug<T>(
    em: EntityManager,
    reach: GiftCardReach,
    id: number,
    organizerSlugOf: OrganizerSlugSql,
    present: (row: GiftCard, issuerSlug: string) => T,
  ): Promise<T> {
    const qb = em
      .getRepository(GiftCard)
      .createQueryBuilder('g')
      .where('g.id = :id', { id })
      .andWhere(this.reachCondition('g', reach.includeAccepted), { reachOrg: reach.organizerId });
    return findOneInOne(qb, this.slugOf(organizerSlugOf, 'g.issuer_id'), (row, rel) =>
      present(row, rel.slug),
    );
  }

  /**
   * One page of a card's transactions (only while the card is within reach) with each acceptor's slug and the
   * slug and code of its event and order (order payments and refunds), in one statement; ordering `datetime`
   * (default) or `id`. No lock.
   * @throws ValidationFailed for a malformed `ordering`
   */
  transactionsPage<T>(
    em: EntityManager,
    reach: GiftCardReach,
    id: number,
    filters: QueryFilters,
    page: PageRequest,
    refs: TransactionRefSql,
    present: (row: GiftCardTransaction, related: TransactionRefs) => T,
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(GiftCardTransaction)
      .createQueryBuilder('t')
      .where('t.giftcard_id = :id', { id })
      .andWhere(
        `EXISTS (SELECT 1 FROM giftcard g WHERE g.id = :id AND ${this.reachCondition('g', reach.includeAccepted)})`,
        {
          reachOrg: reach.organizerId,
        },
      );
    applyOrdering(qb, filters, { datetime: 't.datetime', id: 't.id' }, ['datetime', 'id']);
    const related = {
      acceptor: relatedValue<string>(refs.organizerSlugOf('t.acceptor_id')),
      event: relatedValue<string | null>(refs.eventSlugOf('t.event_id')),
      order: relatedValue<string | null>(refs.orderCodeOf('t.order_id')),
    };
    return paginateInOne(qb, page, related, (row, rel) => present(row, rel));
  }

  /** A card within reach, locked `FOR UPDATE` when `lock` is set; null when out of reach. */
  async cardInReach(
    em: EntityManager,
    reach: GiftCardReach,
    id: number,
    lock: boolean,
  ): Promise<GiftCard | null> {
    const qb = em
      .getRepository(GiftCard)
      .createQueryBuilder('g')
      .where('g.id = :id', { id })
      .andWhere(this.reachCondition('g', reach.includeAccepted), { reachOrg: reach.organizerId });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /**
   * The cards within reach with one of `secrets` (exact match), as id and secret; no lock. A secret may match
   * cards of several issuers (each issuer's secrets are unique, not across issuers).
   */
  idsBySecretInReach(
    em: EntityManager,
    reach: GiftCardReach,
    secrets: string[],
  ): Promise<Pick<GiftCard, 'id' | 'secret'>[]> {
    if (secrets.length === 0) return Promise.resolve([]);
    return em
      .getRepository(GiftCard)
      .createQueryBuilder('g')
      .select(['g.id', 'g.secret'])
      .where('g.secret IN (:...secrets)', { secrets })
      .andWhere(this.reachCondition('g', reach.includeAccepted), { reachOrg: reach.organizerId })
      .getMany();
  }

  /** Which of `ids` are cards at all (any issuer); no lock. */
  async existing(em: EntityManager, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await em.getRepository(GiftCard).find({ select: { id: true }, where: { id: In(ids) } });
    return new Set(rows.map((r) => r.id));
  }

  /** The cards within reach among `ids`, locked `FOR UPDATE` in id order (no deadlock between two lockers). */
  lockInReach(em: EntityManager, reach: GiftCardReach, ids: number[]): Promise<GiftCard[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return em
      .getRepository(GiftCard)
      .createQueryBuilder('g')
      .where('g.id IN (:...ids)', { ids })
      .andWhere(this.reachCondition('g', reach.includeAccepted), { reachOrg: reach.organizerId })
      .orderBy('g.id')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** How many cards within reach have this id (0 or 1); no lock. */
  countInReach(em: EntityManager, reach: GiftCardReach, id: number): Promise<number> {
    return em
      .getRepository(GiftCard)
      .createQueryBuilder('g')
      .where('g.id = :id', { id })
      .andWhere(this.reachCondition('g', reach.includeAccepted), { reachOrg: reach.organizerId })
      .getCount();
  }

  /**
   * Adds `delta` (money as text; negative subtracts) to the card within reach when the value stays >= 0; with
   * `issuedOnly`, only on a card the organizer issued. One conditional UPDATE (row lock until the commit).
   * @returns the updated row, or none when refused
   */
  async addValue(
    em: EntityManager,
    reach: GiftCardReach,
    id: number,
    delta: string,
    issuedOnly: boolean,
  ): Promise<GiftCardRow[]> {
    const update = em
      .createQueryBuilder()
      .update(GiftCard)
      .set({ value: () => 'value + :delta' })
      .where('id = :id', { id })
      .andWhere(this.reachCondition('giftcard', reach.includeAccepted), { reachOrg: reach.organizerId })
      .andWhere('value + :delta >= 0', { delta });
    if (issuedOnly) update.andWhere('issuer_id = :reachOrg');
    return (await update.returning('*').execute()).raw as GiftCardRow[];
  }

  /**
   * One batch of the organizer's cards (test mode ones only when `testmode`) with ids above `after`, in id order,
   * at most `batchSize` (the `giftcardlist` export's keyset paging); no lock.
   */
  exportBatch(
    em: EntityManager,
    organizerId: number,
    testmode: boolean,
    after: number,
    batchSize: number,
  ): Promise<GiftCardExportRow[]> {
    return em.query(
      `SELECT id, secret, issuance, value::text AS value, currency, testmode, expires, conditions
           FROM giftcard WHERE issuer_id = $1 AND testmode = $2 AND id > $3 ORDER BY id LIMIT $4`,
      [organizerId, testmode, after, batchSize],
    );
  }

  /** The slug of the organizer whose id is the column `column`, read with the row. */
  private slugOf(organizerSlugOf: OrganizerSlugSql, column: string) {
    return { slug: relatedValue<string>(organizerSlugOf(column)) };
  }
}
