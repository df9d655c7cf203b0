import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { findManyInOne, findOneInOne, paginateInOne, relatedValue } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { preparedQuery } from '../../common/persistence/prepared';
import { Quota } from './quota.entity';
import type { QuotaRefs } from './quota.presenter';

/** A quota with its item and variation ids, as the list and detail read them. */
export interface QuotaWithRefs {
  quota: Quota;
  refs: QuotaRefs;
}

/** An item a quota write refers to, with its event (to tell the organizer's other events apart). */
export interface QuotaItemRow {
  id: number;
  event_id: number;
  has_variations: boolean;
}

/** A variation a quota write refers to, with its item's event. */
export interface QuotaVariationRow {
  id: number;
  item_id: number;
  event_id: number;
}

/** One link of a quota: an item (`kind` 'i') or a variation ('v') of quota `quota_id`. */
export interface QuotaRefRow {
  quota_id: number;
  kind: 'i' | 'v';
  ref: number;
}

/** A quota an item (`item_id`) or a variation (`variation_id`) is listed in, with the quota's sub-event. */
export interface QuotaProductRow {
  quota_id: number;
  subevent_id: number | null;
  item_id: number | null;
  variation_id: number | null;
}

/**
 * Item and variation ids of quota `q`, ascending, as subqueries of the quota's own statement (style.md "Data
 * access").
 */
const QUOTA_REFS = {
  items: relatedValue<number[]>(
    "SELECT coalesce(array_agg(qi.item_id ORDER BY qi.item_id), '{}') FROM quota_item qi WHERE qi.quota_id = q.id",
  ),
  variations: relatedValue<number[]>(
    "SELECT coalesce(array_agg(qv.variation_id ORDER BY qv.variation_id), '{}') FROM quota_variation qv WHERE qv.quota_id = q.id",
  ),
};

