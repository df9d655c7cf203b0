import type { EntityManager } from 'typeorm';
import type { FieldErrors } from '../common/errors';

/**
 * Port: the seating plan of an event (compat §3.17 `seating_plan`, §4.2). Declared here, provided by the seating
 * context (which owns plans and seats) and handed to OrganizersModule by `app.module.ts`; mandatory.
 */
export const EVENT_SEATING = Symbol('EventSeating');

export interface EventSeating {
  /**
   * Checks a plan and a category mapping for an event of the organizer (`eventId` null on creation): the plan
   * must be the organizer's, a series event takes no plan, mapped ids must be items of the event.
   * @returns field errors (`seating_plan`, `seat_category_mapping`), or null when fine
   */
  check(
    em: EntityManager,
    organizerId: number,
    eventId: number | null,
    planId: number | null,
    mapping: Record<string, number | null>,
    hasSubevents: boolean,
  ): Promise<FieldErrors | null>;

  /**
   * Makes the event's seats those of its plan (none without a plan), each mapped to the item its category
   * names; seats that stay in the plan keep their id and their `blocked` flag. With `subeventId` the seats of
   * that date of the series instead. A fixed number of statements.
   * @throws ValidationFailed `seating_plan` when a seat that would vanish is sold or reserved (compat §3.17)
   */
  apply(
    em: EntityManager,
    eventId: number,
    planId: number | null,
    mapping: Record<string, number | null>,
    subeventId?: number | null,
  ): Promise<void>;
}
