import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { RowMapper } from '../common/persistence/row-mapper';
import { SqlFragment, sqlFragment } from '../common/persistence/sql-fragment';
import { Event } from './event.entity';
import { Organizer } from './organizer.entity';

/** A reference to an organizer: its id and slug. */
export interface OrganizerRef {
  id: number;
  slug: string;
}

/**
 * The tenancy roots' SQL that other contexts use about organizers and events they know by id or slug (the
 * tables `organizer` and `event` belong to this context; other contexts call these instead of querying them):
 * fragments for the one-statement request resolution and organizer-wide lists (README "API conventions"), which
 * another context's query layer embeds in its statement, the hydration of what they return, and small typed reads
 * (one statement each, none for an empty list). Parameters are passed in as placeholders (`$2`), so this context
 * stays the only one that names its tables. Stateless.
 */
@Injectable()
export class TenancyQueries {
  /**
   * Fragment, scalar subquery: the organizer with slug `slug` (a SQL expression, e.g. `$2::varchar`) as JSON
   * (see {@link organizerFromJson}), or NULL. Uses aliases `o`.
   */
  organizerBySlug(em: EntityManager, slug: string): SqlFragment {
    return sqlFragment(`(SELECT ${organizerRows(em).jsonSql('o')} FROM organizer o WHERE o.slug = ${slug})`);
  }

  /**
   * Fragment, scalar subquery: the event with slug `eventSlug` of the organizer with slug `organizerSlug` (SQL
   * expressions) as JSON (see {@link eventFromJson}), or NULL. Uses aliases `e`, `eo`.
   */
  eventBySlugs(em: EntityManager, organizerSlug: string, eventSlug: string): SqlFragment {
    return sqlFragment(`(SELECT ${eventRows(em).jsonSql('e')} FROM event e JOIN organizer eo ON eo.id = e.organizer_id
      WHERE eo.slug = ${organizerSlug} AND e.slug = ${eventSlug})`);
  }

  /** Fragment, scalar subquery: the slug of the organizer whose id is the SQL expression `organizerId`. Alias `so`. */
  organizerSlugOf(organizerId: string): SqlFragment {
    return sqlFragment(`(SELECT so.slug FROM organizer so WHERE so.id = ${organizerId})`);
  }

  /** Fragment, scalar subquery: the name of the organizer whose id is the SQL expression `organizerId`. Alias `sn`. */
  organizerNameOf(organizerId: string): SqlFragment {
    return sqlFragment(`(SELECT sn.name FROM organizer sn WHERE sn.id = ${organizerId})`);
  }

  /**
   * Fragment, scalar subquery: the slug of the event whose id is the SQL expression `eventId` (organizer-wide
   * lists). Alias `se`.
   */
  eventSlugOf(eventId: string): SqlFragment {
    return sqlFragment(`(SELECT se.slug FROM event se WHERE se.id = ${eventId})`);
  }

  /** The organizer of {@link organizerBySlug}'s JSON, as TypeORM would hydrate it; null for NULL. */
  organizerFromJson(em: EntityManager, json: unknown): Organizer | null {
    return json ? organizerRows(em).fromJson(json as Record<string, unknown>) : null;
  }

  /** The event of {@link eventBySlugs}'s JSON, as TypeORM would hydrate it; null for NULL. */
  eventFromJson(em: EntityManager, json: unknown): Event | null {
    return json ? eventRows(em).fromJson(json as Record<string, unknown>) : null;
  }

  /** Slugs of organizers by id (for `issuer`/`acceptor`-style fields naming other organizers). */
  async organizerSlugs(em: EntityManager, organizerIds: readonly number[]): Promise<Map<number, string>> {
    if (organizerIds.length === 0) return new Map();
    const rows: OrganizerRef[] = await em.query('SELECT id, slug FROM organizer WHERE id = ANY($1)', [
      [...new Set(organizerIds)],
    ]);
    return new Map(rows.map((r) => [r.id, r.slug]));
  }

