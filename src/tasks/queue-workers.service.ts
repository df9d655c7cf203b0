import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { ConnectionOptions, Job, UnrecoverableError, Worker } from 'bullmq';
import { AppConfig } from '../config/app-config';
import { GiveUp, JobProcessor, QUEUE_PROCESSOR, QueuedJob, RetryLater } from './job';
import type { QueueName } from './queues';
import { redisOptions } from '../common/persistence/redis-options';

interface Running {
  job: Job;
  token?: string;
  processor: JobProcessor;
  done: Promise<unknown>;
}

function toQueuedJob(job: Job): QueuedJob {
  return {
    id: String(job.id),
    name: job.name,
    data: job.data as Record<string, unknown>,
    attemptsMade: job.attemptsMade,
    attempts: job.opts.attempts ?? 1,
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * The worker side of the queues (worker process only): starts one BullMQ worker per queue that has a
 * `@ProcessesQueue` provider, with the job lock of `JOB_LOCK_MS` (a job whose worker died is taken over as stalled
 * after at most twice that, once; a second stall fails it), and stops them gracefully on shutdown: no new jobs,
 * running ones may finish within `WORKER_SHUTDOWN_GRACE_MS`, then the rest go back to the queue.
 */
@Injectable()
export class QueueWorkers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Worker');
  private readonly workers: Worker[] = [];
  private readonly running = new Map<string, Running>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {}

  /** Queues that have a processor in this process. */
  get queues(): string[] {
    return this.workers.map((w) => w.name);
  }

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      if (!wrapper.metatype || !wrapper.instance) continue;
      const queues = this.reflector.get<QueueName[] | undefined>(QUEUE_PROCESSOR, wrapper.metatype);
      if (!queues) continue;
      for (const queue of queues) this.start(queue, wrapper.instance as JobProcessor);
    }
  }

  private start(queue: QueueName, processor: JobProcessor): void {
    const worker = new Worker(
      queue,
      async (job: Job, token?: string) => {
        const key = `${queue}:${String(job.id)}`;
        const done = this.run(processor, job);
        this.running.set(key, { job, token, processor, done });
        try {
          return await done;
        } finally {
          this.running.delete(key);
        }
      },
      {
        connection: redisOptions(this.config.redisUrl, 'worker') as ConnectionOptions,
        prefix: this.config.queuePrefix,
        lockDuration: this.config.jobLockMs,
        stalledInterval: this.config.jobLockMs,
        maxStalledCount: 1,
        drainDelay: 2,
        concurrency: processor.concurrency ?? 1,
        settings: {
          backoffStrategy: (_attempts, _type, err) => (err instanceof RetryLater ? err.delayMs : 0),
        },
      },
    );
    worker.on('failed', (job, err) => {
      if (!job) return;
      const final = job.finishedOn !== undefined || err.name === 'UnrecoverableError';
      if (!final || !processor.onFailed) return;
      processor.onFailed(toQueuedJob(job), err).catch((e: Error) => {
        this.logger.error(`${queue} job ${String(job.id)}: failure handler: ${e.message}`);
      });
    });
    worker.on('stalled', (jobId) =>
      this.logger.warn(`${queue} job ${jobId} stalled (its worker stopped): requeued`),
    );
    worker.on('error', (err) => this.logger.error(`${queue}: ${err.message}`));
    this.workers.push(worker);
  }

  private async run(processor: JobProcessor, job: Job): Promise<unknown> {
    try {
      return await processor.process(toQueuedJob(job));
    } catch (err) {
      if (err instanceof GiveUp) throw new UnrecoverableError(err.message);
      throw err;
    }
  }

  /**
   * Graceful stop (SIGTERM): takes no new jobs, lets the running ones finish within the grace period, hands the
   * others back to the queue (and tells their processor), then closes the Redis connections.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.pause(true)));
    const pending = [...this.running.values()];
    if (pending.length > 0) {
      this.logger.log(
        `shutting down: waiting up to ${this.config.workerShutdownGraceMs} ms for ${pending.length} job(s)`,
      );
      await Promise.race([
        Promise.allSettled(pending.map((r) => r.done)),
        sleep(this.config.workerShutdownGraceMs),
      ]);
    }
    const left = [...this.running.values()];
    for (const r of left) {
      try {
        await r.job.moveToWait(r.token);
        await r.processor.onReturned?.(toQueuedJob(r.job));
        this.logger.warn(`shutting down: ${r.job.queueName} job ${String(r.job.id)} returned to the queue`);
      } catch (err) {
        this.logger.error(`could not return job ${String(r.job.id)}: ${(err as Error).message}`);
      }
    }
    await Promise.all(this.workers.map((w) => w.close(left.length > 0).catch(() => undefined)));
  }
}
