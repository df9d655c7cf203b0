import { i18nText, type I18nString } from '../common/values/i18n';
import { isoUtc } from '../common/values/datetime';
import { Decimal, toMoney } from '../common/values/money';
import type { InvoiceAddressJson, OrderJson } from '../orders/presentation/order.presenter';
import type { InvoiceLineData } from './invoice.entity';
import type { EventSettings } from './invoice-settings.rules';
import { feePeriod, positionPeriod, type PeriodContext } from './invoice-period.rules';

/** Printed labels of fee types (pretix's fee type names). */
const FEE_LABELS: Record<string, string> = {
  payment: 'Payment fee',
  shipping: 'Shipping fee',
  service: 'Service fee',
  cancellation: 'Cancellation fee',
  insurance: 'Insurance fee',
  late: 'Late fee',
  giftcard: 'Gift card',
  other: 'Other fees',
};

/** Text of a multi-lingual string in `locale`, falling back to the default language. */
export function localized(value: I18nString | null | undefined, locale: string): string {
  if (!value) return '';
  return value[locale] ?? value[locale.split('-')[0]] ?? i18nText(value);
}

/** Where and when a line's ticket is valid: the sub-event's data, else the event's. */
export interface LineDate {
  name: string | null;
  from: Date;
  to: Date | null;
  location: string | null;
}

/** What the lines are built from besides the order. */
export interface LineLabels {
  items: ReadonlyMap<number, I18nString>;
  variations: ReadonlyMap<number, I18nString>;
  taxRules: ReadonlyMap<number, I18nString>;
  /** Dates of a series by id; `event` for positions without one. */
  subevents: ReadonlyMap<number, LineDate>;
  event: LineDate;
  /** Whether the event is a series, and when the invoice is made (service periods). */
  hasSubevents: boolean;
  now: Date;
}

const iso = (d: Date | null): string | null => isoUtc(d);

/**
 * The lines of an invoice for the order as it is now (spec "Invoice" Line): one per active position (product and
 * variation, the sub-event's name on a second line, attendee, location of the sub-event or the event), then one
 * per active fee; gross and tax per line, the tax rule's name and the tax code. Service periods follow
 * {@link positionPeriod} / {@link feePeriod}; `event_date_from`/`event_date_to` are their deprecated aliases
 * (pretix 2025.x, test_invoices.py).
 */
export function invoiceLines(order: OrderJson, labels: LineLabels, locale: string): InvoiceLineData[] {
  const lines: InvoiceLineData[] = [];
  const ctx: PeriodContext = {
    hasSubevents: labels.hasSubevents,
    eventFrom: labels.event.from,
    eventTo: labels.event.to,
    orderDatetime: new Date(order.datetime),
    now: labels.now,
  };
  const periods: { start: Date; end: Date }[] = [];
  for (const p of order.positions) {
    if (p.canceled) continue;
    const date = p.subevent !== null ? (labels.subevents.get(p.subevent) ?? labels.event) : labels.event;
    const product = localized(labels.items.get(p.item), locale) || `#${p.item}`;
    const variation = p.variation !== null ? localized(labels.variations.get(p.variation), locale) : '';
    const description = [
      variation ? `${product} – ${variation}` : product,
      ...(p.subevent !== null && date.name ? [date.name] : []),
    ].join('\n');
    const sub = p.subevent !== null ? labels.subevents.get(p.subevent) : undefined;
    const period = positionPeriod(
      {
        validFrom: p.valid_from ? new Date(p.valid_from) : null,
        validUntil: p.valid_until ? new Date(p.valid_until) : null,
        subevent: sub ? { from: sub.from, to: sub.to } : null,
      },
      ctx,
    );
    periods.push(period);
    lines.push({
      position: lines.length + 1,
      description,
      item: p.item,
      variation: p.variation,
      subevent: p.subevent,
      fee_type: null,
      fee_internal_type: null,
      event_date_from: iso(period.start),
      event_date_to: iso(period.end),
      period_start: iso(period.start),
      period_end: iso(period.end),
      event_location: date.location,
      attendee_name: p.attendee_name,
      gross_value: toMoney(p.price),
      tax_value: toMoney(p.tax_value),
      tax_name: p.tax_rule !== null ? localized(labels.taxRules.get(p.tax_rule), locale) : '',
      tax_rate: toMoney(p.tax_rate),
      tax_code: p.tax_code ?? null,
    });
  }
  const fees = feePeriod(periods, ctx);
  for (const f of order.fees) {
    if (f.canceled) continue;
    lines.push({
      position: lines.length + 1,
      description: f.description || FEE_LABELS[f.fee_type] || f.fee_type,
      item: null,
      variation: null,
      subevent: null,
      fee_type: f.fee_type,
      fee_internal_type: f.internal_type || null,
      event_date_from: iso(fees.start),
      event_date_to: iso(fees.end),
      period_start: iso(fees.start),
      period_end: iso(fees.end),
      event_location: null,
      attendee_name: null,
      gross_value: toMoney(f.value),
      tax_value: toMoney(f.tax_value),
      tax_name: f.tax_rule !== null ? localized(labels.taxRules.get(f.tax_rule), locale) : '',
      tax_rate: toMoney(f.tax_rate),
      tax_code: f.tax_code ?? null,
    });
  }
  return lines;
}

