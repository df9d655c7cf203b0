import type { EntityManager } from 'typeorm';
import { InvoiceQueries } from './invoice.queries';

/** The shredder calls these outside Nest's container; the queries class is stateless. */
const queries = new InvoiceQueries();

/** Placeholder written over shredded personal data (pretix writes the same block character). */
export const REDACTED = '█';

/** The recipient keys of an invoice's `texts` that hold personal data. */
const PERSONAL_TEXTS = [
  'invoice_to',
  'invoice_to_company',
  'invoice_to_name',
  'invoice_to_street',
  'invoice_to_zipcode',
  'invoice_to_city',
  'invoice_to_state',
  'invoice_to_vat_id',
  'invoice_to_beneficiary',
  'custom_field',
  'internal_reference',
];

/**
 * `invoices` shredder (compat §3.8), export part: `{number: {order, date, is_cancellation, recipient texts}}` of the
 * event's invoices. One statement.
 */
export async function exportInvoices(em: EntityManager, eventId: number): Promise<Record<string, unknown>> {
  const rows = await queries.exportRows(em, eventId);
  return Object.fromEntries(
    rows.map((r) => [
      r.number,
      {
        order: r.order_code,
        date: r.date,
        is_cancellation: r.is_cancellation,
        ...Object.fromEntries(PERSONAL_TEXTS.map((k) => [k, r.texts[k] ?? null])),
      },
    ]),
  );
}

/**
 * `invoices` shredder, shred part on the caller's transaction: keeps every invoice and its number, overwrites the
 * recipient's personal data with {@link REDACTED}, drops the rendered PDF (and makes a render in flight discard its
 * result by bumping `pdf_generation`).
 * @returns the stored-file ids of the dropped PDFs, for the caller to delete
 */
export async function shredInvoices(em: EntityManager, eventId: number): Promise<string[]> {
  const fileIds = await queries.lockPdfFileIds(em, eventId);
  await queries.redactInvoices(em, eventId, PERSONAL_TEXTS, REDACTED);
  return fileIds;
}
