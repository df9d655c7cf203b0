import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { ServiceUnavailable } from '../common/errors';
import { AppConfig } from '../config/app-config';
import type { EnqueueOptions } from './job';
import type { QueueName } from './queues';
import { redisOptions } from '../common/persistence/redis-options';

/** State of a job as the queue knows it; `missing` when Redis has no such job (never added, removed, or lost). */
export type JobState = 'waiting' | 'active' | 'delayed' | 'completed' | 'failed' | 'missing';

/** Resolves with the promise's value, or rejects after `ms` milliseconds. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from Redis within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The producer side of the queues, used by the API and the worker (architecture.md "Processes"): the only code
 * besides {@link QueueWorkers} that knows the queue library (BullMQ). Every call is bounded by `QUEUE_TIMEOUT_MS`
 * and fails at once while Redis is down (no offline queue), so a request never hangs on Redis.
 */
@Injectable()
export class JobQueues implements OnApplicationShutdown {
  private readonly logger = new Logger('Queues');
  private readonly queues = new Map<QueueName, Queue>();
  /** One connection for every queue of the process, opened at boot (ioredis reconnects by itself). */
  private readonly redis: Redis;

  constructor(private readonly config: AppConfig) {
    this.redis = new Redis(redisOptions(config.redisUrl, 'producer'));
    this.redis.on('error', (err) => this.logger.debug(`redis: ${err.message}`));
  }

  /**
   * Adds one job. With a `jobId` that is still queued, delayed or running, nothing is added (BullMQ's
   * de-duplication by id).
   * @throws ServiceUnavailable (503, `Retry-After`) when Redis does not answer in time
   */
  async enqueue(queue: QueueName, name: string, data: object, opts: EnqueueOptions = {}): Promise<void> {
    const attempts = opts.attempts ?? 1;
    await this.call(queue, (q) =>
      q.add(name, data, {
        jobId: opts.jobId,
        attempts,
        delay: opts.delayMs,
        // A handler-chosen delay (RetryLater) decides the back-off; see QueueWorkers.
        backoff: attempts > 1 ? { type: 'handler' } : undefined,
        // The PostgreSQL row (task, mail) is the record; a kept job id would block re-enqueueing it.
        removeOnComplete: true,
        removeOnFail: true,
      }),
    );
  }

  /**
   * Makes sure a repeatable job exists (every `everyMs` milliseconds, job name `name`).
   * @returns false when it was missing (first start, or Redis lost it) and has been created now
   * @throws ServiceUnavailable when Redis does not answer in time
   */
  async ensureRepeating(
    queue: QueueName,
    schedulerId: string,
    name: string,
    everyMs: number,
  ): Promise<boolean> {
    return this.call(queue, async (q) => {
      const existing = await q.getJobScheduler(schedulerId);
      if (existing && existing.every === everyMs) return true;
      await q.upsertJobScheduler(
        schedulerId,
        { every: everyMs },
        { name, data: {}, opts: { removeOnComplete: 100, removeOnFail: 100 } },
      );
      return false;
    });
  }

  /** The job's state, `missing` when Redis does not know it. @throws ServiceUnavailable as above */
  async jobState(queue: QueueName, jobId: string): Promise<JobState> {
    return this.call(queue, async (q) => {
      const state = await q.getJobState(jobId);
      if (state === 'unknown') return 'missing';
      if (state === 'prioritized' || state === 'waiting-children') return 'waiting';
      return state;
    });
  }

  /**
   * Whether Redis answers a PING within `QUEUE_TIMEOUT_MS` (the readiness probe, `GET /api/v1/readyz`).
   * @throws Error with the reason when it does not
   */
  async ping(): Promise<void> {
    if (this.redis.status !== 'ready') throw new Error(`Redis connection ${this.redis.status}`);
    await within(this.redis.ping(), this.config.queueTimeoutMs);
  }

  async onApplicationShutdown(): Promise<void> {
    const queues = [...this.queues.values()];
    this.queues.clear();
    await Promise.all(queues.map((q) => within(q.close(), 2000).catch(() => undefined)));
    this.redis.disconnect();
  }

  private async call<T>(name: QueueName, fn: (q: Queue) => Promise<T>): Promise<T> {
    if (
      this.redis.status === 'reconnecting' ||
      this.redis.status === 'close' ||
      this.redis.status === 'end'
    ) {
      // Known down: answer at once instead of waiting for the timeout.
      this.logger.warn(`queue ${name} unavailable: Redis connection ${this.redis.status}`);
      throw new ServiceUnavailable('The job queue is unavailable. Please try again later.', 10);
    }
    const queue = this.queue(name);
    try {
      return await within(
        queue.waitUntilReady().then(() => fn(queue)),
        this.config.queueTimeoutMs,
      );
    } catch (err) {
      this.logger.warn(`queue ${name} unavailable: ${(err as Error).message}`);
      throw new ServiceUnavailable('The job queue is unavailable. Please try again later.', 10);
    }
  }

  private queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      const created = new Queue(name, {
        connection: this.redis,
        prefix: this.config.queuePrefix,
      });
      created.on('error', (err) => this.logger.debug(`queue ${name}: ${err.message}`));
      // A queue whose set-up failed stays broken in BullMQ: forget it so the next call starts afresh.
      created.waitUntilReady().catch(() => {
        if (this.queues.get(name) === created) this.queues.delete(name);
        void created.close().catch(() => undefined);
      });
      this.queues.set(name, created);
      queue = created;
    }
    return queue;
  }
}
