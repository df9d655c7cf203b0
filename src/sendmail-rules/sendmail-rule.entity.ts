import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { I18nString } from '../common/values/i18n';
import { Event } from '../organizers/event.entity';

/** A scheduled e-mail rule of an event (spec "Scheduled e-mail rule"; compat §3.26). */
@Entity('sendmail_rule')
export class SendmailRule {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ type: 'jsonb' })
  subject!: I18nString;

  @Column({ type: 'jsonb' })
  template!: I18nString;

  @Column({ type: 'boolean', default: true })
  allProducts!: boolean;

  /** Item ids of the event the rule is limited to (when `allProducts` is false). */
  @Column({ type: 'int', array: true, default: () => "'{}'" })
  limitProducts!: number[];

  /** Order states the rule applies to (`p`, `e`, `c`, `n__…`). */
  @Column({ type: 'text', array: true })
  restrictToStatus!: string[];

  /** null (any), `checked_in` or `no_checkin`. */
  @Column({ type: 'varchar', length: 20, nullable: true })
  checkedInStatus!: string | null;

  @Column({ type: 'boolean', default: true })
  dateIsAbsolute!: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  sendDate!: Date | null;

  @Column({ type: 'int', nullable: true })
  sendOffsetDays!: number | null;

  /** `HH:MM` in the event's time zone. */
  @Column({ type: 'varchar', length: 5, nullable: true })
  sendOffsetTime!: string | null;

  @Column({ type: 'boolean', default: false })
  offsetToEventEnd!: boolean;

  @Column({ type: 'boolean', default: false })
  offsetIsAfter!: boolean;

  /** `orders`, `attendees` or `both`. */
  @Column({ type: 'varchar', length: 20, default: 'orders' })
  sendTo!: string;
}
