import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Item } from '../../catalogue/items/item.entity';
import { TaxRule } from '../../catalogue/tax-rules/tax-rule.entity';
import { ItemVariation } from '../../catalogue/variations/item-variation.entity';
import { Voucher } from '../../catalogue/vouchers/voucher.entity';
import { Discount } from '../../catalogue/discounts/discount.entity';
import { Event } from '../../organizers/event.entity';
import { Order } from './order.entity';
import { SubEvent } from '../../organizers/subevents/subevent.entity';
import { Seat } from '../../seating/seat.entity';

/** Partial unique index over `live_seat_id` (migration `SeatedSales`): one live position per seat. */
export const ORDER_POSITION_LIVE_SEAT_INDEX = 'uq_order_position_live_seat';

/**
 * Expression indexes of the exact filters (migration `OrderExactFilters`, README "Exact filters"):
 * `lower(attendee_email)`, and `lower(attendee_name_of(attendee_name_parts))`, the attendee name as the API shows
 * it (`nameFromParts`), computed by the SQL function `attendee_name_of` of that migration.
 */
export const ORDER_POSITION_ATTENDEE_EMAIL_CI_INDEX = 'ix_order_position_attendee_email_ci';
export const ORDER_POSITION_ATTENDEE_NAME_CI_INDEX = 'ix_order_position_attendee_name_ci';

/**
 * A ticket or product line of an order (compat §4.4 "Position fields"). `event_id` is denormalised so that quota
 * counting and event-scoped lists need no join. Items and variations that have been ordered cannot be deleted
 * (the service refuses first; the keys are the backstop).
 */
@Entity('order_position')
@Index('uq_order_position_event_secret', ['eventId', 'secret'], { unique: true })
@Index('ix_order_position_event_product', ['eventId', 'itemId', 'variationId'])
@Index('ix_order_position_event_changed', ['eventId', 'changedXid'])
@Index(ORDER_POSITION_LIVE_SEAT_INDEX, { synchronize: false })
/** Ticket secret across events: `secret` on organizer-wide lists and on order lists (orders with that ticket). */
@Index('ix_order_position_secret', ['secret'])
@Index(ORDER_POSITION_ATTENDEE_EMAIL_CI_INDEX, { synchronize: false })
@Index(ORDER_POSITION_ATTENDEE_NAME_CI_INDEX, { synchronize: false })
export class OrderPosition {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  orderId!: number;

  @ManyToOne(() => Order, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id' })
  order?: Order;

  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  /** 1-based number within the order. */
  @Column({ type: 'int' })
  positionid!: number;

  @Index()
  @Column({ type: 'int' })
  itemId!: number;

  @ManyToOne(() => Item, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'item_id' })
  item?: Item;

  @Index()
  @Column({ type: 'int', nullable: true })
  variationId!: number | null;

  @ManyToOne(() => ItemVariation, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'variation_id' })
  variation?: ItemVariation | null;

  /** Date of a series (null for events without dates); a date with positions cannot be deleted. */
  @Index()
  @Column({ type: 'int', nullable: true })
  subeventId!: number | null;

  @ManyToOne(() => SubEvent, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'subevent_id' })
  subevent?: SubEvent | null;

  @Column({ type: 'numeric', precision: 13, scale: 2 })
  price!: string;

  @Column({ type: 'numeric', precision: 10, scale: 2, default: 0 })
  taxRate!: string;

  @Column({ type: 'numeric', precision: 13, scale: 2, default: 0 })
  taxValue!: string;

  @Index()
  @Column({ type: 'int', nullable: true })
  taxRuleId!: number | null;

  @ManyToOne(() => TaxRule, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'tax_rule_id' })
  taxRule?: TaxRule | null;

  /** Codified reason for the tax rate (pretix `tax_code`, 2025.1): the tax rule's `code` when priced, or null. */
  @Column({ type: 'varchar', length: 190, nullable: true })
  taxCode!: string | null;

  @Column({ type: 'jsonb', default: {} })
  attendeeNameParts!: Record<string, string>;

  @Column({ type: 'varchar', length: 254, nullable: true })
  attendeeEmail!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  company!: string | null;

  @Column({ type: 'text', nullable: true })
  street!: string | null;

  @Column({ type: 'varchar', length: 30, nullable: true })
  zipcode!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  city!: string | null;

  @Column({ type: 'varchar', length: 2, nullable: true })
  country!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  state!: string | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  voucherId!: number | null;

  @ManyToOne(() => Voucher, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'voucher_id' })
  voucher?: Voucher | null;

  /** Part of the voucher's budget this position used (money), or null. */
  @Column({ type: 'numeric', precision: 13, scale: 2, nullable: true })
  voucherBudgetUse!: string | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  addonToId!: number | null;

  @ManyToOne(() => OrderPosition, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'addon_to_id' })
  addonTo?: OrderPosition | null;

  @Column({ type: 'boolean', default: false })
  isBundled!: boolean;

  @Column({ type: 'varchar', length: 64 })
  secret!: string;

  @Column({ type: 'varchar', length: 16 })
  pseudonymizationId!: string;

  /** The seat sold with the position (kept when the order is canceled or expires, for the record). */
  @Index()
  @Column({ type: 'int', nullable: true })
  seatId!: number | null;

  @ManyToOne(() => Seat, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'seat_id' })
  seat?: Seat | null;

  /**
   * `seat_id` while the position holds its seat (order pending or paid, position not canceled), else null; the
   * partial unique index {@link ORDER_POSITION_LIVE_SEAT_INDEX} sells a seat at most once. Maintained by
   * `OrderWriter` (create and every state change).
   */
  @Column({ type: 'int', nullable: true })
  liveSeatId!: number | null;

  @ManyToOne(() => Seat, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'live_seat_id' })
  liveSeat?: Seat | null;

  @Column({ type: 'boolean', default: false })
  canceled!: boolean;

  /**
   * Set when an order cancel (or deny) canceled this position, cleared when `reactivate` revives it: reactivating
   * revives only these, so that a position canceled on its own stays canceled.
   */
  @Column({ type: 'boolean', default: false })
  canceledWithOrder!: boolean;

  /**
   * Whether the last successful scan of this position was an exit. Maintained by a trigger on `checkin` (migration
   * `ProductSalesCounts`), never written by code: it feeds the maintained `exited` count of {@link ProductSales}.
   */
  @Column({ type: 'boolean', default: false })
  exited!: boolean;

  /**
   * Names of the blocks on the ticket (pretix `blocked`, e.g. `["admin"]`), or null when it is not blocked; a
   * blocked ticket is refused at check-in with reason `blocked`. Written only by `PositionBlocking`.
   */
  @Column({ type: 'jsonb', nullable: true })
  blocked!: string[] | null;

  @Column({ type: 'timestamptz', nullable: true })
  validFrom!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  validUntil!: Date | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  discountId!: number | null;

  @ManyToOne(() => Discount, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'discount_id' })
  discount?: Discount | null;

  /**
   * The last transaction that changed what a scanner's mirror shows of this row (`pg_current_xact_id()`; kept by
   * the triggers of migration `ScannerDeltaStamps`, never written by the application; 0 before it).
   */
  @Column({ name: 'changed_xid', type: 'bigint', default: '0', select: false, insert: false, update: false })
  changedXid?: string;
}
