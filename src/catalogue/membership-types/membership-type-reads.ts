import { Injectable, Module } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { Item } from '../items/item.entity';
import { MembershipType } from './membership-type.entity';

/** What an item grants when a paid order of a customer contains it (pretix `Item.grant_membership_*`). */
export interface MembershipGrant {
  membershipTypeId: number;
  /** Valid like the event (its start to its end) rather than for the duration. */
  durationLikeEvent: boolean;
  durationDays: number;
  durationMonths: number;
}

/**
 * The catalogue's read of membership types for the contexts above it (memberships of customers reference them,
 * paid orders grant them):
 * needs no port, so it is its own module ({@link MembershipTypeReadsModule}).
 */
@Injectable()
export class MembershipTypeReads {
  /** Whether `id` is a membership type of the organizer; one statement on the caller's `em`. */
  exists(em: EntityManager, organizerId: number, id: number): Promise<boolean> {
    return em.exists(MembershipType, { where: { id, organizerId } });
  }

  /** The grants of those items that grant a membership type, by item id; one statement. */
  async grantsOfItems(em: EntityManager, itemIds: readonly number[]): Promise<Map<number, MembershipGrant>> {
    if (itemIds.length === 0) return new Map();
    const items = await em.find(Item, { where: { id: In([...new Set(itemIds)]) } });
    return new Map(
      items
        .filter((i) => i.grantMembershipType !== null)
        .map((i) => [
          i.id,
          {
            membershipTypeId: i.grantMembershipType!,
            durationLikeEvent: i.grantMembershipDurationLikeEvent,
            durationDays: i.grantMembershipDurationDays,
            durationMonths: i.grantMembershipDurationMonths,
          },
        ]),
    );
  }
}

/** Exports {@link MembershipTypeReads}; imports nothing (no port), so any context above the catalogue may use it. */
@Module({ providers: [MembershipTypeReads], exports: [MembershipTypeReads] })
export class MembershipTypeReadsModule {}
