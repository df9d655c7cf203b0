import type { EntityManager } from 'typeorm';

/**
 * Reads of organizers that other contexts need about organizers they only know by id or slug (the table
 * `organizer` belongs to this context; other contexts call these instead of querying it). One statement each,
 * nothing queried for an empty list.
 */

/** A reference to an organizer: its id and slug. */
export interface OrganizerRef {
  id: number;
  slug: string;
}

/** Slugs of organizers by id (for `issuer`/`acceptor`-style fields naming other organizers). */
export async function organizerSlugs(
  em: EntityManager,
  organizerIds: readonly number[],
): Promise<Map<number, string>> {
  if (organizerIds.length === 0) return new Map();
  const rows: OrganizerRef[] = await em.query('SELECT id, slug FROM organizer WHERE id = ANY($1)', [
    [...new Set(organizerIds)],
  ]);
  return new Map(rows.map((r) => [r.id, r.slug]));
}

/** The organizer with this slug (exact match, as in URLs), or null. */
export async function organizerBySlug(em: EntityManager, slug: string): Promise<OrganizerRef | null> {
  const rows: OrganizerRef[] = await em.query('SELECT id, slug FROM organizer WHERE slug = $1', [slug]);
  return rows[0] ?? null;
}
