import { ApiProperty } from '@nestjs/swagger';
import { ApiDate, ApiDateTime, ApiEnum, ApiInt, ApiMoney, ApiPercent } from '../common/http/api-schemas';
import { isoUtc } from '../common/values/datetime';
import { type Invoice, type InvoiceLineData, TRANSMISSION_STATUSES } from './invoice.entity';

/** One invoice line (spec "Invoice", Line). */
export class InvoiceLineJson {
  /** 1-based line number. */
  @ApiInt()
  position!: number;
  description!: string;
  @ApiInt({ nullable: true })
  item!: number | null;
  @ApiInt({ nullable: true })
  variation!: number | null;
  @ApiInt({ nullable: true })
  subevent!: number | null;
  @ApiProperty({ type: String, nullable: true })
  fee_type!: string | null;
  @ApiProperty({ type: String, nullable: true })
  fee_internal_type!: string | null;
  /** Deprecated alias of `period_start`. */
  @ApiDateTime({ nullable: true })
  event_date_from!: string | null;
  /** Deprecated alias of `period_end`. */
  @ApiDateTime({ nullable: true })
  event_date_to!: string | null;
  /** Start of the service or delivery period of the line (null if not known). */
  @ApiDateTime({ nullable: true })
  period_start!: string | null;
  /** End of the service or delivery period of the line (null if not known). */
  @ApiDateTime({ nullable: true })
  period_end!: string | null;
  @ApiProperty({ type: String, nullable: true })
  event_location!: string | null;
  @ApiProperty({ type: String, nullable: true })
  attendee_name!: string | null;
  /** Gross amount, e.g. `"23.00"` (negative on a cancellation). */
  @ApiMoney()
  gross_value!: string;
  @ApiMoney()
  tax_value!: string;
  tax_name!: string;
  /** Codified reason for the tax rate (e.g. `S/standard`) or null. */
  @ApiProperty({ type: String, nullable: true })
  tax_code!: string | null;
  /** Percent, e.g. `"19.00"`. */
  @ApiPercent()
  tax_rate!: string;
}

/** Wire form of an invoice (spec "Invoice"; compat §3.24). Read-only. */
export class InvoiceJson {
  /** Invoice number with prefix, e.g. `DEMO-00001`. */
  number!: string;
  /** Event slug. */
  event!: string;
  /** Order code. */
  order!: string;
  is_cancellation!: boolean;
  invoice_from_name!: string;
  invoice_from!: string;
  invoice_from_zipcode!: string;
  invoice_from_city!: string;
  /** Sender state (only used in some countries). */
  invoice_from_state!: string;
  /** ISO 3166-1 alpha-2 code or `""`. */
  invoice_from_country!: string;
  invoice_from_tax_id!: string;
  invoice_from_vat_id!: string;
  /** The full recipient address, one part per line. */
  invoice_to!: string;
  /** Business (true) or individual recipient; null for invoices made before this field existed. */
  @ApiProperty({ type: Boolean, nullable: true })
  invoice_to_is_business!: boolean | null;
  invoice_to_company!: string;
  invoice_to_name!: string;
  invoice_to_street!: string;
  invoice_to_zipcode!: string;
  invoice_to_city!: string;
  invoice_to_state!: string;
  invoice_to_country!: string;
  invoice_to_vat_id!: string;
  invoice_to_beneficiary!: string;
  /** Additional transmission info of the recipient, e.g. `{"transmission_email_address": "..."}`. */
  @ApiProperty({ type: 'object', additionalProperties: true })
  invoice_to_transmission_info!: Record<string, unknown>;
  @ApiProperty({ type: String, nullable: true })
  custom_field!: string | null;
  @ApiDate()
  date!: string;
  /** Number of the invoice this one refers to (a cancellation: the canceled invoice). */
  @ApiProperty({ type: String, nullable: true })
  refers!: string | null;
  locale!: string;
  introductory_text!: string;
  additional_text!: string;
  payment_provider_text!: string;
  payment_provider_stamp!: string;
  footer_text!: string;
  internal_reference!: string;
  @ApiProperty({ type: [InvoiceLineJson] })
  lines!: InvoiceLineJson[];
  @ApiProperty({ type: String, nullable: true })
  foreign_currency_display!: string | null;
  @ApiProperty({ type: String, nullable: true })
  foreign_currency_rate!: string | null;
  @ApiDate({ nullable: true })
  foreign_currency_rate_date!: string | null;
  /** Requested transmission channel, e.g. `email`. */
  transmission_type!: string;
  /** Provider that transmitted the invoice (`email_pdf`), null until chosen. */
  @ApiProperty({ type: String, nullable: true })
  transmission_provider!: string | null;
  @ApiEnum(TRANSMISSION_STATUSES)
  transmission_status!: string;
  /** Time of the last change of `transmission_status`. */
  @ApiDateTime({ nullable: true })
  transmission_date!: string | null;
}

