import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AsyncTaskQueries, ClaimedTask } from './async-task.queries';
import { GiveUp, JobProcessor, ProcessesQueue, QueuedJob } from './job';
import { TASK_QUEUES } from './queues';
import { StoredFiles } from './stored-files.service';
import { TaskContext, TaskError, TaskExecutor } from './task-executor';
import { discoverTaskExecutors } from './task-kinds';

/** Message of a task whose worker died twice, or whose job the queue lost (shown to clients). */
export const WORKER_LOST = 'The worker running this task stopped; the task was not completed.';
const INTERNAL = 'Internal error';

/**
 * Runs the jobs of the task queues (worker only): claims the `async_task` row (`waiting`/`running` -> `running`),
 * runs the executor of its kind and records `succeeded` or `failed`, rethrowing failures so the queue records the
 * attempt (style.md "Background jobs"). A row that is finished, expired or unknown is left alone (duplicate or
 * stale job).
 */
@Injectable()
@ProcessesQueue(...TASK_QUEUES)
export class TaskRunner implements JobProcessor, OnModuleInit {
  private readonly logger = new Logger('Tasks');
  private executors = new Map<string, TaskExecutor>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly files: StoredFiles,
    private readonly discovery: DiscoveryService,
    private readonly queries: AsyncTaskQueries,
  ) {}

  /** Finds the executors (the boot check: @throws ContributionError for a missing or duplicated one). */
  onModuleInit(): void {
    this.executors = discoverTaskExecutors(this.discovery);
  }

  async process(job: QueuedJob): Promise<{ state: string }> {
    const taskId = String(job.data.taskId);
    const task = await this.queries.claim(this.db.manager, taskId);
    if (!task) return { state: 'skipped' };
    this.logger.debug(`task ${taskId} (${task.kind}) running, attempt ${task.attempts}`);
    const executor = this.executors.get(task.kind);
    if (!executor) {
      await this.finish(taskId, 'failed', { message: INTERNAL });
      throw new GiveUp(`no executor for task kind ${task.kind}`);
    }
    try {
      const outcome = await executor.run(task, this.context(task));
      await this.finish(taskId, 'succeeded', outcome);
      return { state: 'succeeded' };
    } catch (err) {
      const message = err instanceof TaskError ? err.message : INTERNAL;
      if (!(err instanceof TaskError))
        this.logger.error(`task ${taskId} (${task.kind}): ${(err as Error).stack}`);
      if (job.attemptsMade + 1 >= job.attempts) await this.finish(taskId, 'failed', { message });
      else await this.setState(taskId, 'running', 'waiting');
      throw err;
    }
  }

  /** The queue gave the job up (stalled twice: its worker died): the task must not stay `running`. */
  async onFailed(job: QueuedJob, error: Error): Promise<void> {
    const stalled = /stalled/i.test(error.message);
    await this.queries.failUnfinished(
      this.db.manager,
      String(job.data.taskId),
      stalled ? WORKER_LOST : INTERNAL,
    );
  }

  /** A shutting-down worker gave the job back: the task waits for the next worker. */
  async onReturned(job: QueuedJob): Promise<void> {
    await this.setState(String(job.data.taskId), 'running', 'waiting');
  }

  private context(task: ClaimedTask): TaskContext {
    return {
      progress: async (percent) => {
        await this.queries.setProgress(
          this.db.manager,
          task.id,
          Math.max(0, Math.min(100, Math.round(percent))),
        );
      },
      storeFile: (file) =>
        this.files.store({
          ...file,
          taskId: task.id,
          expires: file.expires === undefined ? task.expires : file.expires,
        }),
      writeFile: (file, produce) =>
        this.files.write(
          { ...file, taskId: task.id, expires: file.expires === undefined ? task.expires : file.expires },
          produce,
        ),
    };
  }

  private async finish(
    id: string,
    state: 'succeeded' | 'failed',
    outcome: { message?: string | null; resultFileId?: string | null },
  ): Promise<void> {
    await this.queries.finish(
      this.db.manager,
      id,
      state,
      outcome.message ?? null,
      outcome.resultFileId ?? null,
    );
  }

  private async setState(id: string, from: string, to: string): Promise<void> {
    await this.queries.setState(this.db.manager, id, from, to);
  }
}