  /** The organizer with this slug (exact match, as in URLs), or null. */
  async organizerRefBySlug(em: EntityManager, slug: string): Promise<OrganizerRef | null> {
    const rows: OrganizerRef[] = await em.query('SELECT id, slug FROM organizer WHERE slug = $1', [slug]);
    return rows[0] ?? null;
  }

  /** The ids among `eventIds` that are events of the organizer (compat §2.2: references resolve per organizer). */
  async eventIdsOfOrganizer(
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
  async eventSlugs(em: EntityManager, eventIds: readonly number[]): Promise<Map<number, string>> {
    if (eventIds.length === 0) return new Map();
    const rows: { id: number; slug: string }[] = await em.query(
      'SELECT id, slug FROM event WHERE id = ANY($1)',
      [[...new Set(eventIds)]],
    );
    return new Map(rows.map((r) => [r.id, r.slug]));
  }

  /** The organizer's events with the given ids (unknown ids and other organizers' events are absent). */
  async eventsByIds(em: EntityManager, organizerId: number, ids: readonly number[]): Promise<Event[]> {
    if (ids.length === 0) return [];
    return em.getRepository(Event).find({ where: { organizerId, id: In([...new Set(ids)]) } });
  }

  /** Events by id, of any organizer (background jobs that start from their own rows); one statement. */
  async eventsByIdsAnyOrganizer(em: EntityManager, ids: readonly number[]): Promise<Event[]> {
    if (ids.length === 0) return [];
    return em.getRepository(Event).find({ where: { id: In([...new Set(ids)]) }, order: { id: 'ASC' } });
  }

  /** All events of an organizer, by id (exports pick theirs from these). One statement. */
  async eventsOfOrganizer(em: EntityManager, organizerId: number): Promise<Event[]> {
    return em.getRepository(Event).find({ where: { organizerId }, order: { id: 'ASC' } });
  }

  /** Ids of the organizer's events with the given slugs, by slug (unknown slugs are absent). One statement. */
  async eventIdsBySlugs(
    em: EntityManager,
    organizerId: number,
    slugs: string[],
  ): Promise<Map<string, number>> {
    const rows: { id: number; slug: string }[] = await em.query(
      'SELECT id, slug FROM event WHERE organizer_id = $1 AND slug = ANY($2::text[])',
      [organizerId, slugs],
    );
    return new Map(rows.map((r) => [r.slug, r.id]));
  }

  /**
   * Share-locks the event row (`FOR KEY SHARE`) for a sale in `em`'s transaction, so that an event delete (which
   * locks the row `FOR UPDATE` and then checks for orders) waits for the sale to commit and sees its order, or
   * the sale waits for the delete and finds no event (compat §4.2: an event with orders cannot be deleted).
   * @returns false when the event no longer exists
   */
  async lockEventForSale(em: EntityManager, eventId: number): Promise<boolean> {
    const rows: unknown[] = await em.query('SELECT id FROM event WHERE id = $1 FOR KEY SHARE', [eventId]);
    return rows.length > 0;
  }

  /** Whether any event or date uses the seating plan (compat §3.5: such a plan can be neither changed nor deleted). */
  async seatingPlanInUse(em: EntityManager, planId: number): Promise<boolean> {
    const rows: unknown[] = await em.query(
      'SELECT 1 FROM event WHERE seating_plan_id = $1 UNION ALL SELECT 1 FROM subevent WHERE seating_plan_id = $1 LIMIT 1',
      [planId],
    );
    return rows.length > 0;
  }
}

/** The (cached) row mapper of organizers. */
const organizerRows = (em: EntityManager): RowMapper<Organizer> =>
  RowMapper.of(em.connection.getMetadata(Organizer));

/** The (cached) row mapper of events. */
const eventRows = (em: EntityManager): RowMapper<Event> => RowMapper.of(em.connection.getMetadata(Event));
