import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AsyncTask, TaskState } from './async-task.entity';
import type { QueueName } from './queues';
import { returning } from './returning.queries';

/**
 * A task claimed to run: the row as `UPDATE ... RETURNING` gives it (id, kind, input, attempts, organizerId, eventId,
 * credentialKind, credentialId, expires; the other fields are not read).
 */
export type ClaimedTask = AsyncTask;

/** The SQL of the `async_task` table (architecture.md "Async tasks"). Stateless. */
@Injectable()
export class AsyncTaskQueries {
  /** Claims a waiting or running, unexpired task to run (`running`, one more attempt, progress 0); null when not. */
  async claim(em: EntityManager, id: string): Promise<ClaimedTask | null> {
    const [task] = await returning<ClaimedTask>(
      em,
      `UPDATE async_task SET state = 'running', started = now(), attempts = attempts + 1, progress = 0
        WHERE id = $1 AND state IN ('waiting', 'running') AND expires > now()
        RETURNING id, kind, input, attempts, organizer_id AS "organizerId", event_id AS "eventId",
                  credential_kind AS "credentialKind", credential_id AS "credentialId", expires`,
      [id],
    );
    return task ?? null;
  }

  /** Marks a waiting or running task `failed` with `message` (the queue gave its job up). */
  async failUnfinished(em: EntityManager, id: string, message: string): Promise<void> {
    await em.query(
      `UPDATE async_task SET state = 'failed', finished = now(), message = $2
        WHERE id = $1 AND state IN ('waiting', 'running')`,
      [id, message],
    );
  }

  /** Sets the progress (percent) of a running task. */
  async setProgress(em: EntityManager, id: string, percent: number): Promise<void> {
    await em.query(`UPDATE async_task SET progress = $2 WHERE id = $1 AND state = 'running'`, [id, percent]);
  }

  /** Finishes a running task as `succeeded` (progress 100) or `failed`, with its message and result file. */
  async finish(
    em: EntityManager,
    id: string,
    state: 'succeeded' | 'failed',
    message: string | null,
    resultFileId: string | null,
  ): Promise<void> {
    await em.query(
      `UPDATE async_task SET state = $2::varchar, finished = now(), message = $3, result_file_id = $4,
              progress = CASE WHEN $2::varchar = 'succeeded' THEN 100 ELSE progress END
        WHERE id = $1 AND state = 'running'`,
      [id, state, message, resultFileId],
    );
  }

  /** Moves a task from state `from` to `to` (nothing when it is not in `from`). */
  async setState(em: EntityManager, id: string, from: string, to: string): Promise<void> {
    await em.query(`UPDATE async_task SET state = $3 WHERE id = $1 AND state = $2`, [id, from, to]);
  }

  /**
   * Unexpired tasks `running` since, or `waiting` since creation for, more than `olderThanMs`, oldest first, at
   * most `limit`.
   */
  async staleCandidates(
    em: EntityManager,
    olderThanMs: number,
    limit: number,
  ): Promise<{ id: string; queue: QueueName }[]> {
    return em.query(
      `SELECT id, queue FROM async_task
        WHERE expires > now()
          AND ((state = 'running' AND started < now() - $1 * interval '1 millisecond')
            OR (state = 'waiting' AND created < now() - $1 * interval '1 millisecond'))
        ORDER BY created LIMIT $2`,
      [olderThanMs, limit],
    );
  }

  /** Marks these waiting or running tasks `failed` with `message`. @returns the ids it changed */
  async failMany(em: EntityManager, ids: readonly string[], message: string): Promise<{ id: string }[]> {
    return returning<{ id: string }>(
      em,
      `UPDATE async_task SET state = 'failed', finished = now(), message = $2
        WHERE id = ANY($1::uuid[]) AND state IN ('waiting', 'running') RETURNING id`,
      [ids, message],
    );
  }

  /** Deletes up to 1000 expired tasks, skipping rows another worker holds (`FOR UPDATE SKIP LOCKED`). */
  async purgeExpired(em: EntityManager): Promise<{ id: string }[]> {
    return returning<{ id: string }>(
      em,
      `DELETE FROM async_task WHERE id IN (
         SELECT id FROM async_task WHERE expires < now() ORDER BY expires LIMIT 1000 FOR UPDATE SKIP LOCKED
       ) RETURNING id`,
      [],
    );
  }

  /** The states of these unexpired tasks (valid UUIDs only). */
  async states(em: EntityManager, ids: readonly string[]): Promise<{ id: string; state: TaskState }[]> {
    return em.query('SELECT id, state FROM async_task WHERE id = ANY($1::uuid[]) AND expires > now()', [ids]);
  }

  /** The unexpired task `id` started by this credential, or null. */
  findOfCredential(
    em: EntityManager,
    id: string,
    credential: { kind: string; id: number },
  ): Promise<AsyncTask | null> {
    return em
      .getRepository(AsyncTask)
      .createQueryBuilder('t')
      .where('t.id = :id AND t.credential_kind = :kind AND t.credential_id = :cid AND t.expires > now()', {
        id,
        kind: credential.kind,
        cid: credential.id,
      })
      .getOne();
  }

  /**
   * Locks the task row `id` of kind `kind` (`FOR UPDATE`, until the caller's transaction ends) and gives its
   * result file id: null when the task is unknown or has no file.
   */
  async lockResultFile(em: EntityManager, id: string, kind: string): Promise<string | null> {
    const rows: { result_file_id: string | null }[] = await em.query(
      'SELECT result_file_id FROM async_task WHERE id = $1 AND kind = $2 FOR UPDATE',
      [id, kind],
    );
    return rows[0]?.result_file_id ?? null;
  }
}
