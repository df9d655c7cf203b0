import type { EntityManager } from 'typeorm';

/**
 * Port: whether an event or a date of a series holds orders (neither can then be deleted, compat §4.2, §3.17). Declared here,
 * provided by the orders context and handed to OrganizersModule by `app.module.ts`; mandatory.
 */
export const EVENT_USAGE = Symbol('EventUsage');
export interface EventUsage {
  hasOrders(em: EntityManager, eventId: number): Promise<boolean>;
  /** Whether order positions use the date of a series (such a date cannot be deleted, compat §3.17). */
  subeventHasOrders(em: EntityManager, subeventId: number): Promise<boolean>;
}
