import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Item } from '../catalogue/items/item.entity';
import { Event } from '../organizers/event.entity';

/**
 * A check-in list of one event (spec "Check-in list"; compat §3.20): which tickets it admits (all products or the
 * listed ones, paid and optionally pending, of its sub-event) and how repeated scans behave. `rules` is stored as
 * sent (pretix's JsonLogic, "not a stable API"); only an empty object is evaluated (always true).
 */
@Entity('checkin_list')
export class CheckinList {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'varchar', length: 190 })
  name!: string;

  @Column({ type: 'boolean', default: false })
  allProducts!: boolean;

  /** Sub-event id (series only); the series issue adds the key. */
  @Column({ type: 'int', nullable: true })
  subeventId!: number | null;

  @Column({ type: 'boolean', default: false })
  includePending!: boolean;

  @Column({ type: 'boolean', default: false })
  allowMultipleEntries!: boolean;

  @Column({ type: 'boolean', default: true })
  allowEntryAfterExit!: boolean;

  @Column({ type: 'boolean', default: false })
  addonMatch!: boolean;

  /** UTC; the scheduler checks everybody out then and moves it one day on. */
  @Column({ type: 'timestamptz', nullable: true })
  exitAllAt!: Date | null;

  @Column({ type: 'jsonb', default: {} })
  rules!: Record<string, unknown>;

  @Column({ type: 'boolean', default: false })
  ignoreInStatistics!: boolean;

  @Column({ type: 'boolean', default: true })
  considerTicketsUsed!: boolean;

  /** Changes through the API (not the daily move of `exit_all_at`): If-Modified-Since of the lists. */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastModified!: Date;

  @OneToMany(() => CheckinListProduct, (p) => p.list)
  products?: CheckinListProduct[];
}

/** A product (item) a check-in list is limited to (`limit_products`). */
@Entity('checkin_list_item')
export class CheckinListProduct {
  @PrimaryColumn({ type: 'int' })
  listId!: number;

  @ManyToOne(() => CheckinList, (l) => l.products, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'list_id' })
  list?: CheckinList;

  @Index()
  @PrimaryColumn({ type: 'int' })
  itemId!: number;

  @ManyToOne(() => Item, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'item_id' })
  item?: Item;
}
