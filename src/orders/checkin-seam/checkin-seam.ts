import type { EntityManager } from 'typeorm';

/**
 * SEAM to the check-in context. The `checkin` table belongs to `checkin/`, which sits above orders (it redeems
 * order positions) and does not exist as a module yet (only its entity). Until it does, the two things orders
 * needs from it are read here, and nowhere else in `orders/`:
 * - the last successful scan of a position (exits free places on quotas with `release_after_exit`), as SQL
 *   conditions the consistency check of the maintained counts embeds (`QuotaCountCheck`; the counts themselves
 *   are kept by database triggers on `checkin`, migration `ProductSalesCounts`);
 * - the successful check-ins of positions, for the order presentation.
 * When `checkin/` arrives it takes this file over: exits then move the maintained exit counts of issue 7 through
 * an orders service, and the presentation asks a port that `checkin/` provides. The table-ownership test lists
 * this file as the one seam (test/table-ownership.spec.ts).
 */

/** SQL condition: the last successful scan of the order position `alias.id` was an exit (NULL without scans). */
export function lastScanIsExit(alias: string): string {
  return `(SELECT c.type FROM checkin c WHERE c.position_id = ${alias}.id AND c.successful
            ORDER BY c.datetime DESC, c.id DESC LIMIT 1) = 'exit'`;
}

/** SQL condition: the order position `alias.id` has an exit scan at all (cheap pre-filter). */
export function hasExitScan(alias: string): string {
  return `EXISTS (SELECT 1 FROM checkin c WHERE c.position_id = ${alias}.id AND c.type = 'exit')`;
}

/** A successful scan of a position. */
export interface CheckinRow {
  id: number;
  position_id: number;
  list_id: number | null;
  type: string;
  datetime: Date;
}

/** Successful check-ins of positions, by time (one statement). */
export async function successfulCheckins(
  em: EntityManager,
  positionIds: readonly number[],
): Promise<CheckinRow[]> {
  return em.query(
    `SELECT id, position_id, list_id, type, datetime FROM checkin
      WHERE position_id = ANY($1) AND successful ORDER BY datetime, id`,
    [[...positionIds]],
  );
}

/**
 * Scalar subquery: the successful check-ins of the position whose id is the SQL expression `positionId`, by time,
 * as a JSON array of `[id, list_id, type, datetime, auto_checked_in]` (for one-statement list pages of orders and
 * positions); with `listIds` only those of that list or lists (the check-in positions of a list, compat §3.21).
 */
export function checkinsSql(positionId: string, listIds?: number | readonly number[]): string {
  const ids = listIds === undefined ? [] : typeof listIds === 'number' ? [listIds] : listIds;
  const list =
    listIds === undefined
      ? ''
      : ` AND c.list_id IN (${ids.map((id) => String(Math.trunc(id))).join(', ') || 'NULL'})`;
  return `(SELECT coalesce(jsonb_agg(jsonb_build_array(c.id, c.list_id, c.type, c.datetime, c.auto_checked_in)
      ORDER BY c.datetime, c.id), '[]'::jsonb) FROM checkin c WHERE c.position_id = ${positionId} AND c.successful${list})`;
}
