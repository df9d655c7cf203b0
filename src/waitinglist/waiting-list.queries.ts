import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../common/listing/ordering';
import { paginateRows } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { SqlFragment, sqlFragment } from '../common/persistence/sql-fragment';
import { WaitingListEntry } from './waiting-list-entry.entity';
import { WaitingListSettings } from './waiting-list-settings.entity';

/** SQL expressions of the caller's statement that {@link WaitingListQueries.waitingCounts} reads. */
export interface WaitingCountInputs {
  /** `int[]` of event ids. */
  eventIds: string;
  /** `int[]` of item ids (entries without variation count on them). */
  itemIds: string;
  /** `int[]` of variation ids. */
  variationIds: string;
}

/** An event the automatic assignment looks at: it has open entries and `waiting_list_auto` on. */
export interface AutoAssignEvent {
  id: number;
  hours: number;
}

/**
 * The SQL of the waiting list's tables (`waiting_list_entry`, `waiting_list_settings`): list page and detail,
 * the duplicate check, the open entries of the automatic assignment, the settings, and the count of waiting
 * entries per product that the quota engine reads ({@link waitingCounts}). Stateless; runs on the caller's `em`.
 */
@Injectable()
export class WaitingListQueries {
  /**
   * Open entries (no voucher yet) per product of the events, as a statement the quota engine embeds (pretix
   * `QuotaAvailability._compute_waitinglist`): rows `item_id, variation_id, subevent_id, n`. An entry with a
   * variation counts on that variation; one without on its item. Served by the partial index
   * `ix_waiting_list_open`, so its cost follows the open entries of the products asked about, not the event.
   */
  static waitingCounts(input: WaitingCountInputs): SqlFragment {
    return sqlFragment(`SELECT w.item_id, w.variation_id, w.subevent_id, COUNT(*)::int AS n
           FROM waiting_list_entry w
          WHERE w.event_id = ANY(${input.eventIds}) AND w.voucher_id IS NULL
            AND (w.variation_id = ANY(${input.variationIds})
                 OR (w.variation_id IS NULL AND w.item_id = ANY(${input.itemIds})))
          GROUP BY w.item_id, w.variation_id, w.subevent_id`);
  }

  /**
   * One page of the event's entries in one statement. Filters `item`, `variation`, `subevent` (ids), `email`,
   * `locale` (exact), `has_voucher` (boolean); ordering `id`, `created`, `email`, `item` (default `created`, id).
   * @throws ValidationFailed on malformed filters; NotFound "Invalid page."
   */
  page(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<WaitingListEntry>> {
    const qb = em
      .getRepository(WaitingListEntry)
      .createQueryBuilder('w')
      .where('w.event_id = :event', { event: eventId });
    const item = filters.int('item');
    if (item !== undefined) qb.andWhere('w.item_id = :item', { item });
    const variation = filters.int('variation');
    if (variation !== undefined) qb.andWhere('w.variation_id = :variation', { variation });
    const subevent = filters.int('subevent');
    if (subevent !== undefined) qb.andWhere('w.subevent_id = :subevent', { subevent });
    const email = filters.str('email');
    if (email !== undefined) qb.andWhere('w.email = :email', { email });
    const locale = filters.str('locale');
    if (locale !== undefined) qb.andWhere('w.locale = :locale', { locale });
    const hasVoucher = filters.bool('has_voucher');
    if (hasVoucher !== undefined)
      qb.andWhere(hasVoucher ? 'w.voucher_id IS NOT NULL' : 'w.voucher_id IS NULL');
    applyOrdering(qb, filters, { id: 'w.id', created: 'w.created', email: 'w.email', item: 'w.item_id' }, [
      'created',
      'id',
    ]);
    return paginateRows(qb, page, (rows) => rows);
  }

  /** One entry of the event, `FOR UPDATE` with `lock`; null when there is none. */
  one(em: EntityManager, eventId: number, id: number, lock: boolean): Promise<WaitingListEntry | null> {
    return em.getRepository(WaitingListEntry).findOne({
      where: { id, eventId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /**
   * Open entries (no voucher) of one e-mail address (case-insensitive) for one product, other than `excludeId`
   * (pretix `clean_duplicate`).
   */
  async openEntriesOf(
    em: EntityManager,
    eventId: number,
    p: { email: string; itemId: number; variationId: number | null; subeventId: number | null },
    excludeId: number | null,
  ): Promise<number> {
    const rows: { n: number }[] = await em.query(
      `SELECT COUNT(*)::int AS n FROM waiting_list_entry
        WHERE event_id = $1 AND item_id = $2 AND variation_id IS NOT DISTINCT FROM $3
          AND subevent_id IS NOT DISTINCT FROM $4 AND lower(email) = lower($5) AND voucher_id IS NULL
          AND ($6::int IS NULL OR id <> $6)`,
      [eventId, p.itemId, p.variationId, p.subeventId, p.email, excludeId],
    );
    return rows[0].n;
  }

  /**
   * Ids of the event's open entries in assignment order (pretix: `-priority, created, pk`), at most `limit`,
   * from id `after` on in that order is not needed: each run reads the first `limit` still open.
   */
  async openEntryIds(em: EntityManager, eventId: number, limit: number): Promise<number[]> {
    const rows: { id: number }[] = await em.query(
      `SELECT id FROM waiting_list_entry WHERE event_id = $1 AND voucher_id IS NULL
        ORDER BY priority DESC, created, id LIMIT $2`,
      [eventId, limit],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Events the automatic assignment may look at (pretix `process_waitinglist`): with at least one open entry and
   * `waiting_list_auto` on (the default when the event has no settings row); with their `waiting_list_hours`.
   * The caller checks the event itself (live, presale running).
   */
  autoAssignEvents(em: EntityManager): Promise<AutoAssignEvent[]> {
    return em.query(
      `SELECT w.event_id AS id, coalesce(s.hours, 48) AS hours
         FROM (SELECT DISTINCT event_id FROM waiting_list_entry WHERE voucher_id IS NULL) w
         LEFT JOIN waiting_list_settings s ON s.event_id = w.event_id
        WHERE coalesce(s.auto, true)
        ORDER BY w.event_id`,
    );
  }

  /** The event's settings row, or null (defaults apply). */
  settings(em: EntityManager, eventId: number): Promise<WaitingListSettings | null> {
    return em.getRepository(WaitingListSettings).findOneBy({ eventId });
  }

  /** Writes the event's settings row (insert or update, one statement). */
  async saveSettings(em: EntityManager, row: WaitingListSettings): Promise<void> {
    await em.getRepository(WaitingListSettings).upsert(row, ['eventId']);
  }
}
