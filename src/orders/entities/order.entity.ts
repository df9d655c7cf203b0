import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Event } from '../../organizers/event.entity';

/** Expression index `lower(email)` (migration `OrderExactFilters`): the case-insensitive `email` filter. */
export const ORDERS_EMAIL_CI_INDEX = 'ix_orders_email_ci';

/** Order states (compat §4.4): pending, paid, expired, canceled. */
export type OrderStatus = 'n' | 'p' | 'e' | 'c';

/**
 * An order (compat §4.4). Codes are unique per organizer. Table `orders` (ORDER is an SQL keyword).
 * `last_modified` moves on every change and feeds `modified_since`.
 */
@Entity('orders')
@Index('uq_orders_organizer_code', ['organizerId', 'code'], { unique: true })
@Index('ix_orders_event_modified', ['eventId', 'lastModified'])
@Index('ix_orders_organizer_customer', ['organizerId', 'customer'], { where: 'customer IS NOT NULL' })
/** The scheduler's search for pending orders past their deadline (README "Selling without overselling"). */
@Index('ix_orders_pending_expires', ['expires', 'id'], { where: `status = 'n'` })
/**
 * The exact filters of the order lists (README "Exact filters"): `datetime_since`/`datetime_until` and the default
 * ordering, `status`/`status__in`, per event and per organizer; `email` case-insensitively (`lower(email)`, an
 * expression index from migration `OrderExactFilters`).
 */
@Index('ix_orders_event_datetime', ['eventId', 'datetime'])
@Index('ix_orders_organizer_datetime', ['organizerId', 'datetime'])
@Index('ix_orders_event_status_datetime', ['eventId', 'status', 'datetime'])
@Index('ix_orders_organizer_status_datetime', ['organizerId', 'status', 'datetime'])
@Index(ORDERS_EMAIL_CI_INDEX, { synchronize: false })
export class Order {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'int' })
  organizerId!: number;

  @Column({ type: 'varchar', length: 16 })
  code!: string;

  @Column({ type: 'char', length: 1, default: 'n' })
  status!: OrderStatus;

  @Column({ type: 'boolean', default: false })
  testmode!: boolean;

  @Column({ type: 'varchar', length: 32 })
  secret!: string;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  phone!: string | null;

  @Column({ type: 'varchar', length: 32, default: 'en' })
  locale!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  datetime!: Date;

  @Column({ type: 'timestamptz' })
  expires!: Date;

  @Column({ type: 'numeric', precision: 13, scale: 2, default: 0 })
  total!: string;

  @Column({ type: 'text', default: '' })
  comment!: string;

  @Column({ type: 'date', nullable: true })
  customFollowupAt!: string | null;

  @Column({ type: 'boolean', default: false })
  checkinAttention!: boolean;

  @Column({ type: 'text', nullable: true })
  checkinText!: string | null;

  @Column({ type: 'boolean', default: false })
  requireApproval!: boolean;

  @Column({ type: 'boolean', default: false })
  validIfPending!: boolean;

  @Column({ type: 'varchar', length: 50, default: 'web' })
  salesChannel!: string;

  @Column({ type: 'timestamptz', nullable: true })
  cancellationDate!: Date | null;

  @Column({ type: 'jsonb', default: {} })
  apiMeta!: Record<string, unknown>;

  /**
   * Identifier of the customer account the order belongs to (pretix `customer`), or null; set on creation, cleared
   * when the customer is anonymized (the customers context's `CUSTOMER_LINKS` port).
   */
  @Column({ type: 'varchar', length: 190, nullable: true })
  customer!: string | null;

  /** pretix `tax_rounding_mode` (2025.10): `line` (default), `sum_by_net`, `sum_by_net_keep_gross`. */
  @Column({ type: 'varchar', length: 100, default: 'line' })
  taxRoundingMode!: string;

  /** pretix `plugin_data` (2025.2): free JSON object, `{}` by default. */
  @Column({ type: 'jsonb', default: {} })
  pluginData!: Record<string, unknown>;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastModified!: Date;
}
