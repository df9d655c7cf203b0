import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Order } from './order.entity';
import { OrderPayment } from './order-payment.entity';

/**
 * A refund of an order, addressed by `local_id` (1-based per order, own numbering; pretix doc "Order refund
 * endpoints"), optionally of one of its payments.
 */
@Entity('order_refund')
@Index('uq_order_refund_local_id', ['orderId', 'localId'], { unique: true })
@Index('idx_order_refund_payment', ['paymentId'])
export class OrderRefund {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  orderId!: number;

  @ManyToOne(() => Order, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id' })
  order?: Order;

  @Column({ type: 'int' })
  localId!: number;

  /** `created`, `transit`, `done`, `failed`, `canceled`, `external`. */
  @Column({ type: 'varchar', length: 20 })
  state!: string;

  /** `admin`, `buyer`, `external`. */
  @Column({ type: 'varchar', length: 20 })
  source!: string;

  @Column({ type: 'numeric', precision: 13, scale: 2 })
  amount!: string;

  /** The refunded payment (its row id; presented as its `local_id`), or null. */
  @Column({ type: 'int', nullable: true })
  paymentId!: number | null;

  @ManyToOne(() => OrderPayment, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'payment_id' })
  payment?: OrderPayment;

  @Column({ type: 'varchar', length: 100 })
  provider!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  executionDate!: Date | null;

  @Column({ type: 'text', nullable: true })
  comment!: string | null;

  @Column({ type: 'jsonb', default: {} })
  info!: Record<string, unknown>;
}
