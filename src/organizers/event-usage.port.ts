import type { EntityManager } from 'typeorm';

/**
 * Port: whether an event holds orders (an event with orders cannot be deleted, compat §4.2). Declared here,
 * provided by the orders context and handed to OrganizersModule by `app.module.ts`; mandatory.
 */
export const EVENT_USAGE = Symbol('EventUsage');
export interface EventUsage {
  hasOrders(em: EntityManager, eventId: number): Promise<boolean>;
}
