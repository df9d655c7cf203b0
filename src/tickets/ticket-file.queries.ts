import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { returning } from '../tasks/returning.queries';
import type { TicketScope } from './ticket-file.entity';

/** A ticket cache row as the download reads it. */
export interface TicketFileRow {
  content_key: string;
  task_id: string | null;
  file_id: string | null;
}

/** Where a ticket file belongs: scope, target id and output. */
export interface TicketTarget {
  scope: TicketScope;
  targetId: number;
  output: string;
}

/** The SQL of the `ticket_file` cache (tickets context). Stateless; every method runs on the caller's `em`. */
@Injectable()
export class TicketFileQueries {
  /** The cache row of the target, or null. */
  async find(em: EntityManager, t: TicketTarget): Promise<TicketFileRow | null> {
    const rows: TicketFileRow[] = await em.query(
      `SELECT content_key, task_id, file_id FROM ticket_file WHERE scope = $1 AND target_id = $2 AND output = $3`,
      [t.scope, t.targetId, t.output],
    );
    return rows[0] ?? null;
  }

  /**
   * Points the target's row at a new render (`key`, `taskId`, no file yet), unless another request did so since
   * this one read the row (compare-and-set on the task id it saw, `seenTaskId`; null: it saw no row or no task).
   * @returns whether this call won, and the file the row had before (to delete)
   */
  async claim(
    em: EntityManager,
    t: TicketTarget & { eventId: number; key: string; taskId: string; seenTaskId: string | null },
  ): Promise<{ won: boolean; oldFileId: string | null }> {
    const rows: { old_file_id: string | null }[] = await em.query(
      `WITH old AS (SELECT file_id FROM ticket_file WHERE scope = $2 AND target_id = $3 AND output = $4)
       INSERT INTO ticket_file (event_id, scope, target_id, output, content_key, task_id, file_id, updated)
       VALUES ($1, $2, $3, $4, $5, $6, NULL, now())
       ON CONFLICT (scope, target_id, output) DO UPDATE
         SET content_key = EXCLUDED.content_key, task_id = EXCLUDED.task_id, file_id = NULL, updated = now()
         WHERE ticket_file.task_id IS NOT DISTINCT FROM $7::uuid
       RETURNING (SELECT file_id FROM old) AS old_file_id`,
      [t.eventId, t.scope, t.targetId, t.output, t.key, t.taskId, t.seenTaskId],
    );
    return { won: rows.length > 0, oldFileId: rows[0]?.old_file_id ?? null };
  }

  /**
   * Records the stored file of the render `taskId`, only while the row still waits for that render.
   * @returns false when the row moved on to another render (the file is stale)
   */
  async attach(em: EntityManager, t: TicketTarget, taskId: string, fileId: string): Promise<boolean> {
    const rows = await returning<{ id: number }>(
      em,
      `UPDATE ticket_file SET file_id = $5, updated = now()
        WHERE scope = $1 AND target_id = $2 AND output = $3 AND task_id = $4 RETURNING id`,
      [t.scope, t.targetId, t.output, taskId, fileId],
    );
    return rows.length > 0;
  }

  /** Deletes every cache row of the event (shredding). @returns the ids of their stored files */
  async dropOfEvent(em: EntityManager, eventId: number): Promise<string[]> {
    const rows = await returning<{ file_id: string | null }>(
      em,
      `DELETE FROM ticket_file WHERE event_id = $1 RETURNING file_id`,
      [eventId],
    );
    return rows.flatMap((r) => (r.file_id ? [r.file_id] : []));
  }
}
