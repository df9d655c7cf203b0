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
  /** Service period of the line (UTC ISO datetimes; pretix 2025.x `period_start`/`period_end`); absent on older rows. */
  period_start?: string | null;
  period_end?: string | null;
  /** Codified tax reason of the position or fee (e.g. `S/standard`), null when none; absent on older rows. */
  tax_code?: string | null;
}

/** pretix `Invoice.transmission_status` choices (`unknown`: invoices made before the fields existed). */
export const TRANSMISSION_STATUSES = ['unknown', 'pending', 'inflight', 'failed', 'completed'] as const;
export type TransmissionStatus = (typeof TRANSMISSION_STATUSES)[number];

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

  /** The recipient is a business (the order's invoice address `is_business`); null without an address. */
  @Column({ type: 'boolean', nullable: true })
  invoiceToIsBusiness!: boolean | null;

  /** The address's `transmission_info` when the invoice was made (e.g. `transmission_email_address`). */
  @Column({ type: 'jsonb', default: {} })
  invoiceToTransmissionInfo!: Record<string, unknown>;

  /** Requested transmission channel (pretix `transmission_type`): `email` unless the address asks another one. */
  @Column({ type: 'varchar', length: 64, default: 'email' })
  transmissionType!: string;

  /** Provider that transmitted (or tried to): `email_pdf`; null until one was chosen. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  transmissionProvider!: string | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  transmissionStatus!: TransmissionStatus;

  /** Time of the last change of `transmissionStatus`. */
  @Column({ type: 'timestamptz', nullable: true })
  transmissionDate!: Date | null;

  /** Internal record of the transmission (pretix `transmission_info`: `{"sent": [{recipients, datetime}]}`); not on the wire. */
  @Column({ type: 'jsonb', default: {} })
  transmissionInfo!: Record<string, unknown>;

  /** The outbox mail of the running e-mail transmission (its outcome completes or fails the transmission). */
  @Index()
  @Column({ type: 'int', nullable: true })
  transmissionMailId!: number | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;
}
