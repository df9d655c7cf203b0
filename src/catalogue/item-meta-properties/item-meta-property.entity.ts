import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Event } from '../../organizers/event.entity';

/**
 * An item meta property of an event (pretix's `ItemMetaProperty`, `E/item_meta_properties/`): a key that items
 * and variations may carry in `meta_data`. The values live in those `meta_data` objects keyed by `name`, so `name`
 * is unique per event (pretix does not enforce this) and renames and deletes follow into them.
 */
@Entity('item_meta_property')
@Index('uq_item_meta_property_name', ['eventId', 'name'], { unique: true })
export class ItemMetaProperty {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'varchar', length: 50 })
  name!: string;

  /** Default value (`''` for none). */
  @Column({ type: 'text', default: '' })
  default!: string;

  /** "Required for products" (informational on the API, as in pretix). */
  @Column({ type: 'boolean', default: false })
  required!: boolean;

  /** Allowed values, one a line (pretix's storage); null: any value. */
  @Column({ type: 'text', nullable: true })
  allowedValues!: string | null;
}
