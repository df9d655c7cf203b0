import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { purgeExpiredIdempotencyRecords } from '../common/http/idempotency';
import { purgeExpiredCartPositions } from '../orders/cart-expiry';
import type { Job } from 'bull';
import { QUEUES } from '../queues';

export const SCHEDULER_TICK = 'tick';

/**
 * The `scheduler` queue's repeatable job, once a minute (architecture.md "Processes"): purges expired idempotency
 * records and expired cart positions (every cart, web shop ones included). Later issues plug their periodic work
 * in here (due exports and mails, check-in list exits).
 */
@Processor(QUEUES.scheduler)
export class SchedulerProcessor {
  private readonly logger = new Logger('Scheduler');

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @Process(SCHEDULER_TICK)
  async tick(job: Job): Promise<{ at: string; cartPositionsPurged: number }> {
    const at = new Date().toISOString();
    const purged = await purgeExpiredIdempotencyRecords(this.db);
    const cartPositionsPurged = await purgeExpiredCartPositions(this.db);
    this.logger.debug(
      `tick ${String(job.id)} at ${at}: ${purged} expired idempotency records, ` +
        `${cartPositionsPurged} expired cart positions purged`,
    );
    return { at, cartPositionsPurged };
  }

  @OnQueueFailed()
  failed(job: Job, err: Error): void {
    this.logger.error(`job ${String(job.id)} (${job.name}) failed: ${err.message}`);
  }
}
