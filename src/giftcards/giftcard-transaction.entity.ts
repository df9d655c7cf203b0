import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Order } from '../orders/entities/order.entity';
import { OrderPayment } from '../orders/entities/order-payment.entity';
import { OrderRefund } from '../orders/entities/order-refund.entity';
import { Event } from '../organizers/event.entity';
import { Organizer } from '../organizers/organizer.entity';
import { GiftCard } from './giftcard.entity';

/**
 * One change of a gift card's value (spec "Gift card transaction"; compat §3.4): the initial value, a PATCH of
 * `value` (the difference), a `transact/` call, or an order's gift card payment (negative) or refund (positive),
 * which also name the event, order and payment or refund (pretix `GiftCardTransaction`). Never changed or
 * deleted; the links become null when their rows go (a deleted test-mode order).
 */
@Entity('giftcard_transaction')
@Index('ix_giftcard_transaction_card', ['giftcardId', 'id'])
export class GiftCardTransaction {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  giftcardId!: number;

  @ManyToOne(() => GiftCard, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'giftcard_id' })
  giftcard?: GiftCard;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  datetime!: Date;

  /** Amount, positive or negative, `numeric(13,2)`. */
  @Column({ type: 'numeric', precision: 13, scale: 2 })
  value!: string;

  @Column({ type: 'text', nullable: true })
  text!: string | null;

  /** Additional data of the client (compat §3.4 `info`). */
  @Column({ type: 'jsonb', nullable: true })
  info!: Record<string, unknown> | null;

  /** The organizer that booked the transaction (the issuer, or an organizer accepting its cards). */
  @Index()
  @Column({ type: 'int' })
  acceptorId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'acceptor_id' })
  acceptor?: Organizer;

  /** The event of the order paid or refunded (pretix `event`), else null. */
  @Index()
  @Column({ type: 'int', nullable: true })
  eventId!: number | null;

  @ManyToOne(() => Event, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'event_id' })
  event?: Event | null;

  /** The order paid or refunded with the card (pretix `order`), else null. */
  @Index()
  @Column({ type: 'int', nullable: true })
  orderId!: number | null;

  @ManyToOne(() => Order, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'order_id' })
  order?: Order | null;

  /** The order payment that took the value (pretix `payment`), else null. */
  @Index()
  @Column({ type: 'int', nullable: true })
  paymentId!: number | null;

  @ManyToOne(() => OrderPayment, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'payment_id' })
  payment?: OrderPayment | null;

  /** The order refund that put the value on the card (pretix `refund`), else null. */
  @Index()
  @Column({ type: 'int', nullable: true })
  refundId!: number | null;

  @ManyToOne(() => OrderRefund, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'refund_id' })
  refund?: OrderRefund | null;
}
