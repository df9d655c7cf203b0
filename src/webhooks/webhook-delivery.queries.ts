import { Injectable } from '@nestjs/common';
import type { Client } from 'pg';
import { EntityManager, SelectQueryBuilder } from 'typeorm';
import { returning } from '../tasks/sql';
import { DeliveryAttempt, DeliveryStatus, WebhookDelivery } from './webhook-delivery.entity';

/** The channel the outbox trigger (src/webhooks/sql/webhook-outbox.sql) and a redelivery notify; the worker listens. */
export const DELIVERY_CHANNEL = 'webhook_delivery';

/** Filters of the delivery log (`O/webhooks/{id}/deliveries/`), already validated; absent ones are not applied. */
export interface DeliveryListFilters {
  status?: DeliveryStatus;
  /** Exact action, at most 100 characters. */
  action?: string;
  createdSince?: Date;
}

/** A delivery claimed for sending, with what the sender needs of its webhook. */
export interface ClaimedDelivery {
  id: string;
  uid: string;
  /** The audit log entry delivered (the change: `webhook-id` is its change id). */
  log_entry_id: string;
  webhook_id: number;
  organizer_id: number;
  order_code: string | null;
  /** The payload as stored (the exact bytes signed and sent). */
  body: string;
  /** Attempts made so far. */
  attempts: number;
  give_up_at: Date;
  target_url: string;
  secret: string;
  enabled: boolean;
}

/**
 * SQL on `webhook_delivery`, the outbox (compat §5 delivery; README "Webhooks"): the log, redelivery, the
 * worker's sweep, claim, retry and finish, the 30-day prune. Rows are written by the outbox trigger
 * (src/webhooks/sql/webhook-outbox.sql), never here.
 */
@Injectable()
export class WebhookDeliveryQueries {
  /** Deliveries of one webhook, newest first, filtered; a builder for `paginate` (rows and count). */
  logOfWebhook(
    em: EntityManager,
    webhookId: number,
    filters: DeliveryListFilters,
  ): SelectQueryBuilder<WebhookDelivery> {
    const qb = em
      .getRepository(WebhookDelivery)
      .createQueryBuilder('d')
      .where('d.webhook_id = :webhook', { webhook: webhookId })
      .orderBy('d.created', 'DESC')
      .addOrderBy('d.id', 'DESC');
    if (filters.status !== undefined) qb.andWhere('d.status = :status', { status: filters.status });
    if (filters.action !== undefined) qb.andWhere('d.action = :action', { action: filters.action });
    if (filters.createdSince !== undefined)
      qb.andWhere('d.created >= :since', { since: filters.createdSince });
    return qb;
  }

  /**
   * Makes a delivery of the webhook pending again: due now, given up after 3 days (row lock of the UPDATE).
   * @returns its id, or null for an unknown uid
   */
  async makePendingAgain(em: EntityManager, uid: string, webhookId: number): Promise<string | null> {
    const updated = await returning<{ id: string }>(
      em,
      `UPDATE webhook_delivery
            SET status = 'pending', next_attempt = now(), give_up_at = now() + interval '3 days'
          WHERE uid = $1 AND webhook_id = $2
          RETURNING id`,
      [uid, webhookId],
    );
    return updated.length === 0 ? null : updated[0].id;
  }

  /** Notifies {@link DELIVERY_CHANNEL} (delivered when the caller's transaction commits). */
  async notifyWorker(em: EntityManager): Promise<void> {
    await em.query(`SELECT pg_notify($1, '')`, [DELIVERY_CHANNEL]);
  }

  /**
   * LISTENs on {@link DELIVERY_CHANNEL} on the worker's own connection (`client`: a dedicated `pg` client, not
   * the pool, since a LISTEN lasts as long as its connection).
   */
  async listen(client: Client): Promise<void> {
    await client.query(`LISTEN ${DELIVERY_CHANNEL}`);
  }

  /**
   * Ids of the deliveries to enqueue, oldest first, at most `limit`: pending, due, not held by a worker, not
   * waiting for an earlier pending delivery of the same webhook and order code. No locks.
   */
  async dueIds(em: EntityManager, limit: number): Promise<string[]> {
    const due: { id: string }[] = await em.query(
      `SELECT d.id FROM webhook_delivery d
        WHERE d.status = 'pending' AND d.next_attempt <= now()
          AND (d.claimed_until IS NULL OR d.claimed_until < now())
          AND NOT EXISTS (SELECT 1 FROM webhook_delivery p
                           WHERE p.status = 'pending' AND p.webhook_id = d.webhook_id
                             AND p.order_code = d.order_code AND p.id < d.id)
        ORDER BY d.id LIMIT $1`,
      [limit],
    );
    return due.map((d) => d.id);
  }

  /** Deletes up to 5000 deliveries older than 30 days (the log's retention). @returns how many */
  async pruneOld(em: EntityManager): Promise<number> {
    const rows: { n: string }[] = await em.query(
      `WITH gone AS (
         DELETE FROM webhook_delivery WHERE id IN (
           SELECT id FROM webhook_delivery WHERE created < now() - interval '30 days' LIMIT 5000)
         RETURNING 1)
       SELECT count(*) AS n FROM gone`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Claims a pending delivery for `holdMs` milliseconds (an UPDATE of `claimed_until`, row lock while it runs):
   * refused while another worker holds it or an earlier delivery of the same webhook and order code is pending.
   * @returns the claimed delivery with its webhook, or undefined
   */
  async claim(em: EntityManager, id: string, holdMs: number): Promise<ClaimedDelivery | undefined> {
    const [d] = await returning<ClaimedDelivery>(
      em,
      `UPDATE webhook_delivery d SET claimed_until = now() + $2 * interval '1 millisecond'
         FROM webhook w
        WHERE d.id = $1 AND w.id = d.webhook_id AND d.status = 'pending'
          AND (d.claimed_until IS NULL OR d.claimed_until < now())
          AND NOT EXISTS (SELECT 1 FROM webhook_delivery p
                           WHERE p.status = 'pending' AND p.webhook_id = d.webhook_id
                             AND p.order_code = d.order_code AND p.id < d.id)
        RETURNING d.id, d.uid, d.log_entry_id::text AS log_entry_id, d.webhook_id, w.organizer_id, d.order_code, d.payload::text AS body,
                  jsonb_array_length(d.attempts) AS attempts, d.give_up_at, w.target_url, w.secret, w.enabled`,
      [id, holdMs],
    );
    return d;
  }

  /** Appends a failed attempt to a pending delivery, releases the claim and makes it due in `delayMs`. */
  async scheduleRetry(
    em: EntityManager,
    id: string,
    attempt: DeliveryAttempt,
    delayMs: number,
  ): Promise<void> {
    await em.query(
      `UPDATE webhook_delivery
          SET attempts = attempts || $2::jsonb, claimed_until = NULL,
              next_attempt = now() + $3 * interval '1 millisecond'
        WHERE id = $1 AND status = 'pending'`,
      [id, JSON.stringify([attempt]), delayMs],
    );
  }

  /** Appends the last attempt to a pending delivery and sets its final status; releases the claim. */
  async finish(
    em: EntityManager,
    id: string,
    status: 'succeeded' | 'failed',
    attempt: DeliveryAttempt,
  ): Promise<void> {
    await em.query(
      `UPDATE webhook_delivery
          SET status = $2::varchar, attempts = attempts || $3::jsonb, claimed_until = NULL, next_attempt = NULL
        WHERE id = $1 AND status = 'pending'`,
      [id, status, JSON.stringify([attempt])],
    );
  }
}
