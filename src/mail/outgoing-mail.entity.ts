import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The mail outbox: every e-mail the service sends is first written here, inside the transaction of the change
 * that causes it; the `mail` worker delivers it later (architecture.md "Processes").
 */
@Entity('outgoing_mail')
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

  @Column({ type: 'text' })
  body!: string;

  /** `queued`, `sent` or `failed`. */
  @Index()
  @Column({ type: 'varchar', length: 10, default: 'queued' })
  status!: string;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  sentAt!: Date | null;
}
