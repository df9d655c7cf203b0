import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Event } from '../organizers/event.entity';
import { SubEvent } from '../organizers/subevents/subevent.entity';
import { Item } from '../catalogue/items/item.entity';
import { ItemVariation } from '../catalogue/variations/item-variation.entity';
import { Voucher } from '../catalogue/vouchers/voucher.entity';

/**
 * A waiting list entry (pretix `WaitingListEntry`; `E/waitinglistentries/`): someone waiting for a product (item,
 * variation, event date) that is sold out. `voucher` is set once a voucher was sent; deleting that voucher deletes
 * the entry (pretix `on_delete=CASCADE`). `ix_waiting_list_open` serves the count of waiting entries per product
 * (quota availability's `waiting_list`) and the automatic assignment, without reading assigned entries.
 */
@Entity('waiting_list_entry')
@Index('ix_waiting_list_event_created', ['eventId', 'created'])
@Index('ix_waiting_list_open', ['eventId', 'itemId', 'variationId', 'subeventId'], {
  where: 'voucher_id IS NULL',
})
export class WaitingListEntry {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Index()
  @Column({ type: 'int', nullable: true })
  subeventId!: number | null;

  @ManyToOne(() => SubEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subevent_id' })
  subevent?: SubEvent;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  /** The name built from `name_parts` (pretix `name_cached`); null when there is none. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  nameCached!: string | null;

  @Column({ type: 'jsonb', default: {} })
  nameParts!: Record<string, string>;

  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  phone!: string | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  voucherId!: number | null;

  @ManyToOne(() => Voucher, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'voucher_id' })
  voucher?: Voucher;

  @Index()
  @Column({ type: 'int' })
  itemId!: number;

  @ManyToOne(() => Item, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'item_id' })
  item?: Item;

  @Index()
  @Column({ type: 'int', nullable: true })
  variationId!: number | null;

  @ManyToOne(() => ItemVariation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'variation_id' })
  variation?: ItemVariation;

  @Column({ type: 'varchar', length: 190, default: 'en' })
  locale!: string;

  @Column({ type: 'int', default: 0 })
  priority!: number;
}
