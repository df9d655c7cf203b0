import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Organizer } from '../organizers/organizer.entity';

/**
 * A webhook of an organizer (compat §3.27): where to POST notifications about which audit log actions. Never
 * deleted (DELETE only disables it). `action_types` may hold wildcards (`pretix.event.order.changed.*`).
 * The outbox trigger on `log_entry` (`src/webhooks/sql/webhook-outbox.sql`) reads this table to fan an entry out
 * into deliveries.
 */
@Entity('webhook')
export class Webhook {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  organizerId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer?: Organizer;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ type: 'varchar', length: 500 })
  targetUrl!: string;

  @Column({ type: 'boolean', default: false })
  allEvents!: boolean;

  /** Ids of the events of `limit_events` (unused when `allEvents`). */
  @Column({ type: 'int', array: true, default: '{}' })
  limitEventIds!: number[];

  /** Registered action types the webhook listens to, wildcards included. */
  @Column({ type: 'varchar', length: 100, array: true, default: '{}' })
  actionTypes!: string[];

  @Column({ type: 'text', nullable: true })
  comment!: string | null;

  /** `whsec_` + base64 of 24 random bytes (Standard Webhooks signing secret). */
  @Column({ type: 'varchar', length: 64 })
  secret!: string;
}
