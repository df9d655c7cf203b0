import type { EntityManager } from 'typeorm';
import { NotFound } from '../common/errors';
import type { Event } from '../organizers/event.entity';
import { SubEventQueries } from '../organizers/subevents/subevent.queries';

/**
 * Where seats live (compat §3.18): an event without dates (`subeventId` null) or one date of a series. Every seat
 * query is scoped by both ids.
 */
export interface SeatScope {
  eventId: number;
  subeventId: number | null;
}

/** pretix's 404 messages for the wrong URL form (compat §3.18). */
export const SEAT_FORM_MESSAGES = {
  series: 'Please use the subevent-specific endpoint',
  noSubevents: 'This event has no subevents',
  unknownSubevent: 'Subevent not found',
} as const;

/**
 * The scope of `E/seats/`.
 * @throws NotFound `Please use the subevent-specific endpoint` for a series event
 */
export function eventSeatScope(event: Pick<Event, 'id' | 'hasSubevents'>): SeatScope {
  if (event.hasSubevents) throw new NotFound(SEAT_FORM_MESSAGES.series);
  return { eventId: event.id, subeventId: null };
}

/**
 * The scope of `E/subevents/{id}/seats/` (one statement).
 * @throws NotFound `This event has no subevents` for an event without dates, `Subevent not found` for an id that
 *   is not a date of the event
 */
export async function subeventSeatScope(
  em: EntityManager,
  event: Pick<Event, 'id' | 'hasSubevents'>,
  subeventId: number,
): Promise<SeatScope> {
  if (!event.hasSubevents) throw new NotFound(SEAT_FORM_MESSAGES.noSubevents);
  const found = (await new SubEventQueries().subeventsByIds(em, [subeventId])).get(subeventId);
  if (!found || found.eventId !== event.id) throw new NotFound(SEAT_FORM_MESSAGES.unknownSubevent);
  return { eventId: event.id, subeventId };
}
