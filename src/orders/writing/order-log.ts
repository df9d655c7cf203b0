import type { EntityManager } from 'typeorm';
import type { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import type { Event } from '../../organizers/event.entity';

/** Who changes an order: the event of the URL and the credential. */
export interface OrderActor {
  event: Pick<Event, 'id' | 'organizerId' | 'slug' | 'name' | 'timezone' | 'currency' | 'hasSubevents'>;
  principal: Principal;
}

/**
 * Writes a log entry about an order (content type `order`, pretix's action names of compat §4.4) inside the
 * caller's transaction. A deletion names the order it deletes (its id and, in `data.code`, its code: the change
 * feed keys the tombstone on it).
 */
export function logOrder(
  audit: AuditLogService,
  em: EntityManager,
  actor: OrderActor,
  orderId: number | null,
  action: string,
  data: Record<string, unknown> = {},
): Promise<void> {
  return audit.record(em, actor.principal, {
    organizerId: actor.event.organizerId,
    eventId: actor.event.id,
    contentType: 'order',
    objectId: orderId,
    action,
    data,
  });
}
