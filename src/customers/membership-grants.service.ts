import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Customer } from './customer.entity';
import { Membership } from './membership.entity';
import type { Validity } from './membership-validity.rules';

/** A position of a paid order whose item grants a membership type. */
export interface GrantingPosition {
  positionId: number;
  membershipTypeId: number;
  validity: Validity;
  attendeeNameParts: Record<string, string> | null;
}

/**
 * Memberships granted by paid orders (pretix `signal_listener_issue_memberships`): the orders context calls this
 * when an order of a customer is paid (or changed while paid). Runs on the caller's `em`, in its transaction.
 */
@Injectable()
export class MembershipGrants {
  /**
   * Creates one membership for each position that has none yet, for the organizer's customer `identifier`, in
   * `testmode` like the order. Nothing when the customer is unknown (e.g. anonymized since). At most three
   * statements. @returns the number of memberships created
   */
  async grant(
    em: EntityManager,
    organizerId: number,
    identifier: string,
    testmode: boolean,
    positions: readonly GrantingPosition[],
  ): Promise<number> {
    if (positions.length === 0) return 0;
    const customer = await em.findOne(Customer, { where: { organizerId, identifier }, select: { id: true } });
    if (!customer) return 0;
    const granted = await em.find(Membership, {
      where: { grantedInPositionId: In(positions.map((p) => p.positionId)) },
      select: { grantedInPositionId: true },
    });
    const done = new Set(granted.map((m) => m.grantedInPositionId));
    const fresh = positions.filter((p) => !done.has(p.positionId));
    if (fresh.length === 0) return 0;
    await em.insert(
      Membership,
      fresh.map((p) => ({
        organizerId,
        customerId: customer.id,
        membershipTypeId: p.membershipTypeId,
        testmode,
        dateStart: p.validity.start,
        dateEnd: p.validity.end,
        attendeeNameParts: p.attendeeNameParts,
        canceled: false,
        grantedInPositionId: p.positionId,
      })),
    );
    return fresh.length;
  }
}
