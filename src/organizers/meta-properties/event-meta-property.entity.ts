import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Organizer } from '../organizer.entity';

/**
 * An event meta-data property of an organizer (pretix's `EventMetaProperty`, `O/event_meta_properties/`): the
 * keys events and sub-events may carry in `meta_data`. `name` is unique per organizer.
 */
@Entity('event_meta_property')
@Index('uq_event_meta_property_name', ['organizerId', 'name'], { unique: true })
export class EventMetaProperty {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  organizerId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer?: Organizer;

  @Column({ type: 'varchar', length: 50 })
  name!: string;

  /** Value assumed where an event or date sets none (filters `attr[...]`); `''` for none. */
  @Column({ type: 'text', default: '' })
  default!: string;

  /** The only values allowed; null (or empty) allows any string. */
  @Column({ type: 'jsonb', nullable: true })
  allowedValues!: string[] | null;

  /** Only credentials with `organizer.settings.general:write` may set it on events and dates. */
  @Column({ type: 'boolean', default: false })
  protected!: boolean;
}
