import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Event } from '../organizers/event.entity';

/** What a ticket file is of: one position's ticket, or all tickets of an order in one PDF. */
export type TicketScope = 'order' | 'position';

/**
 * The ticket cache (pretix `CachedTicket` / `CachedCombinedTicket`): per order or position and output, the key of
 * what the ticket shows (`content_key`, a hash of the rendered fields and the secret), the render task that makes
 * it and the stored file once made. A changed attendee, seat, product or secret changes the key, so the next
 * download renders again; the file expires like any stored file and is then rendered again too.
 */
@Entity('ticket_file')
@Index('uq_ticket_file_target', ['scope', 'targetId', 'output'], { unique: true })
export class TicketFile {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'varchar', length: 8 })
  scope!: TicketScope;

  /** The order's id (`order`) or the position's id (`position`). */
  @Column({ type: 'int' })
  targetId!: number;

  /** The ticket output, e.g. `pdf`. */
  @Column({ type: 'varchar', length: 16 })
  output!: string;

  /** SHA-256 (hex) of what the ticket shows. */
  @Column({ type: 'varchar', length: 64 })
  contentKey!: string;

  /** The render task of this key (an `async_task` id). */
  @Column({ type: 'uuid', nullable: true })
  taskId!: string | null;

  /** The rendered file of this key (a `stored_file` id), once the task stored it. */
  @Column({ type: 'uuid', nullable: true })
  fileId!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated!: Date;
}
