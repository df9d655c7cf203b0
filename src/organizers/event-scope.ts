import type { EntityManager } from 'typeorm';

/**
 * Reads of the tenancy roots that other contexts need about events they only know by id (the table `event`
 * belongs to this context; other contexts call these instead of querying it). One statement each, nothing
 * queried for an empty list.
 */

/** The ids among `eventIds` that are events of the organizer (compat §2.2: references resolve per organizer). */
export async function eventsOfOrganizer(
  em: EntityManager,
  organizerId: number,
  eventIds: readonly number[],
): Promise<Set<number>> {
  if (eventIds.length === 0) return new Set();
  const rows: { id: number }[] = await em.query(
    'SELECT id FROM event WHERE organizer_id = $1 AND id = ANY($2)',
    [organizerId, [...new Set(eventIds)]],
  );
  return new Set(rows.map((r) => r.id));
}

/** Slugs of events by id (for URLs and `event` fields of organizer-wide lists). */
export async function eventSlugs(
  em: EntityManager,
  eventIds: readonly number[],
): Promise<Map<number, string>> {
  if (eventIds.length === 0) return new Map();
  const rows: { id: number; slug: string }[] = await em.query(
    'SELECT id, slug FROM event WHERE id = ANY($1)',
    [[...new Set(eventIds)]],
  );
  return new Map(rows.map((r) => [r.id, r.slug]));
}
