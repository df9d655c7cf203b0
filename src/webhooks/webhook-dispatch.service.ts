import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JobQueues } from '../tasks/job-queues.service';
import { QUEUES } from '../tasks/queues';
import { WebhookDeliveryQueries } from './webhook-delivery.queries';
import { Periodic } from '../common/contributions';

/** Name of the job that sends one delivery (`{deliveryId}`), queue `webhooks`. */
export const SEND_WEBHOOK_JOB = 'send';

/** Deliveries examined per sweep. */
const BATCH = 500;

/** Job id of a delivery: one live job per delivery (a second add while one exists does nothing). */
export function webhookJobId(id: string | number): string {
  return `webhook-delivery-${id}`;
}

/**
 * Moves due deliveries from the outbox into the `webhooks` queue (worker only). It LISTENs on the channel the
 * outbox trigger and redeliveries notify after their commit, and sweeps at once; the scheduler's tick sweeps too,
 * which catches what a missed notification or a Redis outage left behind. A sweep enqueues pending deliveries that
 * are due, not held by a worker, and not waiting for an earlier pending delivery of the same webhook and order
 * code (those follow when it is done: ordering without blocking other webhooks). Safe with several workers: one
 * live job per delivery, and the sender claims the row.
 */
@Injectable()
export class WebhookDispatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private listener: Client | null = null;
  private stopped = false;
  private running: Promise<number> | null = null;
  private again = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queues: JobQueues,
    private readonly config: AppConfig,
    // Stateless: a caller that builds the dispatch itself (the scheduler's e2e test) gets its own instance.
    private readonly deliveries: WebhookDeliveryQueries = new WebhookDeliveryQueries(),
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.listen();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.listener?.end().catch(() => undefined);
  }

  /** A sweep soon; calls while one runs coalesce into one more. */
  sweepSoon(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.sweep()
      .catch((err: Error) => {
        this.logger.warn(`sweep failed: ${err.message}`);
        return 0;
      })
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.sweepSoon();
        }
      });
  }

  /**
   * Enqueues the due deliveries (see the class). Stops at the first enqueue that fails (Redis down): the rest
   * stay due for the next sweep.
   * @returns how many were enqueued
   */
  @Periodic('webhooks.sweep')
  async sweep(): Promise<number> {
    const due = await this.deliveries.dueIds(this.db.manager, BATCH);
    let done = 0;
    for (const id of due) {
      try {
        await this.queues.enqueue(
          QUEUES.webhooks,
          SEND_WEBHOOK_JOB,
          { deliveryId: id },
          { jobId: webhookJobId(id), attempts: 1000 },
        );
        done++;
      } catch {
        this.logger.warn(`delivery ${id}: queue unavailable, stays due for the next sweep`);
        break;
      }
    }
    if (due.length > 0) this.logger.debug(`sweep: ${done} of ${due.length} due deliveries enqueued`);
    return done;
  }

  /** Deletes deliveries older than 30 days (the log's retention), in batches. @returns how many */
  @Periodic('webhooks.prune')
  async prune(): Promise<number> {
    return this.deliveries.pruneOld(this.db.manager);
  }

  /** Opens the LISTEN connection (reconnecting after a second when it drops) and sweeps once connected. */
  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.config.databaseUrl });
    const retry = () => {
      if (this.listener !== client) return;
      this.listener = null;
      void client.end().catch(() => undefined);
      if (!this.stopped) setTimeout(() => void this.listen(), 1000).unref();
    };
    this.listener = client;
    client.on('error', (err) => {
      this.logger.warn(`listener: ${err.message}`);
      retry();
    });
    client.on('end', retry);
    client.on('notification', () => this.sweepSoon());
    try {
      await client.connect();
      await this.deliveries.listen(client);
      this.logger.log('listening for new deliveries');
      this.sweepSoon();
    } catch (err) {
      this.logger.warn(`listener: ${(err as Error).message}`);
      retry();
    }
  }
}