/** The lines of a cancellation: the same lines with negated amounts. */
export function negatedLines(lines: readonly InvoiceLineData[]): InvoiceLineData[] {
  return lines.map((l) => ({
    ...l,
    gross_value: toMoney(new Decimal(l.gross_value).neg()),
    tax_value: toMoney(new Decimal(l.tax_value).neg()),
  }));
}

/** Name of a country (English) for printing, or the code when unknown. */
export function countryName(code: string): string {
  if (!code) return '';
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** The recipient parts from the order's invoice address (spec "Invoice" `invoice_to_*`). */
export function recipientTexts(address: InvoiceAddressJson | null): Record<string, string | null> {
  const a = address;
  const cityLine = [a?.zipcode ?? '', a?.city ?? ''].filter((x) => x !== '').join(' ');
  const invoiceTo = [a?.company, a?.name, a?.street, cityLine, a?.state, a ? countryName(a.country) : '']
    .filter((x): x is string => typeof x === 'string' && x.trim() !== '')
    .join('\n');
  return {
    invoice_to: invoiceTo,
    invoice_to_company: a?.company ?? '',
    invoice_to_name: a?.name ?? '',
    invoice_to_street: a?.street ?? '',
    invoice_to_zipcode: a?.zipcode ?? '',
    invoice_to_city: a?.city ?? '',
    invoice_to_state: a?.state ?? '',
    invoice_to_country: a?.country ?? '',
    invoice_to_vat_id: a?.vat_id ?? '',
    invoice_to_beneficiary: '',
    custom_field: a?.custom_field ?? null,
    internal_reference: a?.internal_reference ?? '',
  };
}

/** The sender parts and printed texts from the event's settings, and the payment text for the order's state. */
export function senderTexts(
  settings: EventSettings,
  order: Pick<OrderJson, 'status' | 'code'>,
): Record<string, string> {
  const paid = order.status === 'p';
  return {
    invoice_from_name: settings.invoice_address_from_name,
    invoice_from: settings.invoice_address_from,
    invoice_from_zipcode: settings.invoice_address_from_zipcode,
    invoice_from_city: settings.invoice_address_from_city,
    invoice_from_state: settings.invoice_address_from_state,
    invoice_from_country: settings.invoice_address_from_country,
    invoice_from_tax_id: settings.invoice_address_from_tax_id,
    invoice_from_vat_id: settings.invoice_address_from_vat_id,
    introductory_text: settings.invoice_introductory_text,
    additional_text: settings.invoice_additional_text,
    footer_text: settings.invoice_footer_text,
    payment_provider_text: paid
      ? 'The payment for this invoice has already been received.'
      : `Please transfer the invoice total, quoting the order code ${order.code} as the reference.`,
    payment_provider_stamp: paid ? 'paid' : '',
  };
}
