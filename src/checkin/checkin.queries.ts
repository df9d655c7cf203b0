import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../common/listing/ordering';
import { paginateInOne, paginateRows, relatedValue } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { SqlFragment, sqlFragment } from '../common/persistence/sql-fragment';
import type { ListScope } from '../orders/checkin-seam/checkin-positions';
import { SubEventQueries } from '../organizers/subevents/subevent.queries';
import { CheckinList } from './checkin-list.entity';
import { Checkin } from './checkin.entity';

/**
 * The log entry data of a scan stored by {@link CheckinQueries.successfulScanInsert} or `refusedScanInsert`, as the
 * audit log's `recordEach` data expression over the returned row `c`: the logged data plus `checkin` (its id).
 */
export const SCAN_ENTRY_DATA = sqlFragment(`c.entry_data || jsonb_build_object('checkin', c.id)`);

/** The typed filters of a lists page (compat §3.20): `subevent`, `subevent_match`, `ends_after`. */
export interface CheckinListFilter {
  subevent?: number;
  subeventMatch?: number;
  endsAfter?: Date;
}

/** Counts of a list row `l` as correlated subqueries (the orders seam gives them, see `listCountsSql`). */
export interface ListCountsSql {
  positions: SqlFragment;
  checkins: SqlFragment;
}

/** What a lists page reads along with each list. */
export interface CheckinListRelated {
  items: number[];
  positions: number;
  checkins: number;
}

/** A list with its product ids, as the check-in routes scope by it. */
export interface ListWithItems {
  list: CheckinList;
  itemIds: number[];
}

/** A successful scan found by nonce (for annulling). */
export interface NonceScanRow {
  id: number;
  list_id: number;
  position_id: number | null;
}

/** An earlier successful scan of a ticket on a list; `again` when made with the scanner's nonce. */
export interface SuccessfulScanRow {
  id: number;
  type: 'entry' | 'exit';
  datetime: Date;
  again: boolean;
  forced: boolean;
  device_id: number | null;
  gate_id: number | null;
  nonce: string | null;
}

/** The parameters of a failed scan uploaded by a scanner (compat §3.20 `failed_checkins/`), in column order. */
export interface FailedScanInsert {
  positionId: number | null;
  eventId: number;
  listId: number;
  type: string;
  datetime: Date;
  errorReason: string;
  rawBarcode: string;
  rawSourceType: string;
  rawItemId: number | null;
  rawVariationId: number | null;
  rawSubeventId: number | null;
  nonce: string | null;
  deviceId: number | null;
  gateId: number | null;
}

/**
 * The check-in context's statements (spec "Check-in list"; compat §3.20–§3.22): `checkin_list`,
 * `checkin_list_item` and `checkin` (the scans). Stateless; each method runs on the caller's EntityManager.
 */
@Injectable()
export class CheckinQueries {
  /**
   * One page of an event's lists with their products and counts (`exclude`d counts read as 0), in one statement;
   * ordering `id`, `name`, `subevent__date_from` (default `subevent__date_from,name,id`). No lock.
   * @throws ValidationFailed for a malformed `ordering`
   */
  listsPage<T>(
    em: EntityManager,
    eventId: number,
    where: CheckinListFilter,
    exclude: ReadonlySet<string>,
    counts: ListCountsSql,
    filters: QueryFilters,
    page: PageRequest,
    present: (row: CheckinList, related: CheckinListRelated) => T,
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(CheckinList)
      .createQueryBuilder('l')
      .where('l.event_id = :event', { event: eventId });
    const { subevent, subeventMatch: match, endsAfter } = where;
    if (subevent !== undefined) qb.andWhere('l.subevent_id = :subevent', { subevent });
    if (match !== undefined) qb.andWhere('(l.subevent_id = :match OR l.subevent_id IS NULL)', { match });
    // Lists of no date always match `ends_after` (pretix); lists of a date when it ends (or starts) then or later.
    if (endsAfter !== undefined) {
      qb.andWhere(
        `(l.subevent_id IS NULL OR ${new SubEventQueries().endsAfter('l.subevent_id', ':endsAfter')})`,
        {
          endsAfter,
        },
      );
    }
    applyOrdering(
      qb,
      filters,
      { id: 'l.id', name: 'l.name', subevent__date_from: new SubEventQueries().dateFromOf('l.subevent_id') },
      ['subevent__date_from', 'name', 'id'],
    );
    return paginateInOne(
      qb,
      page,
      {
        items: relatedValue<number[]>(
          "SELECT coalesce(array_agg(li.item_id), '{}') FROM checkin_list_item li WHERE li.list_id = l.id",
        ),
        positions: relatedValue<number>(exclude.has('position_count') ? 'SELECT 0' : counts.positions),
        checkins: relatedValue<number>(exclude.has('checkin_count') ? 'SELECT 0' : counts.checkins),
      },
      present,
    );
  }

