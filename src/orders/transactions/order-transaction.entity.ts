import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Event } from '../../organizers/event.entity';
import { Order } from '../entities/order.entity';

/**
 * One row of the order transaction log (pretix 2025.7 "Transactions", `E/transactions/`): `count` (usually ±1)
 * times a sold line (a position: `positionid`, `item_id`, …; or a fee: `fee_type`, `internal_type`) at `datetime`.
 * Immutable: rows are only inserted, by `OrderTransactionLog.sync`, and go with their order when a test-mode order
 * is deleted. `sum(price * count)` over an order's rows is its total while it counts (pending or paid, not
 * awaiting approval), 0 otherwise. The catalogue ids are kept without foreign keys: the log is history.
 */
@Entity('order_transaction')
@Index('ix_order_transaction_event_datetime', ['eventId', 'datetime', 'id'])
@Index('ix_order_transaction_organizer_datetime', ['organizerId', 'datetime', 'id'])
export class OrderTransaction {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  orderId!: number;

  @ManyToOne(() => Order, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id' })
  order?: Order;

  /** The order's event (denormalised for the event-scoped list). */
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  /** The order's organizer (denormalised for `O/transactions/`). */
  @Column({ type: 'int' })
  organizerId!: number;

  /** When the row was written (UTC). */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  /** When the change it records happened (UTC). */
  @Column({ type: 'timestamptz' })
  datetime!: Date;

  /** Written by the backfill of orders that existed before the log (pretix `migrated`). */
  @Column({ type: 'boolean', default: false })
  migrated!: boolean;

  /** The position's number within its order; null for a fee. */
  @Column({ type: 'int', nullable: true })
  positionid!: number | null;

  /** How many of this line were added (positive) or taken away (negative). */
  @Column({ type: 'int' })
  count!: number;

  @Column({ type: 'int', nullable: true })
  itemId!: number | null;

  @Column({ type: 'int', nullable: true })
  variationId!: number | null;

  @Column({ type: 'int', nullable: true })
  subeventId!: number | null;

  /** Gross price of one (money). */
  @Column({ type: 'numeric', precision: 13, scale: 2 })
  price!: string;

  @Column({ type: 'numeric', precision: 10, scale: 2 })
  taxRate!: string;

  @Column({ type: 'int', nullable: true })
  taxRuleId!: number | null;

  @Column({ type: 'varchar', length: 190, nullable: true })
  taxCode!: string | null;

  /** Tax contained in `price` (money). */
  @Column({ type: 'numeric', precision: 13, scale: 2 })
  taxValue!: string;

  /** The fee's type; null for a position. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  feeType!: string | null;

  /** The fee's internal type; null for a position. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  internalType!: string | null;
}
