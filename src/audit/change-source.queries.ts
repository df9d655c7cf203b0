import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** One settled audit log entry as the change feed's sequencer reads it. */
export interface SettledEntryRow {
  id: string;
  xid: string;
  organizer_id: number;
  event_id: number | null;
  content_type: string;
  object_id: number | null;
  action_type: string;
  data: Record<string, unknown> | null;
  datetime: Date;
}

/**
 * The SQL of the change feed's source (issue 27 §1; architecture.md "Change feed order"): audit log entries in
 * `(xid, id)` order, only those written by transactions that have ended. Stateless, runs on the caller's `em`.
 */
@Injectable()
export class ChangeSourceQueries {
  /**
   * Up to `limit` entries after the position `(afterXid, afterId)` in `(xid, id)` order whose transaction id is
   * below the oldest transaction still running (`pg_snapshot_xmin(pg_current_snapshot())`): every transaction
   * below it has committed or rolled back, so no entry can later appear before the last one returned. One
   * statement (index `ix_log_entry_xid`).
   */
  settledAfter(em: EntityManager, afterXid: string, afterId: string, limit: number): Promise<SettledEntryRow[]> {
    return em.query(
      `SELECT l.id::text AS id, l.xid::text AS xid, l.organizer_id, l.event_id, l.content_type, l.object_id,
              l.action_type, l.data, l.datetime
         FROM log_entry l
        WHERE (l.xid, l.id) > ($1::bigint, $2::bigint)
          AND l.xid < (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint
        ORDER BY l.xid, l.id
        LIMIT $3`,
      [afterXid, afterId, limit],
    );
  }
}