  /**
   * The list a device's event selection suggests (pretix `EventSelectionView._suggest_event`): of the lists of
   * event `eventId` (all of them, or for a date `subeventId` those of that date and of no date), the first with the
   * name or id of the device's current list (`currentListId` of event `currentEventId`), else the first; in pretix's
   * list order (date start, no date last; name; id). One statement, no lock; null when the event has no list.
   */
  async selectionList(
    em: EntityManager,
    eventId: number,
    subeventId: number | null,
    current: { listId: number; eventId: number } | null,
  ): Promise<number | null> {
    const rows = await em.query<{ id: number }[]>(
      `WITH cur AS (SELECT c.id, c.name FROM checkin_list c WHERE c.id = $3 AND c.event_id = $4)
       SELECT l.id FROM checkin_list l
        WHERE l.event_id = $1 AND ($2::int IS NULL OR l.subevent_id IS NULL OR l.subevent_id = $2::int)
        ORDER BY EXISTS (SELECT 1 FROM cur WHERE cur.name = l.name OR cur.id = l.id) DESC,
                 ${new SubEventQueries().dateFromOf('l.subevent_id')} ASC, l.name, l.id
        LIMIT 1`,
      [eventId, subeventId, current?.listId ?? null, current?.eventId ?? null],
    );
    return rows[0]?.id ?? null;
  }

  /** Lists by id (any event) with their product ids in id order; one statement, no lock. */
  async listsWithItems(em: EntityManager, ids: readonly number[]): Promise<ListWithItems[]> {
    const { entities, raw } = await em
      .getRepository(CheckinList)
      .createQueryBuilder('l')
      .addSelect(
        `(SELECT coalesce(array_agg(li.item_id ORDER BY li.item_id), '{}') FROM checkin_list_item li WHERE li.list_id = l.id)`,
        'item_ids',
      )
      .where('l.id = ANY(:ids)', { ids: [...new Set(ids)] })
      .orderBy('l.id')
      .getRawAndEntities<{ l_id: number; item_ids: number[] }>();
    return entities.map((list) => ({
      list,
      itemIds: raw.find((r) => r.l_id === list.id)?.item_ids ?? [],
    }));
  }

  /** The product ids and counts of the list `listId` (one statement; null when the list is gone). */
  async listRelated(
    em: EntityManager,
    listId: number,
    counts: ListCountsSql,
  ): Promise<CheckinListRelated | null> {
    const rows: CheckinListRelated[] = await em.query(
      `SELECT (SELECT coalesce(array_agg(li.item_id), '{}') FROM checkin_list_item li WHERE li.list_id = l.id) AS items,
              ${counts.positions} AS positions, ${counts.checkins} AS checkins
         FROM checkin_list l WHERE l.id = $1`,
      [listId],
    );
    return rows[0] ?? null;
  }

