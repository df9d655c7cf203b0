import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A list whose `exit_all_at` has passed. */
export interface DueExitListRow {
  id: number;
  event_id: number;
  exit_all_at: Date;
}

/**
 * The SQL of the automatic check-out ({@link ExitAll}; spec "Check-in list" `exit_all_at`, compat §3.20). Stateless;
 * every method runs in the caller's `em` (the transaction of one list, whose row {@link lockDueExitList} locks).
 */
@Injectable()
export class ExitAllQueries {
  /** The next list whose `exit_all_at` is at or before `now`, locked `FOR UPDATE SKIP LOCKED`; null when none. */
  async lockDueExitList(em: EntityManager, now: Date): Promise<DueExitListRow | null> {
    const due: DueExitListRow[] = await em.query(
      `SELECT id, event_id, exit_all_at FROM checkin_list WHERE exit_all_at <= $1
            ORDER BY exit_all_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [now],
    );
    return due[0] ?? null;
  }

  /**
   * Inserts an automatic exit at `at` for every ticket whose last successful scan on the list up to `at` is an
   * entry. @returns the ids of the exits written
   */
  async insertAutomaticExits(
    em: EntityManager,
    listId: number,
    eventId: number,
    at: Date,
  ): Promise<number[]> {
    const written: { id: number }[] = await em.query(
      `INSERT INTO checkin (position_id, event_id, list_id, type, datetime, successful, auto_checked_in)
           SELECT last.position_id, $2, $1, 'exit', $3, true, true
             FROM (SELECT DISTINCT ON (c.position_id) c.position_id, c.type
                     FROM checkin c
                    WHERE c.list_id = $1 AND c.successful AND c.position_id IS NOT NULL AND c.datetime <= $3
                    ORDER BY c.position_id, c.datetime DESC, c.id DESC) last
            WHERE last.type = 'entry'
           RETURNING id`,
      [listId, eventId, at],
    );
    return written.map((r) => r.id);
  }

  /** Moves the list's `exit_all_at` one day on (its `last_modified` untouched). */
  async postponeExitAll(em: EntityManager, listId: number): Promise<void> {
    await em.query(`UPDATE checkin_list SET exit_all_at = exit_all_at + interval '1 day' WHERE id = $1`, [
      listId,
    ]);
  }
}
