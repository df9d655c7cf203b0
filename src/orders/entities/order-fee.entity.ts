import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Order } from './order.entity';

/** A fee of an order (`payment`, `shipping`, `service`, `cancellation`, `insurance`, `late`, `other`, `giftcard`). */
@Entity('order_fee')
export class OrderFee {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  orderId!: number;

  @ManyToOne(() => Order, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id' })
  order?: Order;

  @Column({ type: 'varchar', length: 100 })
  feeType!: string;

  @Column({ type: 'numeric', precision: 13, scale: 2 })
  value!: string;

  @Column({ type: 'varchar', length: 190, default: '' })
  description!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  internalType!: string;

  @Column({ type: 'numeric', precision: 10, scale: 2, default: 0 })
  taxRate!: string;

  @Column({ type: 'numeric', precision: 13, scale: 2, default: 0 })
  taxValue!: string;

  @Column({ type: 'int', nullable: true })
  taxRuleId!: number | null;

  /** Codified reason for the tax rate (pretix `tax_code`, 2025.1): the tax rule's `code`, or null. */
  @Column({ type: 'varchar', length: 190, nullable: true })
  taxCode!: string | null;

  @Column({ type: 'boolean', default: false })
  canceled!: boolean;

  /**
   * Whether the order cancel canceled this fee (set with `canceled` by `mark_canceled`/`deny`); `reactivate`
   * revives only these, so that a fee canceled on its own by an order change stays canceled.
   */
  @Column({ type: 'boolean', default: false })
  canceledWithOrder!: boolean;
}
