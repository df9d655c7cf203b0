import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JobQueues } from './job-queues.service';
import type { QueueName } from './queues';
import { returning } from './sql';
import { StoredFiles } from './stored-files.service';
import { WORKER_LOST } from './task-runner.processor';
import { Periodic } from '../common/contributions';

/** Rows examined per tick. */
const BATCH = 200;

/**
 * The scheduler's care of tasks and files: a task whose job the queue no longer has (its worker died and the
 * job was lost, or Redis lost it) is marked `failed` instead of staying `waiting`/`running` for ever; expired
 * tasks and files are deleted.
 */
@Injectable()
export class TaskHousekeeping {
  private readonly logger = new Logger('Tasks');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queues: JobQueues,
    private readonly files: StoredFiles,
    private readonly config: AppConfig,
  ) {}

  /**
   * Marks `failed` the tasks that are `running` (or `waiting`) for longer than twice the job lock while the queue
   * has no live job for them (Bull's stalled-job handling covers the job itself; this covers a lost job).
   * @returns the ids marked failed
   */
  async failLostTasks(): Promise<string[]> {
    const candidates: { id: string; queue: QueueName }[] = await this.db.query(
      `SELECT id, queue FROM async_task
        WHERE expires > now()
          AND ((state = 'running' AND started < now() - $1 * interval '1 millisecond')
            OR (state = 'waiting' AND created < now() - $1 * interval '1 millisecond'))
        ORDER BY created LIMIT $2`,
      [2 * this.config.jobLockMs, BATCH],
    );
    const lost: string[] = [];
    for (const c of candidates) {
      const state = await this.queues.jobState(c.queue, c.id);
      if (state !== 'active' && state !== 'waiting' && state !== 'delayed') lost.push(c.id);
    }
    if (lost.length === 0) return [];
    const rows = await returning<{ id: string }>(
      this.db,
      `UPDATE async_task SET state = 'failed', finished = now(), message = $2
        WHERE id = ANY($1::uuid[]) AND state IN ('waiting', 'running') RETURNING id`,
      [lost, WORKER_LOST],
    );
    for (const r of rows) this.logger.warn(`task ${r.id}: no live job in the queue, marked failed`);
    return rows.map((r) => r.id);
  }

  /**
   * The periodic form of {@link failLostTasks}: while Redis is unreachable it does nothing (the next tick checks
   * again). @returns how many tasks were marked failed
   */
  @Periodic('tasks.fail-lost')
  failLost(): Promise<number> {
    return this.failLostTasks().then(
      (ids) => ids.length,
      () => 0, // Redis unreachable: the next tick checks again.
    );
  }

  /** Deletes expired tasks and expired files. @returns how many of each */
  @Periodic('tasks.purge-expired')
  async purgeExpired(): Promise<{ tasks: number; files: number }> {
    const tasks = await returning<{ id: string }>(
      this.db,
      `DELETE FROM async_task WHERE id IN (
         SELECT id FROM async_task WHERE expires < now() ORDER BY expires LIMIT 1000 FOR UPDATE SKIP LOCKED
       ) RETURNING id`,
      [],
    );
    const files = await this.files.purgeExpired();
    return { tasks: tasks.length, files };
  }
}
