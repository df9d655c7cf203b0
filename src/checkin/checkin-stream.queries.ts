import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** One entry of a list's live stream as stored: a successful scan (`checkin`) or the annulment of one. */
export interface StreamEntryRow {
  /** The entry's number: the scan's id, or the annulment's `annul_event_id` (one sequence). */
  seq: number;
  kind: 'checkin' | 'annulment';
  checkin_id: number;
  list_id: number;
  event_id: number | null;
  position_id: number;
  type: 'entry' | 'exit';
  datetime: Date;
  forced: boolean;
  auto_checked_in: boolean;
  /** The scanning device's number and its gate (null for team and OAuth tokens). */
  device_id: number | null;
  gate_id: number | null;
}

const SCAN_COLUMNS = `list_id, event_id, position_id, type, datetime, forced, auto_checked_in, device_id, gate_id`;
/** Scans that were successful when stored (annulled ones included: their check-in happened). */
const WAS_SUCCESSFUL = `(successful OR annul_event_id IS NOT NULL) AND position_id IS NOT NULL AND list_id IS NOT NULL`;

/**
 * The statements of the live check-in stream (`E/checkinlists/{list}/stream/`) on the check-in context's own
 * table `checkin`. Stateless; no locks.
 */
@Injectable()
export class CheckinStreamQueries {
  /** The successful scans with these ids, as stream entries (one statement). */
  checkins(em: EntityManager, ids: readonly number[]): Promise<StreamEntryRow[]> {
    return em.query(
      `SELECT id AS seq, 'checkin' AS kind, id AS checkin_id, ${SCAN_COLUMNS}
         FROM checkin WHERE id = ANY($1) AND ${WAS_SUCCESSFUL} ORDER BY id`,
      [[...ids]],
    );
  }

  /**
   * For each `(list, position, after)`, the ticket's successful scans on the list numbered above `after` (one
   * statement).
   */
  scansAfter(
    em: EntityManager,
    scans: readonly { listId: number; positionId: number; afterId: number }[],
  ): Promise<StreamEntryRow[]> {
    return em.query(
      `SELECT DISTINCT c.id AS seq, 'checkin' AS kind, c.id AS checkin_id, c.list_id, c.event_id, c.position_id,
              c.type, c.datetime, c.forced, c.auto_checked_in, c.device_id, c.gate_id
         FROM unnest($1::int[], $2::int[], $3::int[]) AS x(list_id, position_id, after_id)
         JOIN checkin c ON c.list_id = x.list_id AND c.position_id = x.position_id AND c.id > x.after_id
        WHERE (c.successful OR c.annul_event_id IS NOT NULL)
        ORDER BY c.id`,
      [scans.map((x) => x.listId), scans.map((x) => x.positionId), scans.map((x) => x.afterId)],
    );
  }

  /** The annulment of the scan `checkinId`, if it is annulled (one statement). */
  annulment(em: EntityManager, checkinId: number): Promise<StreamEntryRow[]> {
    return em.query(
      `SELECT annul_event_id AS seq, 'annulment' AS kind, id AS checkin_id, ${SCAN_COLUMNS}
         FROM checkin WHERE id = $1 AND annul_event_id IS NOT NULL AND position_id IS NOT NULL AND list_id IS NOT NULL`,
      [checkinId],
    );
  }

  /**
   * The list's entries numbered above `afterSeq`, in number order, at most `limit` (one statement; the indexes
   * `ix_checkin_list_id`, `ix_checkin_list_annul_event`).
   */
  after(em: EntityManager, listId: number, afterSeq: number, limit: number): Promise<StreamEntryRow[]> {
    return em.query(
      `SELECT * FROM (
         (SELECT id AS seq, 'checkin' AS kind, id AS checkin_id, ${SCAN_COLUMNS}
            FROM checkin WHERE list_id = $1 AND id > $2 AND ${WAS_SUCCESSFUL} ORDER BY id LIMIT $3)
         UNION ALL
         (SELECT annul_event_id, 'annulment', id, ${SCAN_COLUMNS}
            FROM checkin WHERE list_id = $1 AND annul_event_id > $2 AND position_id IS NOT NULL
           ORDER BY annul_event_id LIMIT $3)
       ) e ORDER BY seq LIMIT $3`,
      [listId, afterSeq, limit],
    );
  }

  /** The highest number the scans' sequence has handed out (0 before the first scan); one statement. */
  async lastAllocated(em: EntityManager): Promise<number> {
    const rows: { last: number | null }[] = await em.query(
      `SELECT pg_sequence_last_value(pg_get_serial_sequence('checkin', 'id'))::int AS last`,
    );
    return rows[0]?.last ?? 0;
  }

  /** Whether the list `listId` is of the event (one statement). */
  async listOfEvent(em: EntityManager, eventId: number, listId: number): Promise<boolean> {
    const rows: unknown[] = await em.query('SELECT 1 FROM checkin_list WHERE id = $1 AND event_id = $2', [
      listId,
      eventId,
    ]);
    return rows.length > 0;
  }
}
