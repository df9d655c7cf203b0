import type { EntityManager } from 'typeorm';

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
  const rows: {
    number: string;
    order_code: string;
    date: string;
    is_cancellation: boolean;
    texts: Record<string, string | null>;
  }[] = await em.query(
    `SELECT number, order_code, date::text AS date, is_cancellation, texts FROM invoice
        WHERE event_id = $1 ORDER BY number`,
    [eventId],
  );
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
  const rows: { pdf_file_id: string | null }[] = await em.query(
    `SELECT pdf_file_id FROM invoice WHERE event_id = $1 AND pdf_file_id IS NOT NULL FOR UPDATE`,
    [eventId],
  );
  const redact = PERSONAL_TEXTS.map(
    (k) =>
      `|| jsonb_build_object('${k}', CASE WHEN coalesce(texts->>'${k}', '') = '' THEN texts->'${k}' ELSE to_jsonb($2::text) END)`,
  ).join(' ');
  await em.query(
    `UPDATE invoice SET texts = texts ${redact}, pdf_file_id = NULL, pdf_generation = pdf_generation + 1
      WHERE event_id = $1`,
    [eventId, REDACTED],
  );
  return rows.map((r) => r.pdf_file_id!);
}
