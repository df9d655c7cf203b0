import type { EntityManager } from 'typeorm';
import type { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import type { Organizer } from '../organizers/organizer.entity';
import type { Customer } from './customer.entity';

/** Content type of customer log entries (memberships log on their customer, as pretix does). */
export const CUSTOMER_CONTENT_TYPE = 'customer';

/**
 * Logs `action` on the customer (pretix `Customer.log_action`: organizer-level, `data` plus the customer's
 * `identifier`, so webhooks can name it).
 */
export function recordCustomerAction(
  audit: AuditLogService,
  em: EntityManager,
  principal: Principal,
  organizer: Organizer,
  customer: Customer,
  action: string,
  data: Record<string, unknown>,
): Promise<void> {
  return audit.record(em, principal, {
    organizerId: organizer.id,
    eventId: null,
    contentType: CUSTOMER_CONTENT_TYPE,
    objectId: customer.id,
    action,
    data: { ...data, identifier: customer.identifier },
  });
}
