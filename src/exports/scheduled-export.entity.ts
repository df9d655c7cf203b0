import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../auth/user.entity';
import { Event } from '../organizers/event.entity';
import { Organizer } from '../organizers/organizer.entity';

/**
 * A scheduled export (spec "Scheduled export"; compat §3.7): an exporter with its form data, run by the
 * scheduler at `scheduleNextRun` and mailed to its owner and the additional recipients. Event level when
 * `eventId` is set, organizer level otherwise.
 */
@Entity('scheduled_export')
@Index('ix_scheduled_export_due', ['scheduleNextRun'], { where: 'error_counter < 5' })
export class ScheduledExport {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  organizerId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer?: Organizer;

  /** Null: an organizer-level export. */
  @Index()
  @Column({ type: 'int', nullable: true })
  eventId!: number | null;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  /** The creating user (spec `owner`, shown as their e-mail). */
  @Index()
  @Column({ type: 'int' })
  ownerId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_id' })
  owner?: User;

  @Column({ type: 'varchar', length: 190 })
  exportIdentifier!: string;

  /** The exporter's form data with its defaults filled in. */
  @Column({ type: 'jsonb', default: {} })
  exportFormData!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 16, default: 'en' })
  locale!: string;

  @Column({ type: 'text', default: '' })
  mailAdditionalRecipients!: string;

  @Column({ type: 'text', default: '' })
  mailAdditionalRecipientsCc!: string;

  @Column({ type: 'text', default: '' })
  mailAdditionalRecipientsBcc!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  mailSubject!: string;

  @Column({ type: 'text', default: '' })
  mailTemplate!: string;

  /** RFC 5545 recurrence text. */
  @Column({ type: 'text' })
  scheduleRrule!: string;

  /** `HH:MM:SS`, local time of `timezone`. */
  @Column({ type: 'time' })
  scheduleRruleTime!: string;

  /** IANA zone of the schedule: the event's (event level, copied on save) or the wire field (organizer level). */
  @Column({ type: 'varchar', length: 64, default: 'UTC' })
  timezone!: string;

  /** Next run (UTC); null when the rule has no further occurrence. */
  @Column({ type: 'timestamptz', nullable: true })
  scheduleNextRun!: Date | null;

  /** Consecutive failed runs; at 5 the schedule stops; any change resets it. */
  @Column({ type: 'int', default: 0 })
  errorCounter!: number;

  /** The async task of the run in progress (at most one per export), or null. */
  @Column({ type: 'uuid', nullable: true })
  runningTaskId!: string | null;
}
