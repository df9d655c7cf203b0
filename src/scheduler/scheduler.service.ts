import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { JobQueues } from '../tasks/job-queues.service';
import { QUEUES } from '../tasks/queues';
import { QUOTA_CHECK, SCHEDULER_TICK } from './scheduler.processor';

/** Id of the repeatable tick in the scheduler queue (one per queue prefix, whatever the number of workers). */
export const SCHEDULER_ID = 'scheduler-tick';
/** Id of the repeatable consistency check of the quota counts (every `QUOTA_CHECK_INTERVAL_MS`). */
export const QUOTA_CHECK_ID = 'quota-check';

/**
 * Keeps the scheduler's repeatable jobs in Redis (worker only): the tick, and the consistency check of the quota
 * counts unless `QUOTA_CHECK_INTERVAL_MS` is 0. Registers them at boot and checks every
 * `SCHEDULER_WATCH_MS` that it is still there, re-creating it (and logging so) when Redis came back empty after
 * a restart or a flush. While Redis is down the check fails quietly and the next one tries again.
 */
@Injectable()
export class SchedulerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Scheduler');
  private timer: NodeJS.Timeout | undefined;
  private registered = false;
  private checking = false;

  constructor(
    private readonly queues: JobQueues,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), this.config.schedulerWatchMs);
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Makes sure the tick exists; @returns whether it had to be (re-)created */
  async check(): Promise<boolean> {
    if (this.checking) return false;
    this.checking = true;
    try {
      const existed = await this.queues.ensureRepeating(
        QUEUES.scheduler,
        SCHEDULER_ID,
        SCHEDULER_TICK,
        this.config.schedulerIntervalMs,
      );
      if (!existed && this.registered) {
        this.logger.warn(
          `the scheduler's repeatable tick was missing from Redis (restarted empty or flushed): re-created`,
        );
      } else if (!existed) {
        this.logger.log(`scheduler tick registered: every ${this.config.schedulerIntervalMs} ms`);
      }
      if (this.config.quotaCheckIntervalMs > 0) {
        await this.queues.ensureRepeating(
          QUEUES.scheduler,
          QUOTA_CHECK_ID,
          QUOTA_CHECK,
          this.config.quotaCheckIntervalMs,
        );
      }
      this.registered = true;
      return !existed;
    } catch (err) {
      this.logger.warn(`scheduler tick check failed (Redis unavailable?): ${(err as Error).message}`);
      return false;
    } finally {
      this.checking = false;
    }
  }
}
