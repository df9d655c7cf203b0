import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Order } from './order.entity';

/** A payment of an order, addressed by `local_id` (1-based per order; compat §4.4). */
@Entity('order_payment')
@Index('uq_order_payment_local_id', ['orderId', 'localId'], { unique: true })
export class OrderPayment {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  orderId!: number;

  @ManyToOne(() => Order, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id' })
  order?: Order;

  @Column({ type: 'int' })
  localId!: number;

  /** `created`, `pending`, `confirmed`, `canceled`, `failed`, `refunded`. */
  @Column({ type: 'varchar', length: 20 })
  state!: string;

  @Column({ type: 'numeric', precision: 13, scale: 2 })
  amount!: string;

  @Column({ type: 'varchar', length: 100 })
  provider!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  paymentDate!: Date | null;

  @Column({ type: 'jsonb', default: {} })
  info!: Record<string, unknown>;
}