/** The stored texts of an invoice (sender, recipient, printed texts) by wire name. */
export const INVOICE_TEXT_FIELDS = [
  'invoice_from_name',
  'invoice_from',
  'invoice_from_zipcode',
  'invoice_from_city',
  'invoice_from_state',
  'invoice_from_country',
  'invoice_from_tax_id',
  'invoice_from_vat_id',
  'invoice_to',
  'invoice_to_company',
  'invoice_to_name',
  'invoice_to_street',
  'invoice_to_zipcode',
  'invoice_to_city',
  'invoice_to_state',
  'invoice_to_country',
  'invoice_to_vat_id',
  'invoice_to_beneficiary',
  'introductory_text',
  'additional_text',
  'payment_provider_text',
  'payment_provider_stamp',
  'footer_text',
  'internal_reference',
] as const;

export type InvoiceTextField = (typeof INVOICE_TEXT_FIELDS)[number];

/** Related values a presented invoice needs besides its row. */
export interface InvoiceRefs {
  eventSlug: string;
  refersNumber: string | null;
}

/** `YYYY-MM-DD` of a `date` column (a string, or the local-midnight Date node-postgres may give). */
export function dateOnly(v: string | Date): string {
  if (typeof v === 'string') return v.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())}`;
}

/** Invoice row -> wire object, field by field. */
export function toInvoiceJson(inv: Invoice, refs: InvoiceRefs): InvoiceJson {
  const text = (k: InvoiceTextField): string => inv.texts[k] ?? '';
  return {
    number: inv.number,
    event: refs.eventSlug,
    order: inv.orderCode,
    is_cancellation: inv.isCancellation,
    invoice_from_name: text('invoice_from_name'),
    invoice_from: text('invoice_from'),
    invoice_from_zipcode: text('invoice_from_zipcode'),
    invoice_from_city: text('invoice_from_city'),
    invoice_from_state: text('invoice_from_state'),
    invoice_from_country: text('invoice_from_country'),
    invoice_from_tax_id: text('invoice_from_tax_id'),
    invoice_from_vat_id: text('invoice_from_vat_id'),
    invoice_to: text('invoice_to'),
    invoice_to_is_business: inv.invoiceToIsBusiness,
    invoice_to_company: text('invoice_to_company'),
    invoice_to_name: text('invoice_to_name'),
    invoice_to_street: text('invoice_to_street'),
    invoice_to_zipcode: text('invoice_to_zipcode'),
    invoice_to_city: text('invoice_to_city'),
    invoice_to_state: text('invoice_to_state'),
    invoice_to_country: text('invoice_to_country'),
    invoice_to_vat_id: text('invoice_to_vat_id'),
    invoice_to_beneficiary: text('invoice_to_beneficiary'),
    invoice_to_transmission_info: inv.invoiceToTransmissionInfo ?? {},
    custom_field: inv.texts.custom_field ?? null,
    date: dateOnly(inv.date),
    refers: refs.refersNumber,
    locale: inv.locale,
    introductory_text: text('introductory_text'),
    additional_text: text('additional_text'),
    payment_provider_text: text('payment_provider_text'),
    payment_provider_stamp: text('payment_provider_stamp'),
    footer_text: text('footer_text'),
    internal_reference: text('internal_reference'),
    lines: inv.lines.map(toLineJson),
    foreign_currency_display: null,
    foreign_currency_rate: null,
    foreign_currency_rate_date: null,
    transmission_type: inv.transmissionType,
    transmission_provider: inv.transmissionProvider,
    transmission_status: inv.transmissionStatus,
    transmission_date: isoUtc(inv.transmissionDate),
  };
}

/**
 * A stored line on the wire; lines stored before the service period existed show their event dates as period
 * (pretix's migration did the same) and no tax code.
 */
function toLineJson(l: InvoiceLineData): InvoiceLineJson {
  const start = l.period_start !== undefined ? l.period_start : l.event_date_from;
  const end = l.period_end !== undefined ? l.period_end : (l.event_date_to ?? l.event_date_from);
  return {
    position: l.position,
    description: l.description,
    item: l.item,
    variation: l.variation,
    subevent: l.subevent,
    fee_type: l.fee_type,
    fee_internal_type: l.fee_internal_type,
    event_date_from: start,
    event_date_to: end,
    period_start: start,
    period_end: end,
    event_location: l.event_location,
    attendee_name: l.attendee_name,
    gross_value: l.gross_value,
    tax_value: l.tax_value,
    tax_name: l.tax_name,
    tax_code: l.tax_code ?? null,
    tax_rate: l.tax_rate,
  };
}
