import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { I18nString } from '../../common/values/i18n';
import { Event } from '../../organizers/event.entity';
import { Item } from '../items/item.entity';

/**
 * A program time of an item (pretix 2025+ `ItemProgramTime`, `E/items/{item}/program_times/`): a time slot shown
 * besides the event's own dates. Rows carry `event_id` as well as `item_id` so that event-wide work (clone,
 * delete) needs no join. Not allowed for items of event series.
 */
@Entity('item_program_time')
export class ItemProgramTime {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Index()
  @Column({ type: 'int' })
  itemId!: number;

  @ManyToOne(() => Item, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'item_id' })
  item?: Item;

  /** Wire `start` (UTC). */
  @Column({ type: 'timestamptz' })
  startsAt!: Date;

  /** Wire `end` (UTC); never before `startsAt`. */
  @Column({ type: 'timestamptz' })
  endsAt!: Date;

  /** Venue of the slot (i18n), null for none. */
  @Column({ type: 'jsonb', nullable: true })
  location!: I18nString | null;
}
