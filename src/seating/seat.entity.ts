import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Item } from '../catalogue/items/item.entity';
import { Event } from '../organizers/event.entity';
import { SubEvent } from '../organizers/subevents/subevent.entity';

/**
 * A seat of an event (or of one date of a series), generated from the event's seating plan (compat §3.18). The
 * seat's place (zone, row, number, labels, guid) comes from the plan; `product` from the event's category
 * mapping; `blocked` is the only field the API writes. Unique per event (or date) and guid: partial unique
 * indexes of the migration.
 */
@Entity('seat')
@Index('uq_seat_event_guid', { synchronize: false })
@Index('uq_seat_subevent_guid', { synchronize: false })
export class Seat {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  /** Date of a series (null for events without dates); deleted with the date. */
  @Index()
  @Column({ type: 'int', nullable: true })
  subeventId!: number | null;

  @ManyToOne(() => SubEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subevent_id' })
  subevent?: SubEvent | null;

  @Column({ type: 'varchar', length: 190 })
  zoneName!: string;

  @Column({ type: 'varchar', length: 190 })
  rowName!: string;

  @Column({ type: 'varchar', length: 190, nullable: true })
  rowLabel!: string | null;

  @Column({ type: 'varchar', length: 190 })
  seatNumber!: string;

  @Column({ type: 'varchar', length: 190, nullable: true })
  seatLabel!: string | null;

  @Column({ type: 'varchar', length: 190 })
  seatGuid!: string;

  @Index()
  @Column({ type: 'int', nullable: true })
  productId!: number | null;

  @ManyToOne(() => Item, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'product_id' })
  product?: Item;

  @Column({ type: 'boolean', default: false })
  blocked!: boolean;

  /** Position in the plan (zone, row, seat order): the list's default order. */
  @Column({ type: 'int', default: 0 })
  sortingRank!: number;
}
