import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { Event } from '../organizers/event.entity';

/**
 * The event's invoice settings (`E/settings/`): only the keys that were set, wire name -> value; the defaults
 * live in `invoice-settings.rules.ts`.
 */
@Entity('invoice_settings')
export class InvoiceSettings {
  @PrimaryColumn({ type: 'int' })
  eventId!: number;

  @OneToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'jsonb', default: {} })
  values!: Record<string, string>;
}
