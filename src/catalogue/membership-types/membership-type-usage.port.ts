import type { EntityManager } from 'typeorm';

/**
 * Port: whether customers' memberships use a membership type (compat §3.6 DELETE); items and variations that
 * reference a type are checked by the catalogue itself. Declared here, provided by the context that owns
 * memberships (for now the orders context answers for it) and handed to the catalogue's modules by
 * `app.module.ts`; mandatory.
 */
export const MEMBERSHIP_TYPE_USAGE = Symbol('MembershipTypeUsage');
export interface MembershipTypeUsage {
  /** True when memberships of customers are of this type: deleting it is refused with 403. */
  isUsed(em: EntityManager, membershipTypeId: number): Promise<boolean>;
}
