import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * `queued` (waiting for its first or next attempt, see `nextAttempt`), `sending` (a worker holds it until
 * `nextAttempt`), `sent`, `failed` (attempts exhausted or refused for good). Without `MAIL_URL` mails stay `queued`.
 */
export type MailStatus = 'queued' | 'sending' | 'sent' | 'failed';

/** A file attached to a mail: the stored file's id and how it is named in the mail. */
export interface MailAttachmentRef {
  file_id: string;
  filename: string;
  content_type: string;
  size: number;
}

/**
 * The mail outbox: every e-mail the service sends is first written here, inside the transaction of the change
 * that causes it; the worker delivers it over SMTP and records the outcome (architecture.md "Processes").
 */
@Entity('outgoing_mail')
@Index('ix_outgoing_mail_organizer_created', ['organizerId', 'created'])
@Index('ix_outgoing_mail_due', ['status', 'nextAttempt'])
export class OutgoingMail {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int', nullable: true })
  organizerId!: number | null;

  @Column({ type: 'int', nullable: true })
  eventId!: number | null;

  @Column({ type: 'varchar', length: 254 })
  recipient!: string;

  @Column({ type: 'varchar', length: 998 })
  subject!: string;

  /** Plain-text body. */
  @Column({ type: 'text' })
  body!: string;

  @Index()
  @Column({ type: 'varchar', length: 10, default: 'queued' })
  status!: MailStatus;

  /** Error of the last failed attempt (kept when a later attempt succeeds). */
  @Column({ type: 'text', nullable: true })
  error!: string | null;

  /** Delivery attempts started. */
  @Column({ type: 'int', default: 0 })
  attempts!: number;

  /** `queued`: when the next attempt is due; `sending`: when the worker's hold ends. */
  @Column({ type: 'timestamptz', nullable: true })
  nextAttempt!: Date | null;

  @Column({ type: 'jsonb', default: [] })
  attachments!: MailAttachmentRef[];

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  sentAt!: Date | null;
}
