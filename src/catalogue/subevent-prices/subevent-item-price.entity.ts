import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { SubEvent } from '../../organizers/subevents/subevent.entity';
import { Item } from '../items/item.entity';

/** The price of an item on one date of a series (spec "Sub-event" `item_price_overrides`); null: default. */
@Entity('subevent_item_price')
@Index('uq_subevent_item_price', ['subeventId', 'itemId'], { unique: true })
export class SubEventItemPrice {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  subeventId!: number;

  @ManyToOne(() => SubEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subevent_id' })
  subevent?: SubEvent;

  @Index()
  @Column({ type: 'int' })
  itemId!: number;

  @ManyToOne(() => Item, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'item_id' })
  item?: Item;

  /** Money string; null: the item's default price. */
  @Column({ type: 'numeric', precision: 13, scale: 2, nullable: true })
  price!: string | null;

  /** Not sold on this date (pretix 2026 `disabled`). */
  @Column({ type: 'boolean', default: false })
  disabled!: boolean;

  /** Sold on this date only from this time on (null: no bound). */
  @Column({ type: 'timestamptz', nullable: true })
  availableFrom!: Date | null;

  /** Sold on this date only until this time (null: no bound). */
  @Column({ type: 'timestamptz', nullable: true })
  availableUntil!: Date | null;
}
