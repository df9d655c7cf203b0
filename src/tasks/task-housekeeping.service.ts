import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JobQueues } from './job-queues.service';
import { AsyncTaskQueries } from './async-task.queries';
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
    private readonly queries: AsyncTaskQueries = new AsyncTaskQueries(),
  ) {}

  /**
   * Marks `failed` the tasks that are `running` (or `waiting`) for longer than twice the job lock while the queue
   * has no live job for them (Bull's stalled-job handling covers the job itself; this covers a lost job).
   * @returns the ids marked failed
   */
  async failLostTasks(): Promise<string[]> {
    const candidates = await this.queries.staleCandidates(this.db.manager, 2 * this.config.jobLockMs, BATCH);
    const lost: string[] = [];
    for (const c of candidates) {
      const state = await this.queues.jobState(c.queue, c.id);
      if (state !== 'active' && state !== 'waiting' && state !== 'delayed') lost.push(c.id);
    }
    if (lost.length === 0) return [];
    const rows = await this.queries.failMany(this.db.manager, lost, WORKER_LOST);
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
    const tasks = await this.queries.purgeExpired(this.db.manager);
    const files = await this.files.purgeExpired();
    return { tasks: tasks.length, files };
  }
}
