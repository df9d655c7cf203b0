import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'crypto';
import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { Principal } from '../auth/principal';
import { NotFound, TaskFailed, TaskNotReady } from '../common/errors';
import { AsyncTask, TaskState } from './async-task.entity';
import { AsyncTaskQueries } from './async-task.queries';
import { JobQueues } from './job-queues.service';
import { credentialOf } from './principal-credential';
import type { QueueName } from './queues';
import { isUuid } from './stored-files.service';

/** Default lifetime of a task row (and of its result file). */
export const TASK_TTL_MS = 24 * 60 * 60 * 1000;

/** A task to start. */
export interface NewTask {
  /** The task's id (a random UUID); generated when absent. */
  id?: string;
  kind: string;
  queue: QueueName;
  organizerId?: number | null;
  eventId?: number | null;
  input?: Record<string, unknown>;
  /** Lifetime in milliseconds (default one day). */
  ttlMs?: number;
}

/**
 * Which domain error a poll raises for a task it cannot show (spec "Shredders"; style.md "Errors": no HTTP codes
 * here, the exception filter maps the errors).
 */
export interface PollAnswers {
  /** Unknown, expired or another credential's task: `NotFound` (`not-found`) or `TaskFailed` state `gone`. */
  missing: 'not-found' | 'gone';
  /** What a failed task was: a shred run (`shred`) or any other task (`task`); see {@link TaskFailed}. */
  failed: 'shred' | 'task';
}

/** Seconds a client should wait before polling again (spec: "retry after at least one second"). */
export const POLL_RETRY_AFTER = 1;

/**
 * Async tasks (architecture.md "Async tasks"): creates the `async_task` row with its queue job, and answers polls
 * from the row alone.
 */
@Injectable()
export class TasksService {
  private readonly logger = new Logger('Tasks');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queues: JobQueues,
    private readonly queries: AsyncTaskQueries,
  ) {}

  /**
   * Creates a task (state `waiting`) bound to the principal's credential and enqueues its job (job id = task id).
   * When the queue is unreachable the row is marked `failed` ("could not be queued") and the caller gets 503.
   * @throws ServiceUnavailable (503 with `Retry-After`) when Redis does not answer within `QUEUE_TIMEOUT_MS`
   */
  async start(principal: Principal, task: NewTask): Promise<AsyncTask> {
    const credential = credentialOf(principal);
    const row = this.db.getRepository(AsyncTask).create({
      id: task.id ?? randomUUID(),
      kind: task.kind,
      queue: task.queue,
      credentialKind: credential.kind,
      credentialId: credential.id,
      organizerId: task.organizerId ?? null,
      eventId: task.eventId ?? null,
      state: 'waiting',
      input: task.input ?? {},
      expires: new Date(Date.now() + (task.ttlMs ?? TASK_TTL_MS)),
    });
    await this.db.getRepository(AsyncTask).insert(row as QueryDeepPartialEntity<AsyncTask>);
    try {
      await this.queues.enqueue(task.queue, task.kind, { taskId: row.id }, { jobId: row.id });
    } catch (err) {
      await this.db
        .getRepository(AsyncTask)
        .update(
          { id: row.id, state: 'waiting' },
          { state: 'failed', message: 'The task could not be queued.', finished: new Date() },
        );
      throw err;
    }
    this.logger.debug(`task ${row.id} (${row.kind}) queued`);
    return row;
  }

  /**
   * The one poll helper of the 202/409/410/417 endpoints: the succeeded task of this credential, or the error
   * that answers for it.
   * @throws TaskNotReady 409 `{"status": "waiting"|"running"}` with `Retry-After: 1`
   * @throws TaskFailed `failed` (of the kind `answers.failed` names) for a failed task
   * @throws NotFound or TaskFailed `gone` (as `answers.missing` says) for an unknown, expired or foreign task
   */
  async poll(id: string, principal: Principal, answers: PollAnswers): Promise<AsyncTask> {
    const task = await this.find(id, principal);
    if (!task) {
      if (answers.missing === 'not-found') throw new NotFound();
      throw new TaskFailed('May have succeeded or timed out.', 'gone');
    }
    if (task.state === 'waiting' || task.state === 'running')
      throw new TaskNotReady(task.state, POLL_RETRY_AFTER);
    if (task.state === 'failed')
      throw new TaskFailed(task.message ?? 'Internal error', 'failed', answers.failed);
    return task;
  }

  /** States of tasks by id; unknown or expired ids are absent. One statement. */
  async statesOf(ids: readonly string[]): Promise<Map<string, TaskState>> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return new Map();
    const rows = await this.queries.states(this.db.manager, valid);
    return new Map(rows.map((r) => [r.id, r.state]));
  }

  /** The live (unexpired) task with this id started by this principal's credential, or null. */
  async find(id: string, principal: Principal): Promise<AsyncTask | null> {
    if (!isUuid(id)) return null;
    const credential = credentialOf(principal);
    return this.queries.findOfCredential(this.db.manager, id, credential);
  }
}
