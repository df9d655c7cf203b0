import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Webhook } from './webhook.entity';

/** `pending` (first attempt or a retry due at `nextAttempt`), `succeeded` (a 2xx answer), `failed` (gave up). */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One attempt to deliver: when, the HTTP status (null without an answer), the error, how long it took. */
export interface DeliveryAttempt {
  datetime: string;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
}

/**
 * The webhook outbox: one row per (audit log entry, matching enabled webhook), written by the trigger on
 * `log_entry` inside the transaction of the change itself (`src/webhooks/sql/webhook-outbox.sql`), sent by the
 * worker's `webhooks` queue. `uid` is the delivery's id in the API (the `webhook-id` header is the change id `chg_<log entry id>`, shared
 * with the change feed); `id` orders the deliveries of
 * one webhook and order code. Kept 30 days.
 */
@Entity('webhook_delivery')
@Index('ix_webhook_delivery_webhook_created', ['webhookId', 'created'])
@Index('ix_webhook_delivery_due', ['nextAttempt'], { where: `status = 'pending'` })
@Index('ix_webhook_delivery_chain', ['webhookId', 'orderCode', 'id'], { where: `status = 'pending'` })
export class WebhookDelivery {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Index({ unique: true })
  /** Set by the outbox trigger (`gen_random_uuid()`). */
  @Column({ type: 'uuid' })
  uid!: string;

  @Column({ type: 'int' })
  webhookId!: number;

  @ManyToOne(() => Webhook, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_id' })
  webhook?: Webhook;

  /** The audit log entry (`notification_id`); not a foreign key, the log is another context's. */
  @Column({ type: 'bigint' })
  logEntryId!: string;

  /** The concrete action of the log entry (`pretix.event.order.paid`). */
  @Column({ type: 'varchar', length: 100 })
  action!: string;

  /** Order code of order events: deliveries of one webhook and code are attempted in creation order. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  orderCode!: string | null;

  /** The request body, exactly as sent (`json` keeps its text, key order included). */
  @Column({ type: 'json' })
  payload!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 10, default: 'pending' })
  status!: DeliveryStatus;

  @Column({ type: 'jsonb', default: [] })
  attempts!: DeliveryAttempt[];

  /** `pending`: when the next attempt is due; null otherwise. */
  @Column({ type: 'timestamptz', nullable: true })
  nextAttempt!: Date | null;

  /** While a worker sends it: until when it holds the delivery (a dead worker's hold runs out). */
  @Column({ type: 'timestamptz', nullable: true })
  claimedUntil!: Date | null;

  /** No retry is scheduled after this time (3 days after creation or redelivery). */
  @Column({ type: 'timestamptz' })
  giveUpAt!: Date;

  @Index()
  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
