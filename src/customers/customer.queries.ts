import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { paginateInOne, paginateRows, relatedValue } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { Customer } from './customer.entity';
import { Membership } from './membership.entity';

/** The SQL of the `customer` and `membership` tables. Stateless; every method runs on the caller's `em`. */
@Injectable()
export class CustomerQueries {
  /**
   * One page of the organizer's customers (rows and count in one statement); filter `email` (case-insensitive
   * exact, pretix `iexact`); ordered by `email` then id (pretix's model ordering; no `ordering` parameter).
   * @throws NotFound "Invalid page."
   */
  customerPage<T>(
    em: EntityManager,
    organizerId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: Customer[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(Customer)
      .createQueryBuilder('c')
      .where('c.organizer_id = :organizer', { organizer: organizerId });
    const email = filters.str('email');
    // Emails are stored lower-cased, so a lower-cased value matches them exactly (and can use the unique index).
    if (email !== undefined) qb.andWhere('c.email = :email', { email: email.toLowerCase() });
    qb.orderBy('c.email', 'ASC').addOrderBy('c.id', 'ASC');
    return paginateRows(qb, page, present);
  }

  /**
   * One page of the organizer's memberships with their customers' identifiers (one statement for rows and count);
   * filters `customer` (identifier, case-insensitive), `membership_type` (id), `testmode`; ordered by id.
   * @throws NotFound "Invalid page."
   * @throws ValidationFailed for a malformed filter value
   */
  async membershipPage<T>(
    em: EntityManager,
    organizerId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (row: Membership, customerIdentifier: string) => T,
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(Membership)
      .createQueryBuilder('m')
      .where('m.organizer_id = :organizer', { organizer: organizerId });
    const customer = filters.str('customer');
    if (customer !== undefined) {
      qb.andWhere(
        'm.customer_id IN (SELECT c.id FROM customer c WHERE c.organizer_id = :organizer AND upper(c.identifier) = upper(:customer))',
        { customer },
      );
    }
    const type = filters.int('membership_type');
    if (type !== undefined) qb.andWhere('m.membership_type_id = :type', { type });
    const testmode = filters.bool('testmode');
    if (testmode !== undefined) qb.andWhere('m.testmode = :testmode', { testmode });
    qb.orderBy('m.id', 'ASC');
    return paginateInOne(
      qb,
      page,
      { customer: relatedValue<string>('SELECT c.identifier FROM customer c WHERE c.id = m.customer_id') },
      (row, related) => present(row, related.customer),
    );
  }

  /** The organizer's membership `id` with its customer (locked for the transaction when `lock` is set), or null. */
  membership(em: EntityManager, organizerId: number, id: number, lock: boolean): Promise<Membership | null> {
    const qb = em
      .getRepository(Membership)
      .createQueryBuilder('m')
      .innerJoinAndSelect('m.customer', 'c')
      .where('m.id = :id AND m.organizer_id = :organizerId', { id, organizerId });
    if (lock) qb.setLock('pessimistic_write', undefined, ['m']);
    return qb.getOne();
  }

  /** Whether a membership of this type exists (any organizer: a type belongs to one). */
  async typeUsed(em: EntityManager, typeId: number): Promise<boolean> {
    return em.exists(Membership, { where: { membershipTypeId: typeId } });
  }

  /** Whether an identifier is taken (by any organizer: generated identifiers are unique across organizers). */
  identifierTaken(em: EntityManager, identifier: string): Promise<boolean> {
    return em.exists(Customer, { where: { identifier } });
  }

  /** Whether another customer of the organizer has this (lower-cased) e-mail address. */
  emailTaken(
    em: EntityManager,
    organizerId: number,
    email: string,
    exceptId: number | null,
  ): Promise<boolean> {
    const qb = em
      .getRepository(Customer)
      .createQueryBuilder('c')
      .where('c.organizer_id = :organizerId AND c.email = :email', { organizerId, email });
    if (exceptId !== null) qb.andWhere('c.id <> :exceptId', { exceptId });
    return qb.getExists();
  }
}
