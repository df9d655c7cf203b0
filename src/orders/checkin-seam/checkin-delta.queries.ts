import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SqlFragment } from '../../common/persistence/sql-fragment';
import { PositionBlockingQueries } from '../blocking/position-blocking.queries';

/**
 * What the check-in context passes to name the positions whose scans on the list changed in `[lo, hi)` (its own
 * `checkin` rows): a fragment SELECT yielding column `id`, built from the SQL bigint expressions `lo` and `hi`.
 */
export type ChangedScans = (lo: string, hi: string) => SqlFragment;

/** The window of one delta page: stamps in `[lo, hi)` (`hi` null: now's watermark), positions above `after`. */
export interface DeltaWindow {
  /** Lower change stamp, inclusive (decimal bigint). */
  lo: string;
  /** Upper change stamp, exclusive (decimal bigint); null: take the watermark now. */
  hi: string | null;
  /** Only positions with a greater id (keyset of the pages of one delta). */
  after: number;
  /** Positions per page. */
  size: number;
  /** Also the secrets revoked or (un)blocked in the window (the first page of a delta). */
  withSecrets: boolean;
}

/** The frame of one delta page: its upper stamp, the changed positions' ids, the changed secrets. */
export interface DeltaFrame {
  /** The window's upper stamp (decimal bigint): the watermark taken now, or the window's own. */
  hi: string;
  /** Ids of the changed positions of the page, ascending, at most `size + 1` (one more: there is a next page). */
  ids: number[];
  /** How many positions changed in the window (all pages of the delta). */
  count: number;
  /** Secrets revoked in the window (with `withSecrets`; else empty). */
  revoked: string[];
  /** Secrets blocked or unblocked in the window (with `withSecrets`; else empty). */
  blocked: { secret: string; blocked: boolean }[];
}

/**
 * The delta statement of the scanners' sync (README "Delta sync for scanners"; architecture.md "Change feed
 * order"): the watermark (`pg_snapshot_xmin(pg_current_snapshot())`: every transaction with a smaller id has
 * ended, so every change stamped below it is visible and none can still appear), the event's positions stamped in
 * the window (`order_position.changed_xid`, index `ix_order_position_event_changed`) together with those whose
 * scans on the list changed (the check-in context's fragment), and the changed secrets (the blocking module's
 * fragment), all in one statement.
 */
@Injectable()
export class CheckinDeltaFrameQueries {
  /** One statement, no lock. */
  async frame(
    em: EntityManager,
    eventId: number,
    window: DeltaWindow,
    changedScans: ChangedScans,
  ): Promise<DeltaFrame> {
    const lo = '$1::bigint';
    const hi = '(SELECT hi FROM w)';
    const secrets = window.withSecrets
      ? PositionBlockingQueries.changedSecrets(eventId, lo, hi)
      : `'{"revoked": [], "blocked": []}'::jsonb`;
    const rows: {
      hi: string;
      ids: number[];
      count: number;
      secrets: Pick<DeltaFrame, 'revoked' | 'blocked'>;
    }[] = await em.query(
      `WITH w AS (SELECT coalesce($2::bigint, pg_snapshot_xmin(pg_current_snapshot())::text::bigint) AS hi),
          changed AS (
            SELECT p.id FROM order_position p
             WHERE p.event_id = $3 AND p.changed_xid >= ${lo} AND p.changed_xid < ${hi}
            UNION
            SELECT s.id FROM (${changedScans(lo, hi)}) s)
        SELECT (SELECT hi FROM w)::text AS hi, ARRAY(SELECT id FROM changed WHERE id > $4 ORDER BY id LIMIT $5) AS ids,
               (SELECT count(*) FROM changed)::int AS count, ${secrets} AS secrets`,
      [window.lo, window.hi, eventId, window.after, window.size + 1],
    );
    const row = rows[0];
    return { hi: row.hi, ids: row.ids.map(Number), count: row.count, ...row.secrets };
  }
}