  /** Adds the products `itemIds` (distinct, non-empty) to the list `listId`. */
  async insertListItems(em: EntityManager, listId: number, itemIds: readonly number[]): Promise<void> {
    await em.query('INSERT INTO checkin_list_item (list_id, item_id) SELECT $1, unnest($2::int[])', [
      listId,
      itemIds,
    ]);
  }

  /** The list `listId` of the event as the `checkinlist` export needs it, or null; one statement, no lock. */
  async exportList(
    em: EntityManager,
    eventId: number,
    listId: number,
  ): Promise<(ListScope & { name: string }) | null> {
    const rows: (ListScope & { name: string })[] = await em.query(
      `SELECT id, event_id AS "eventId", all_products AS "allProducts", subevent_id AS "subeventId",
              include_pending AS "includePending", name
         FROM checkin_list WHERE id = $1 AND event_id = $2`,
      [listId, eventId],
    );
    return rows[0] ?? null;
  }

  /**
   * One page of an event's scans (compat §3.22): filters `successful`, `auto_checked_in`, `type`, `list`,
   * `created_since`, `created_before`, `datetime_since`, `datetime_before`; ordering `id`, `created`, `datetime`
   * (default `-created,-id`). One statement, no lock.
   * @throws ValidationFailed for a malformed filter value
   */
  scansPage<T>(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: Checkin[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(Checkin)
      .createQueryBuilder('c')
      .where('c.event_id = :event', { event: eventId });
    for (const [param, column] of [
      ['successful', 'successful'],
      ['auto_checked_in', 'auto_checked_in'],
    ] as const) {
      const value = filters.bool(param);
      if (value !== undefined) qb.andWhere(`c.${column} = :${param}`, { [param]: value });
    }
    const type = filters.str('type');
    if (type !== undefined) qb.andWhere('c.type = :type', { type });
    const list = filters.int('list');
    if (list !== undefined) qb.andWhere('c.list_id = :list', { list });
    for (const [param, op, column] of [
      ['created_since', '>=', 'created'],
      ['created_before', '<', 'created'],
      ['datetime_since', '>=', 'datetime'],
      ['datetime_before', '<', 'datetime'],
    ] as const) {
      const at = filters.datetime(param);
      if (at !== undefined) qb.andWhere(`c.${column} ${op} :${param}`, { [param]: at });
    }
    applyOrdering(qb, filters, { id: 'c.id', created: 'c.created', datetime: 'c.datetime' }, [
      '-created',
      '-id',
    ]);
    return paginateRows(qb, page, present);
  }

  /**
   * Stores a failed scan unless the list already has a failed scan of the same ticket (or of no ticket) with the
   * same nonce. @returns the new id, or none when nothing was stored
   */
  async insertFailedScan(em: EntityManager, scan: FailedScanInsert): Promise<{ id: number }[]> {
    return em.query(
      `INSERT INTO checkin (position_id, event_id, list_id, type, datetime, successful, error_reason,
                              raw_barcode, raw_source_type, raw_item_id, raw_variation_id, raw_subevent_id, nonce,
                              device_id, gate_id)
         VALUES ($1, $2, $3, $4, $5, false, $6, $7, $8, $9, $10, $11, $12, $13, $14)
         ON CONFLICT (position_id, list_id, nonce) WHERE NOT successful AND nonce IS NOT NULL DO NOTHING
         RETURNING id`,
      [
        scan.positionId,
        scan.eventId,
        scan.listId,
        scan.type,
        scan.datetime,
        scan.errorReason,
        scan.rawBarcode,
        scan.rawSourceType,
        scan.rawItemId,
        scan.rawVariationId,
        scan.rawSubeventId,
        scan.nonce,
        scan.deviceId,
        scan.gateId,
      ],
    );
  }

  /** The failed scan of the list with this nonce and ticket (or no ticket); no lock. */
  async failedScanByNonce(
    em: EntityManager,
    listId: number,
    nonce: string | null | undefined,
    positionId: number | null,
  ): Promise<{ id: number }[]> {
    return em.query<{ id: number }[]>(
      `SELECT id FROM checkin WHERE list_id = $1 AND nonce = $2 AND NOT successful
                 AND position_id IS NOT DISTINCT FROM $3`,
      [listId, nonce, positionId],
    );
  }

  /**
   * The ticket's successful scans on the list, each marked `again` when made with `nonce` (compat §3.21 nonces).
   * No lock (the redeem holds the position's row lock).
   */
  async successfulScans(
    em: EntityManager,
    positionId: number,
    listId: number,
    nonce: string | null,
  ): Promise<SuccessfulScanRow[]> {
    return em.query(
      `SELECT id, type, datetime, ($3::varchar IS NOT NULL AND nonce IS NOT DISTINCT FROM $3) AS again,
              forced, device_id, gate_id, nonce
         FROM checkin WHERE position_id = $1 AND list_id = $2 AND successful`,
      [positionId, listId, nonce],
    );
  }

  /**
   * The INSERT of a successful scan, for the audit log's one-statement change-and-entries (`recordEach`).
   * Parameters `$1..$11`: position id, event id, list id, type, datetime, forced, nonce, device number, gate id,
   * the order id (the entry's object), the entry's data (JSON). Returns `id`, `order_id`, `entry_data`; the entry's
   * data expression is {@link SCAN_ENTRY_DATA} (the logged data plus the check-in id, which the change feed keys
   * on). A repeat of a nonce already stored with a successful scan of the ticket on the list inserts nothing.
   */
  successfulScanInsert(): SqlFragment {
    return sqlFragment(`INSERT INTO checkin (position_id, event_id, list_id, type, datetime, successful, forced, nonce,
                            device_id, gate_id)
       VALUES ($1, $2, $3, $4, $5, true, $6, $7, $8, $9)
       ON CONFLICT (position_id, list_id, nonce) WHERE successful AND nonce IS NOT NULL DO NOTHING
       RETURNING id, $10::int AS order_id, $11::jsonb AS entry_data`);
  }

  /**
   * The INSERT of a refused scan, as {@link successfulScanInsert}. Parameters `$1..$14`: position id, event id,
   * list id, type, datetime, error reason, error explanation, nonce, device number, gate id, conflict (jsonb or
   * null), forced, the order id, the entry's data (JSON).
   */
  refusedScanInsert(): SqlFragment {
    return sqlFragment(`INSERT INTO checkin (position_id, event_id, list_id, type, datetime, successful, error_reason,
                            error_explanation, nonce, device_id, gate_id, conflict, forced)
       VALUES ($1, $2, $3, $4, $5, false, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (position_id, list_id, nonce) WHERE NOT successful AND nonce IS NOT NULL DO NOTHING
       RETURNING id, $13::int AS order_id, $14::jsonb AS entry_data`);
  }

  /** The latest successful scan on one of the lists with this nonce, locked `FOR UPDATE`; null when none. */
  async lockSuccessfulByNonce(
    em: EntityManager,
    listIds: readonly number[],
    nonce: string,
  ): Promise<NonceScanRow | null> {
    const rows: NonceScanRow[] = await em.query(
      `SELECT id, list_id, position_id FROM checkin WHERE list_id = ANY($1) AND nonce = $2 AND successful
          ORDER BY id DESC LIMIT 1 FOR UPDATE`,
      [listIds, nonce],
    );
    return rows[0] ?? null;
  }

  /** Takes the nonce from the failed scans of the ticket (or no ticket) on the list with it. */
  async releaseFailedNonce(
    em: EntityManager,
    listId: number,
    nonce: string,
    positionId: number | null,
  ): Promise<void> {
    await em.query(
      `UPDATE checkin SET nonce = NULL
          WHERE list_id = $1 AND nonce = $2 AND NOT successful AND position_id IS NOT DISTINCT FROM $3`,
      [listId, nonce, positionId],
    );
  }

  /**
   * Marks the scan `id` unsuccessful with reason `annulled` and the explanation, numbering the annulment in the
   * list's live stream (`annul_event_id`, from the scans' own sequence: one order for both); a scan without a device
   * takes the annulling device and gate (`deviceId`, `gateId`; a device's own scan keeps its attribution).
   */
  async annulScan(
    em: EntityManager,
    id: number,
    explanation: string,
    deviceId: number | null,
    gateId: number | null,
  ): Promise<void> {
    await em.query(
      `UPDATE checkin SET successful = false, error_reason = 'annulled', error_explanation = $2,
              gate_id = CASE WHEN device_id IS NULL THEN $4 ELSE gate_id END,
              device_id = coalesce(device_id, $3),
              annul_event_id = nextval(pg_get_serial_sequence('checkin', 'id'))
        WHERE id = $1`,
      [id, explanation, deviceId, gateId],
    );
  }

  /**
   * Offline double entry (`offline-conflict.ts`): turns the successful scans `ids` into failed `already_redeemed`
   * ones with the `conflict` (jsonb) naming the entry they lost to. A failed scan of the same ticket and list
   * holding one of their nonces gives it up first (one failed scan per ticket, list and nonce); scans that had lost
   * to one of them now name the new entry. Three statements.
   */
  async demoteToConflict(
    em: EntityManager,
    ids: readonly number[],
    explanation: string,
    conflict: object,
  ): Promise<void> {
    await em.query(
      `UPDATE checkin f SET nonce = NULL FROM checkin s
        WHERE s.id = ANY($1) AND s.nonce IS NOT NULL AND NOT f.successful AND f.nonce = s.nonce
          AND f.list_id = s.list_id AND f.position_id = s.position_id`,
      [[...ids]],
    );
    // Scans that lost to one of them lost to the new entry now.
    await em.query(
      `UPDATE checkin SET conflict = $2::jsonb
        WHERE conflict IS NOT NULL AND NOT successful AND (conflict->>'checkin_id')::int = ANY($1)`,
      [[...ids], JSON.stringify(conflict)],
    );
    await em.query(
      `UPDATE checkin SET successful = false, error_reason = 'already_redeemed', error_explanation = $2,
              conflict = $3::jsonb
        WHERE id = ANY($1)`,
      [[...ids], explanation, JSON.stringify(conflict)],
    );
  }

  /** The newest successful scan of the ticket on the list (the caller holds the position's lock); one statement. */
  async newestSuccessfulId(em: EntityManager, positionId: number, listId: number): Promise<number | null> {
    const rows: { id: number }[] = await em.query(
      `SELECT id FROM checkin WHERE position_id = $1 AND list_id = $2 AND successful ORDER BY id DESC LIMIT 1`,
      [positionId, listId],
    );
    return rows[0]?.id ?? null;
  }

  /** Every scan of the event (successful or not) with its raw data, in id order (shredder export). */
  async exportScans(em: EntityManager, eventId: number): Promise<unknown[]> {
    return em.query(
      `SELECT id, position_id, list_id, type, datetime, successful, error_reason, raw_barcode, raw_source_type
       FROM checkin WHERE event_id = $1 ORDER BY id`,
      [eventId],
    );
  }

  /** Deletes the event's failed scans (shredder). */
  async deleteFailedScans(em: EntityManager, eventId: number): Promise<void> {
    await em.query(`DELETE FROM checkin WHERE event_id = $1 AND NOT successful`, [eventId]);
  }

  /** Removes the raw barcode and source of the event's scans (shredder). */
  async dropRawScanData(em: EntityManager, eventId: number): Promise<void> {
    await em.query(`UPDATE checkin SET raw_barcode = NULL, raw_source_type = NULL WHERE event_id = $1`, [
      eventId,
    ]);
  }
}