/**
 * The SQL of the catalogue's `quota`, `quota_item` and `quota_variation` tables (compat §3.14): the list and
 * detail pages, the links, the lookups of {@link QuotaLookup}. Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class QuotaQueries {
  /**
   * One page of the event's quotas with their links, in one statement. Filters `subevent`, `subevent__in`,
   * `items__in`; ordering `id`, `position` (= id), `size` (default `position`).
   * @throws ValidationFailed on malformed filters; NotFound "Invalid page."
   */
  async page(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<QuotaWithRefs>> {
    const qb = em.getRepository(Quota).createQueryBuilder('q').where('q.event_id = :event', { event: eventId });
    const subevent = filters.int('subevent');
    if (subevent !== undefined) qb.andWhere('q.subevent_id = :subevent', { subevent });
    const subevents = filters.intList('subevent__in');
    if (subevents !== undefined) qb.andWhere('q.subevent_id = ANY(:subevents)', { subevents });
    const items = filters.intList('items__in');
    if (items !== undefined) {
      qb.andWhere(
        'EXISTS (SELECT 1 FROM quota_item qi WHERE qi.quota_id = q.id AND qi.item_id = ANY(:items))',
        { items },
      );
    }
    applyOrdering(qb, filters, { id: 'q.id', position: 'q.id', size: 'q.size' }, ['position']);
    return paginateInOne(qb, page, QUOTA_REFS, (quota, refs) => ({ quota, refs }));
  }

  /**
   * One quota of the event with its links, in one statement.
   * @throws NotFound
   */
  async one(em: EntityManager, eventId: number, id: number): Promise<QuotaWithRefs> {
    const qb = em
      .getRepository(Quota)
      .createQueryBuilder('q')
      .where('q.id = :id AND q.event_id = :event', { id, event: eventId });
    return findOneInOne(qb, QUOTA_REFS, (quota, refs) => ({ quota, refs }));
  }

  /** The quotas with these ids (any event; the caller scopes) with their items and variations; one statement. */
  many(em: EntityManager, ids: readonly number[]): Promise<QuotaWithRefs[]> {
    const qb = em.getRepository(Quota).createQueryBuilder('q').where('q.id = ANY(:ids)', { ids });
    return findManyInOne(qb, QUOTA_REFS, (quota, refs) => ({ quota, refs }));
  }

  /**
   * Writes the item/variation links of a quota: with `replace` first deletes the old ones (two statements), then
   * inserts the items and the variations (one statement each, none for an empty list).
   */
  async writeRefs(em: EntityManager, quotaId: number, refs: QuotaRefs, replace: boolean): Promise<void> {
    if (replace) {
      await em.query('DELETE FROM quota_item WHERE quota_id = $1', [quotaId]);
      await em.query('DELETE FROM quota_variation WHERE quota_id = $1', [quotaId]);
    }
    if (refs.items.length > 0) {
      await em.query('INSERT INTO quota_item (quota_id, item_id) SELECT $1, unnest($2::int[])', [
        quotaId,
        refs.items,
      ]);
    }
    if (refs.variations.length > 0) {
      await em.query('INSERT INTO quota_variation (quota_id, variation_id) SELECT $1, unnest($2::int[])', [
        quotaId,
        refs.variations,
      ]);
    }
  }

  /** Items by id with their event, share-locked (`FOR KEY SHARE`, id order); none queried for no ids. */
  async itemsForWrite(em: EntityManager, itemIds: readonly number[]): Promise<QuotaItemRow[]> {
    if (itemIds.length === 0) return [];
    return em.query(
      'SELECT id, event_id, has_variations FROM item WHERE id = ANY($1) ORDER BY id FOR KEY SHARE',
      [itemIds],
    );
  }

  /** Variations by id with their item's event, share-locked (`FOR KEY SHARE OF v`, id order); none for no ids. */
  async variationsForWrite(em: EntityManager, variationIds: readonly number[]): Promise<QuotaVariationRow[]> {
    if (variationIds.length === 0) return [];
    return em.query(
      `SELECT v.id, v.item_id, i.event_id FROM item_variation v JOIN item i ON i.id = v.item_id
              WHERE v.id = ANY($1) ORDER BY v.id FOR KEY SHARE OF v`,
      [variationIds],
    );
  }

  /** Ids of the event's quotas, ascending; one statement. */
  async eventQuotaIds(em: EntityManager, eventId: number): Promise<{ id: number }[]> {
    return em.query('SELECT id FROM quota WHERE event_id = $1 ORDER BY id', [eventId]);
  }

  /** Whether the event has any quota (compat §4.2 go-live check); one statement. */
  async eventHasQuota(em: EntityManager, eventId: number): Promise<boolean> {
    const rows: { any: boolean }[] = await em.query(
      'SELECT EXISTS (SELECT 1 FROM quota WHERE event_id = $1) AS any',
      [eventId],
    );
    return rows[0].any;
  }

  /** Quotas of the event listing the items (`itemIds`) or variations (`variationIds`); one prepared statement. */
  async productRows(
    em: EntityManager,
    eventId: number,
    itemIds: readonly number[],
    variationIds: readonly number[],
  ): Promise<QuotaProductRow[]> {
    return preparedQuery<QuotaProductRow>(
      em,
      `SELECT q.id AS quota_id, q.subevent_id, qi.item_id, NULL::int AS variation_id
           FROM quota q JOIN quota_item qi ON qi.quota_id = q.id
          WHERE q.event_id = $1 AND qi.item_id = ANY($2)
         UNION ALL
         SELECT q.id, q.subevent_id, NULL, qv.variation_id
           FROM quota q JOIN quota_variation qv ON qv.quota_id = q.id
          WHERE q.event_id = $1 AND qv.variation_id = ANY($3)
         ORDER BY 1`,
      [eventId, itemIds, variationIds],
    );
  }

  /** The item and variation links of the quotas, by quota, kind, id; one statement. */
  async refRows(em: EntityManager, quotaIds: readonly number[]): Promise<QuotaRefRow[]> {
    return em.query(
      `SELECT quota_id, 'i' AS kind, item_id AS ref FROM quota_item WHERE quota_id = ANY($1)
       UNION ALL
       SELECT quota_id, 'v' AS kind, variation_id AS ref FROM quota_variation WHERE quota_id = ANY($1)
       ORDER BY quota_id, kind, ref`,
      [[...quotaIds]],
    );
  }

  /**
   * Quota rows by id (distinct, ascending) with `itemIds` and `variationIds`, entity-shaped columns selected by
   * `selectSql` (aliased `q`); `lock` takes them `FOR UPDATE` in id order. One prepared statement.
   */
  async productQuotaRows(
    em: EntityManager,
    selectSql: string,
    ids: readonly number[],
    lock: boolean,
  ): Promise<Record<string, unknown>[]> {
    const sql = `SELECT ${selectSql},
              ARRAY(SELECT qi.item_id FROM quota_item qi WHERE qi.quota_id = q.id ORDER BY 1) AS "itemIds",
              ARRAY(SELECT qv.variation_id FROM quota_variation qv WHERE qv.quota_id = q.id ORDER BY 1) AS "variationIds"
         FROM quota q WHERE q.id = ANY($1::int[]) ORDER BY q.id${lock ? ' FOR UPDATE' : ''}`;
    return preparedQuery<Record<string, unknown>>(em, sql, [ids]);
  }

  /**
   * As {@link productQuotaRows}, for every quota of the event (of sub-event `subeventId` only, when given), by
   * id, with the item of each variation (`variationItemIds`, parallel to `variationIds`); one prepared statement,
   * no lock.
   */
  async eventProductQuotaRows(
    em: EntityManager,
    selectSql: string,
    eventId: number,
    subeventId: number | null,
  ): Promise<Record<string, unknown>[]> {
    const sql = `SELECT ${selectSql},
              ARRAY(SELECT qi.item_id FROM quota_item qi WHERE qi.quota_id = q.id ORDER BY 1) AS "itemIds",
              ARRAY(SELECT qv.variation_id FROM quota_variation qv WHERE qv.quota_id = q.id ORDER BY 1) AS "variationIds",
              ARRAY(SELECT v.item_id FROM quota_variation qv JOIN item_variation v ON v.id = qv.variation_id
                     WHERE qv.quota_id = q.id ORDER BY qv.variation_id) AS "variationItemIds"
         FROM quota q WHERE q.event_id = $1 AND ($2::int IS NULL OR q.subevent_id = $2::int) ORDER BY q.id`;
    return preparedQuery<Record<string, unknown>>(em, sql, [eventId, subeventId]);
  }
}
