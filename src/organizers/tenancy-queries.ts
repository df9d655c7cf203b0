import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { RowMapper } from '../common/persistence/row-mapper';
import { Event } from './event.entity';
import { Organizer } from './organizer.entity';

/**
 * The tenancy roots' part of the one-statement request resolution (issue 7): SQL expressions over the
 * `organizer` and `event` tables that another context embeds in its statement (the teams context's credential
 * resolver), and the hydration of what they return. Parameters are passed in as placeholders (`$2`), so this
 * context stays the only one that names its tables.
 */
@Injectable()
export class TenancyQueries {
  private readonly organizerRows: RowMapper<Organizer>;
  private readonly eventRows: RowMapper<Event>;

  constructor(
    @InjectRepository(Organizer) organizers: Repository<Organizer>,
    @InjectRepository(Event) events: Repository<Event>,
  ) {
    this.organizerRows = RowMapper.of(organizers.metadata);
    this.eventRows = RowMapper.of(events.metadata);
  }

  /** Scalar subquery: the organizer with slug `slug` as JSON, or NULL. */
  organizerBySlug(slug: string): string {
    return `(SELECT ${this.organizerRows.jsonSql('o')} FROM organizer o WHERE o.slug = ${slug})`;
  }

  /** Scalar subquery: the event with slug `eventSlug` of the organizer with slug `organizerSlug`, or NULL. */
  eventBySlugs(organizerSlug: string, eventSlug: string): string {
    return `(SELECT ${this.eventRows.jsonSql('e')} FROM event e JOIN organizer eo ON eo.id = e.organizer_id
      WHERE eo.slug = ${organizerSlug} AND e.slug = ${eventSlug})`;
  }

  /** Scalar subquery: the slug of the organizer whose id is the expression `organizerId`. */
  organizerSlugOf(organizerId: string): string {
    return `(SELECT so.slug FROM organizer so WHERE so.id = ${organizerId})`;
  }

  /** Scalar subquery: the slug of the event whose id is the expression `eventId` (organizer-wide lists). */
  eventSlugOf(eventId: string): string {
    return `(SELECT se.slug FROM event se WHERE se.id = ${eventId})`;
  }

  /** The organizer's events with the given ids (unknown ids and other organizers' events are absent). */
  async eventsByIds(em: EntityManager, organizerId: number, ids: readonly number[]): Promise<Event[]> {
    if (ids.length === 0) return [];
    return em.getRepository(Event).find({ where: { organizerId, id: In([...new Set(ids)]) } });
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
   * the sale waits for the delete and finds no event (issue 7 "Deleting an event cannot destroy orders").
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

  organizerFromJson(json: unknown): Organizer | null {
    return json ? this.organizerRows.fromJson(json as Record<string, unknown>) : null;
  }

  eventFromJson(json: unknown): Event | null {
    return json ? this.eventRows.fromJson(json as Record<string, unknown>) : null;
  }
}
