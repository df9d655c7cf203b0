import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { returning } from '../tasks/returning.queries';
import { ScheduledExport } from './scheduled-export.entity';

/** A due scheduled export as the run starter reads it. */
export interface DueExportRow {
  id: number;
  organizer_id: number;
  event_id: number | null;
  owner_id: number;
  schedule_rrule: string;
  schedule_rrule_time: string;
  timezone: string;
}

/** The SQL of the `scheduled_export` table (spec "Scheduled export"; compat §3.7). Stateless. */
@Injectable()
export class ScheduledExportQueries {
  /**
   * Locks the due exports (next run reached by `now`, fewer than `maxFailures` consecutive failures, no run in
   * progress), at most `limit`, skipping rows another worker holds (`FOR UPDATE SKIP LOCKED`).
   */
  lockDue(em: EntityManager, now: Date, maxFailures: number, limit: number): Promise<DueExportRow[]> {
    return em.query(
      `SELECT id, organizer_id, event_id, owner_id, schedule_rrule, schedule_rrule_time::text, timezone
           FROM scheduled_export
          WHERE schedule_next_run <= $1 AND error_counter < $2 AND running_task_id IS NULL
          ORDER BY schedule_next_run, id LIMIT $3 FOR UPDATE SKIP LOCKED`,
      [now, maxFailures, limit],
    );
  }

  /** Records a started run: the next run time and the run's task id. */
  async setRunning(em: EntityManager, id: number, next: Date | null, taskId: string): Promise<void> {
    await em.query(`UPDATE scheduled_export SET schedule_next_run = $2, running_task_id = $3 WHERE id = $1`, [
      id,
      next,
      taskId,
    ]);
  }

  /** Up to 500 exports with a run in progress, by id. */
  running(em: EntityManager): Promise<{ id: number; running_task_id: string }[]> {
    return em.query(
      'SELECT id, running_task_id FROM scheduled_export WHERE running_task_id IS NOT NULL ORDER BY id LIMIT 500',
    );
  }

  /**
   * Books the finished run `taskId` of export `id`: resets the failure counter when it succeeded, else adds one,
   * and frees the export; nothing when another booking came first. @returns the row when it was booked
   */
  book(em: EntityManager, id: number, taskId: string, succeeded: boolean): Promise<{ id: number }[]> {
    return returning<{ id: number }>(
      em,
      `UPDATE scheduled_export
            SET error_counter = CASE WHEN $3 THEN 0 ELSE error_counter + 1 END, running_task_id = NULL
          WHERE id = $1 AND running_task_id = $2 RETURNING id`,
      [id, taskId, succeeded],
    );
  }

  /**
   * The list query of the scheduled exports of an organizer (`eventId` null: its organizer-level ones) or of an
   * event, optionally of one owner; the caller adds the ordering and the page.
   */
  listQuery(
    em: EntityManager,
    organizerId: number,
    eventId: number | null,
    ownerId: number | null,
  ): SelectQueryBuilder<ScheduledExport> {
    const qb = em
      .getRepository(ScheduledExport)
      .createQueryBuilder('s')
      .where('s.organizer_id = :org', { org: organizerId });
    if (eventId !== null) qb.andWhere('s.event_id = :event', { event: eventId });
    else qb.andWhere('s.event_id IS NULL');
    if (ownerId !== null) qb.andWhere('s.owner_id = :owner', { owner: ownerId });
    return qb;
  }
}
