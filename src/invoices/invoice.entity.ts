import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Order } from '../orders/entities/order.entity';
import { Event } from '../organizers/event.entity';

/** One line of an invoice as stored (spec "Invoice" line; money as strings, `tax_rate` in percent). */
export interface InvoiceLineData {
  position: number;
  description: string;
  item: number | null;
  variation: number | null;
  subevent: number | null;
  fee_type: string | null;
  fee_internal_type: string | null;
  event_date_from: string | null;
  event_date_to: string | null;
  event_location: string | null;
  attendee_name: string | null;
  gross_value: string;
  tax_value: string;
  tax_name: string;
  tax_rate: string;
}

/**
 * An invoice of an order (spec "Invoice"; compat §3.24), never edited by clients: created by `create_invoice/`,
 * automatically (setting `invoice_generate`), by `reissue/` and by cancelling an order. Its number is
 * `prefix` + `invoice_no` (five digits), gap-free per event and prefix ({@link InvoiceCounter}). The PDF is
 * rendered by the worker into `stored_file` (`pdf_file_id`); `pdf_generation` counts the renders asked for, so a
 * render of stale data never overwrites a newer one.
 */
@Entity('invoice')
@Index('uq_invoice_event_number', ['eventId', 'number'], { unique: true })
export class Invoice {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  organizerId!: number;

  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Index()
  @Column({ type: 'int' })
  orderId!: number;

  @ManyToOne(() => Order, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id' })
  order?: Order;

  /** The order's code (never changes), kept for the lists. */
  @Column({ type: 'varchar', length: 16 })
  orderCode!: string;

  @Column({ type: 'varchar', length: 160 })
  prefix!: string;

  @Column({ type: 'int' })
  invoiceNo!: number;

  /** `prefix` + `invoice_no` zero-padded to five digits, e.g. `DEMO-00001`. */
  @Column({ type: 'varchar', length: 190 })
  number!: string;

  @Column({ type: 'boolean', default: false })
  isCancellation!: boolean;

  /** Whether a cancellation invoice refers to this one (reissue/regenerate then answer 400). */
  @Column({ type: 'boolean', default: false })
  canceled!: boolean;

  /** The invoice a cancellation refers to. */
  @Index()
  @Column({ type: 'int', nullable: true })
  refersId!: number | null;

  @ManyToOne(() => Invoice, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'refers_id' })
  refers?: Invoice | null;

  @Column({ type: 'date' })
  date!: string;

  @Column({ type: 'varchar', length: 50 })
  locale!: string;

  @Column({ type: 'varchar', length: 10 })
  currency!: string;

  /** Sender and recipient parts, texts (spec "Invoice"): wire name -> value. */
  @Column({ type: 'jsonb' })
  texts!: Record<string, string | null>;

  @Column({ type: 'jsonb' })
  lines!: InvoiceLineData[];

  /** The rendered PDF (`stored_file` id), null until the worker stored it. */
  @Column({ type: 'uuid', nullable: true })
  pdfFileId!: string | null;

  /** Renders asked for so far; the worker stores its PDF only when it rendered the latest one. */
  @Column({ type: 'int', default: 1 })
  pdfGeneration!: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;
}
