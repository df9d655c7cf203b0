import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import type { MembershipTypeUsage } from '../catalogue/membership-types/membership-type-usage.port';
import { Customer } from './customer.entity';
import { CustomerJson, toCustomerJson } from './customer.presenter';
import { CustomerQueries } from './customer.queries';

/** A customer as other contexts refer to it: its id and its identifier (the wire key). */
export interface CustomerRef {
  id: number;
  identifier: string;
}

/** DRF's message for a customer identifier that names no customer of the organizer (`SlugRelatedField`). */
export const unknownCustomer = (identifier: string): string =>
  `Object with identifier=${identifier} does not exist.`;

/**
 * The customers context's reads for the contexts above it (orders and reusable media name customers by
 * identifier): lookups within one organizer and the wire form for `expand=customer`. Every method runs on the
 * caller's `em`, one statement each.
 */
@Injectable()
export class CustomerReads {
  constructor(private readonly queries: CustomerQueries) {}

  /** The organizer's customer with this identifier (exact match), or null. */
  async byIdentifier(
    em: EntityManager,
    organizerId: number,
    identifier: string,
  ): Promise<CustomerRef | null> {
    if (identifier.length > 190) return null;
    const row = await em.findOne(Customer, {
      where: { organizerId, identifier },
      select: { id: true, identifier: true },
    });
    return row ? { id: row.id, identifier: row.identifier } : null;
  }

  /** The wire form of the organizer's customers with these identifiers, by identifier (unknown ones missing). */
  async present(
    em: EntityManager,
    organizerId: number,
    identifiers: readonly string[],
  ): Promise<Map<string, CustomerJson>> {
    const unique = [...new Set(identifiers)];
    if (unique.length === 0) return new Map();
    const rows = await em.find(Customer, { where: { organizerId, identifier: In(unique) } });
    return new Map(rows.map((c) => [c.identifier, toCustomerJson(c)]));
  }

  /** Whether any customer's membership is of this type. */
  membershipTypeUsed(em: EntityManager, typeId: number): Promise<boolean> {
    return this.queries.typeUsed(em, typeId);
  }
}

/**
 * The customers context's answer to the catalogue's `MEMBERSHIP_TYPE_USAGE` port (compat §3.6 DELETE: a type
 * with memberships cannot be deleted).
 */
@Injectable()
export class MembershipUsage implements MembershipTypeUsage {
  constructor(private readonly reads: CustomerReads) {}

  isUsed(em: EntityManager, membershipTypeId: number): Promise<boolean> {
    return this.reads.membershipTypeUsed(em, membershipTypeId);
  }
}
