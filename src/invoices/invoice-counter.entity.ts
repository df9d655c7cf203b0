import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Event } from '../organizers/event.entity';

/**
 * The last invoice number given per event and prefix. Incremented by one upsert inside the transaction that
 * inserts the invoice: the row stays locked until the commit, so numbers are unique under concurrency and a
 * rolled-back invoice gives its number back (gap-free).
 */
@Entity('invoice_counter')
export class InvoiceCounter {
  @PrimaryColumn({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @PrimaryColumn({ type: 'varchar', length: 160 })
  prefix!: string;

  @Column({ type: 'int' })
  lastNo!: number;
}
