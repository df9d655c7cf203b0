import { SetMetadata } from '@nestjs/common';
import type { QueueName } from './queues';

/** What a processor sees of a queued job, independent of the queue library. */
export interface QueuedJob<T = Record<string, unknown>> {
  id: string;
  /** Job name (for task queues: the task kind). */
  name: string;
  data: T;
  /** Attempts already made before this one (0 on the first run). */
  attemptsMade: number;
  /** Attempts allowed in total. */
  attempts: number;
}

/** A processor of one queue; runs only in the worker process. Its errors are rethrown to the queue. */
export interface JobProcessor {
  process(job: QueuedJob): Promise<unknown>;
  /** Jobs of the queue this worker runs at once (default 1). */
  readonly concurrency?: number;
  /** Called once when the queue gave up a job: attempts exhausted, or stalled too often (worker died). */
  onFailed?(job: QueuedJob, error: Error): Promise<void>;
  /** Called when a shutting-down worker hands a running job back to the queue (another worker reruns it). */
  onReturned?(job: QueuedJob): Promise<void>;
}

export const QUEUE_PROCESSOR = 'ticketing:queue-processor';

/**
 * Marks a provider as the processor of one or more queues. The worker's `QueueWorkers` finds it and runs it;
 * the API never registers processors (style.md "Background jobs").
 */
export const ProcessesQueue = (...queues: QueueName[]) => SetMetadata(QUEUE_PROCESSOR, queues);

/** Thrown by a processor: try the job again after `delayMs` (counts as an attempt). */
export class RetryLater extends Error {
  constructor(
    readonly delayMs: number,
    message: string,
  ) {
    super(message);
  }
}

/** Thrown by a processor: the job failed for good; no further attempts. */
export class GiveUp extends Error {}

/** Options of one enqueued job. */
export interface EnqueueOptions {
  /** Stable id: adding a job whose id is still queued, delayed or running does nothing (de-duplication). */
  jobId?: string;
  /** Attempts in total (default 1). */
  attempts?: number;
  /** Delay before the first run (milliseconds). */
  delayMs?: number;
}
