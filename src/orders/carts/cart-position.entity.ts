import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Item } from '../../catalogue/items/item.entity';
import { ItemVariation } from '../../catalogue/variations/item-variation.entity';
import { Voucher } from '../../catalogue/vouchers/voucher.entity';
import { Event } from '../../organizers/event.entity';
import { SubEvent } from '../../organizers/subevents/subevent.entity';
import { Seat } from '../../seating/seat.entity';

/** Partial unique index over `seat_id` (migration `SeatedSales`): one cart position per seat. */
export const CART_POSITION_SEAT_INDEX = 'uq_cart_position_seat';

/**
 * A cart position reserving quota until `expires` (spec "Cart position"; compat §3.2). API-created carts have
 * ids ending in `@api`; only those are visible through the API.
 */
@Entity('cart_position')
@Index('ix_cart_position_event_expires', ['eventId', 'expires'])
@Index('ix_cart_position_event_product', ['eventId', 'itemId', 'variationId'])
// Live cart positions of a product (the quota engine) without reading the expired ones; also the keys' indexes.
@Index('ix_cart_position_item_expires', ['itemId', 'expires'])
@Index('ix_cart_position_variation_expires', ['variationId', 'expires'])
@Index(CART_POSITION_SEAT_INDEX, { synchronize: false })
export class CartPosition {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Index()
  @Column({ type: 'varchar', length: 255 })
  cartId!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  datetime!: Date;

  @Column({ type: 'timestamptz' })
  expires!: Date;

  @Column({ type: 'int' })
  itemId!: number;

  @ManyToOne(() => Item, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'item_id' })
  item?: Item;

  @Column({ type: 'int', nullable: true })
  variationId!: number | null;

  @ManyToOne(() => ItemVariation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'variation_id' })
  variation?: ItemVariation | null;

  @Column({ type: 'numeric', precision: 13, scale: 2 })
  price!: string;

  @Column({ type: 'jsonb', default: {} })
  attendeeNameParts!: Record<string, string>;

  @Column({ type: 'varchar', length: 254, nullable: true })
  attendeeEmail!: string | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  voucherId!: number | null;

  @ManyToOne(() => Voucher, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'voucher_id' })
  voucher?: Voucher | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  addonToId!: number | null;

  @ManyToOne(() => CartPosition, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'addon_to_id' })
  addonTo?: CartPosition | null;

  /** Date of a series (null for events without dates); deleted with the date. */
  @Index()
  @Column({ type: 'int', nullable: true })
  subeventId!: number | null;

  @ManyToOne(() => SubEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subevent_id' })
  subevent?: SubEvent | null;

  @Column({ type: 'boolean', default: true })
  includesTax!: boolean;

  /**
   * The reserved seat; the partial unique index {@link CART_POSITION_SEAT_INDEX} lets one cart position hold a seat
   * (expired positions holding a wanted seat are deleted under the seat's lock before another takes it).
   */
  @Column({ type: 'int', nullable: true })
  seatId!: number | null;

  @ManyToOne(() => Seat, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'seat_id' })
  seat?: Seat | null;

  @Column({ type: 'boolean', default: false })
  isBundled!: boolean;

  @Column({ type: 'varchar', length: 50, default: 'web' })
  salesChannel!: string;
}
