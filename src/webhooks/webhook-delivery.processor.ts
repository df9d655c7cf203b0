import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import { changeIdOf } from '../audit/change-id';
import { AppConfig } from '../config/app-config';
import { JobProcessor, ProcessesQueue, QueuedJob, RetryLater } from '../tasks/job';
import { QUEUES } from '../tasks/queues';
import type { DeliveryAttempt } from './webhook-delivery.entity';
import { ClaimedDelivery, WebhookDeliveryQueries } from './webhook-delivery.queries';
import { WebhookDispatch } from './webhook-dispatch.service';
import { postWebhook, PostOutcome } from './webhook-http';
import { isDelivered, webhookRetryDelayMs } from './webhook-retry.rules';
import { signWebhook } from './webhook-secret';
import { WebhookQueries } from './webhook.queries';

/** The `User-Agent` of every delivery. */
export const WEBHOOK_USER_AGENT = 'ticketing-webhooks/1.0 (pretix-compatible)';

/**
 * Sends one delivery (worker only, queue `webhooks`; compat §5; README "Webhooks"). The row is claimed first (held
 * for the timeout plus a margin; refused while an earlier delivery of the same webhook and order code is pending,
 * so a `paid` never overtakes its `placed`), then POSTed with the Standard Webhooks headers (`webhook-id`: the
 * change's id `chg_<log entry id>`, the same as the change feed's `id`, identical for every webhook and retry). A 2xx marks it
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
    private readonly deliveries: WebhookDeliveryQueries,
    private readonly webhooks: WebhookQueries,
  ) {
    this.concurrency = config.webhookConcurrency;
  }

  async process(job: QueuedJob): Promise<{ status: string }> {
    const id = String(job.data.deliveryId);
    const d = await this.deliveries.claim(this.db.manager, id, this.config.webhookTimeoutMs + 15_000);
    if (!d) return { status: 'skipped' };
    if (!d.enabled) {
      await this.finish(d, 'failed', {
        status: null,
        error: 'The webhook is disabled.',
        durationMs: 0,
        refused: true,
      });
      return { status: 'failed' };
    }
    const timestamp = Math.floor(Date.now() / 1000);
    // The change's id (as the change feed's `id`): a receiver of both de-duplicates them against each other.
    const messageId = changeIdOf(d.log_entry_id);
    const outcome = await postWebhook(
      d.target_url,
      {
        'Content-Type': 'application/json',
        'User-Agent': WEBHOOK_USER_AGENT,
        'webhook-id': messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(d.secret, messageId, timestamp, d.body),
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
    await this.deliveries.scheduleRetry(this.db.manager, d.id, attempt(outcome), delay);
    throw new RetryLater(delay, outcome.error ?? 'failed');
  }

  /** Records the final attempt and status, then lets the next delivery of the same order code go. */
  private async finish(
    d: ClaimedDelivery,
    status: 'succeeded' | 'failed',
    outcome: PostOutcome,
  ): Promise<void> {
    await this.deliveries.finish(this.db.manager, d.id, status, attempt(outcome));
    if (d.order_code !== null) this.dispatch.sweepSoon();
  }

  /** 410 Gone: the receiver asks to stop; the webhook is disabled and the change logged. */
  private async disableGone(d: ClaimedDelivery): Promise<void> {
    await this.db.transaction(async (em) => {
      if (!(await this.webhooks.disableEnabled(em, d.webhook_id))) return;
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
