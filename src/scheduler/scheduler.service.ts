import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bull';
import { QUEUES } from '../queues';
import { SCHEDULER_TICK } from './scheduler.processor';

/** Registers the repeatable scheduler tick (every minute; Bull keeps one per repeat key across workers). */
@Injectable()
export class SchedulerService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Worker');

  constructor(@InjectQueue(QUEUES.scheduler) private readonly queue: Queue) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.isReady();
    await this.queue.add(
      SCHEDULER_TICK,
      {},
      { repeat: { cron: '* * * * *' }, jobId: 'scheduler-tick', removeOnComplete: 100, removeOnFail: 100 },
    );
    this.logger.log(
      `Worker ready: queues registered (${Object.values(QUEUES).join(', ')}), scheduler tick every minute`,
    );
  }
}
