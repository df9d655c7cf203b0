import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'crypto';
import { DataSource } from 'typeorm';
import { Principal } from '../auth/principal';
import { QUEUES } from '../tasks/queues';
import { TasksService } from '../tasks/tasks.service';
import { EXPORT_RUN } from './export-run.task';
import { nextRun, parseSchedule } from './schedule.rules';
import { DueExportRow, ScheduledExportQueries } from './scheduled-export.queries';
import { Periodic } from '../common/contributions';

/** Consecutive failures after which a schedule stops (spec "Limits"). */
export const MAX_EXPORT_FAILURES = 5;
/** Lifetime of a scheduled run's task and file: long enough for the mail's delivery retries. */
const RUN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Exports started per tick at most. */
const BATCH = 50;

/**
 * The scheduler's part of scheduled exports (worker; compat §3.7; README "Scheduled exports"): starts the due ones
 * and books the outcome of finished runs. A run is claimed under a row lock (`FOR UPDATE SKIP LOCKED`) that also
 * moves `schedule_next_run` to the next occurrence and records the run's task in `running_task_id`, so with any
 * number of workers and overlapping ticks an export runs at most once at a time and once per occurrence.
 */
@Injectable()
export class ScheduledExportRuns {
  private readonly logger = new Logger('Exports');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tasks: TasksService,
    private readonly queries: ScheduledExportQueries = new ScheduledExportQueries(),
  ) {}

  /** The periodic form of {@link startDue}: starts the exports due now. @returns how many were started */
  @Periodic('exports.start-due')
  async startDueNow(): Promise<number> {
    return (await this.startDue()).length;
  }

  /**
   * Claims the due exports (next run reached, fewer than 5 consecutive failures, no run in progress) and starts
   * an `exports.run` task for each, on behalf of its owner.
   * @returns the ids of the exports started
   */
  async startDue(now = new Date()): Promise<number[]> {
    const claimed = await this.db.transaction(async (em) => {
      const rows = await this.queries.lockDue(em, now, MAX_EXPORT_FAILURES, BATCH);
      const out: (DueExportRow & { taskId: string })[] = [];
      for (const row of rows) {
        const parsed = parseSchedule(row.schedule_rrule);
        const next =
          'rule' in parsed ? nextRun(parsed.rule, row.schedule_rrule_time, row.timezone, now) : null;
        const taskId = randomUUID();
        await this.queries.setRunning(em, row.id, next, taskId);
        out.push({ ...row, taskId });
      }
      return out;
    });
    for (const row of claimed) {
      try {
        await this.tasks.start(new Principal({ kind: 'user', userId: row.owner_id }, []), {
          id: row.taskId,
          kind: EXPORT_RUN,
          queue: QUEUES.exports,
          organizerId: row.organizer_id,
          eventId: row.event_id,
          input: { scheduled_export_id: row.id },
          ttlMs: RUN_TTL_MS,
        });
        this.logger.log(`scheduled export ${row.id}: run ${row.taskId} started`);
      } catch (err) {
        // The task row is failed (or missing): the next booking counts it as a failure.
        this.logger.warn(`scheduled export ${row.id}: run could not be queued: ${(err as Error).message}`);
      }
    }
    return claimed.map((r) => r.id);
  }

  /**
   * Books finished runs: a succeeded run resets `error_counter`, a failed, expired or lost one adds one (at 5
   * the schedule stops); either way the export is free for its next run.
   * @returns how many runs were booked
   */
  @Periodic('exports.book-finished')
  async bookFinished(): Promise<number> {
    const running = await this.queries.running(this.db.manager);
    if (running.length === 0) return 0;
    const states = await this.tasks.statesOf(running.map((r) => r.running_task_id));
    let booked = 0;
    for (const r of running) {
      const state = states.get(r.running_task_id);
      if (state === 'waiting' || state === 'running') continue;
      // The condition on running_task_id keeps a concurrent booking (another worker's tick) from counting twice.
      const done = await this.queries.book(this.db.manager, r.id, r.running_task_id, state === 'succeeded');
      if (done.length > 0) booked++;
      if (state !== 'succeeded')
        this.logger.warn(`scheduled export ${r.id}: run ${r.running_task_id} ${state ?? 'lost'}`);
    }
    return booked;
  }
}
