import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Order } from './order.entity';

/** The invoice address of an order (compat §4.4 `invoice_address`). */
@Entity('invoice_address')
export class InvoiceAddress {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('uq_invoice_address_order', { unique: true })
  @Column({ type: 'int' })
  orderId!: number;

  @OneToOne(() => Order, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id' })
  order?: Order;

  @Column({ type: 'boolean', default: false })
  isBusiness!: boolean;

  @Column({ type: 'varchar', length: 255, default: '' })
  company!: string;

  @Column({ type: 'jsonb', default: {} })
  nameParts!: Record<string, string>;

  @Column({ type: 'text', default: '' })
  street!: string;

  @Column({ type: 'varchar', length: 30, default: '' })
  zipcode!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  city!: string;

  @Column({ type: 'varchar', length: 2, default: '' })
  country!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  state!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  vatId!: string;

  @Column({ type: 'boolean', default: false })
  vatIdValidated!: boolean;

  @Column({ type: 'varchar', length: 255, nullable: true })
  customField!: string | null;

  @Column({ type: 'varchar', length: 255, default: '' })
  internalReference!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  beneficiary!: string;

  /** How invoices reach the customer (`email`, pretix 2025.6). */
  @Column({ type: 'varchar', length: 255, default: 'email' })
  transmissionType!: string;

  /** Type-specific transmission details (for `email`: `transmission_email_address`, …). */
  @Column({ type: 'jsonb', default: {} })
  transmissionInfo!: Record<string, string | boolean>;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastModified!: Date;
}
