import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import { AppConfig } from '../config/app-config';
import { JobProcessor, ProcessesQueue, QueuedJob, RetryLater } from '../tasks/job';
import { QUEUES } from '../tasks/queues';
import { returning } from '../tasks/sql';
import type { DeliveryAttempt } from './webhook-delivery.entity';
import { WebhookDispatch } from './webhook-dispatch.service';
import { postWebhook, PostOutcome } from './webhook-http';
import { isDelivered, webhookRetryDelayMs } from './webhook-retry.rules';
import { signWebhook } from './webhook-secret';

/** The `User-Agent` of every delivery. */
export const WEBHOOK_USER_AGENT = 'ticketing-webhooks/1.0 (pretix-compatible)';

interface Claimed {
  id: string;
  uid: string;
  webhook_id: number;
  organizer_id: number;
  order_code: string | null;
  body: string;
  attempts: number;
  give_up_at: Date;
  target_url: string;
  secret: string;
  enabled: boolean;
}

/**
 * Sends one delivery (worker only, queue `webhooks`; issue 14 "Delivery"). The row is claimed first (held for
 * the timeout plus a margin; refused while an earlier delivery of the same webhook and order code is pending, so
 * a `paid` never overtakes its `placed`), then POSTed with the Standard Webhooks headers. A 2xx marks it
 * `succeeded`; 410 Gone marks it `failed` and disables the webhook; a private target (SSRF guard) fails it for
 * good; anything else is retried with exponential back-off and jitter ({@link webhookRetryDelayMs}) until
 * 3 days have passed. Every attempt is appended to the row.
 */
@Injectable()
@ProcessesQueue(QUEUES.webhooks)
export class WebhookDeliveryProcessor implements JobProcessor {
  private readonly logger = new Logger('Webhooks');
  /** Deliveries sent at once (`WEBHOOK_CONCURRENCY`): one slow receiver does not hold up the other webhooks. */
  readonly concurrency: number;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditLogService,
    private readonly dispatch: WebhookDispatch,
    private readonly config: AppConfig,
  ) {
    this.concurrency = config.webhookConcurrency;
  }

  async process(job: QueuedJob): Promise<{ status: string }> {
    const id = String(job.data.deliveryId);
    const [d] = await returning<Claimed>(
      this.db,
      `UPDATE webhook_delivery d SET claimed_until = now() + $2 * interval '1 millisecond'
         FROM webhook w
        WHERE d.id = $1 AND w.id = d.webhook_id AND d.status = 'pending'
          AND (d.claimed_until IS NULL OR d.claimed_until < now())
          AND NOT EXISTS (SELECT 1 FROM webhook_delivery p
                           WHERE p.status = 'pending' AND p.webhook_id = d.webhook_id
                             AND p.order_code = d.order_code AND p.id < d.id)
        RETURNING d.id, d.uid, d.webhook_id, w.organizer_id, d.order_code, d.payload::text AS body,
                  jsonb_array_length(d.attempts) AS attempts, d.give_up_at, w.target_url, w.secret, w.enabled`,
      [id, this.config.webhookTimeoutMs + 15_000],
    );
    if (!d) return { status: 'skipped' };
    if (!d.enabled) {
      await this.finish(d, 'failed', { status: null, error: 'The webhook is disabled.', durationMs: 0, refused: true });
      return { status: 'failed' };
    }
    const timestamp = Math.floor(Date.now() / 1000);
    const outcome = await postWebhook(
      d.target_url,
      {
        'Content-Type': 'application/json',
        'User-Agent': WEBHOOK_USER_AGENT,
        'webhook-id': d.uid,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(d.secret, d.uid, timestamp, d.body),
      },
      d.body,
      this.config.webhookTimeoutMs,
      this.config.webhookAllowPrivateTargets,
    );
    if (isDelivered(outcome.status)) {
      await this.finish(d, 'succeeded', outcome);
      return { status: 'succeeded' };
    }
    if (outcome.status === 410) {
      await this.finish(d, 'failed', outcome);
      await this.disableGone(d);
      return { status: 'failed' };
    }
    const delay = webhookRetryDelayMs(d.attempts + 1, this.config.webhookRetryBaseS);
    if (outcome.refused || Date.now() + delay > new Date(d.give_up_at).getTime()) {
      await this.finish(d, 'failed', outcome);
      this.logger.warn(`delivery ${d.uid} to webhook ${d.webhook_id} failed for good: ${outcome.error}`);
      return { status: 'failed' };
    }
    await this.db.query(
      `UPDATE webhook_delivery
          SET attempts = attempts || $2::jsonb, claimed_until = NULL,
              next_attempt = now() + $3 * interval '1 millisecond'
        WHERE id = $1 AND status = 'pending'`,
      [d.id, JSON.stringify([attempt(outcome)]), delay],
    );
    throw new RetryLater(delay, outcome.error ?? 'failed');
  }

  /** Records the final attempt and status, then lets the next delivery of the same order code go. */
  private async finish(d: Claimed, status: 'succeeded' | 'failed', outcome: PostOutcome): Promise<void> {
    await this.db.query(
      `UPDATE webhook_delivery
          SET status = $2::varchar, attempts = attempts || $3::jsonb, claimed_until = NULL, next_attempt = NULL
        WHERE id = $1 AND status = 'pending'`,
      [d.id, status, JSON.stringify([attempt(outcome)])],
    );
    if (d.order_code !== null) this.dispatch.sweepSoon();
  }

  /** 410 Gone: the receiver asks to stop; the webhook is disabled and the change logged. */
  private async disableGone(d: Claimed): Promise<void> {
    await this.db.transaction(async (em) => {
      const rows = await returning<{ id: number }>(
        em,
        'UPDATE webhook SET enabled = false WHERE id = $1 AND enabled RETURNING id',
        [d.webhook_id],
      );
      if (rows.length === 0) return;
      await this.audit.record(em, null, {
        organizerId: d.organizer_id,
        eventId: null,
        contentType: 'webhook',
        objectId: d.webhook_id,
        action: 'pretix.webhook.changed',
        data: { enabled: false, reason: '410 Gone' },
      });
    });
    this.logger.warn(`webhook ${d.webhook_id} disabled: its receiver answered 410 Gone`);
  }
}

function attempt(outcome: PostOutcome): DeliveryAttempt {
  return {
    datetime: new Date().toISOString(),
    response_status: outcome.status,
    error: outcome.error,
    duration_ms: outcome.durationMs,
  };
}
