import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { applyOrdering } from '../common/listing/ordering';
import { findOneInOne, paginateInOne, relatedValue, RelatedSpec } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { returning } from '../tasks/sql';
import { Invoice } from './invoice.entity';
import type { InvoiceLineData } from './invoice.entity';
import type { InvoiceRefs } from './invoice.presenter';

/** Ordering fields of the lists (spec "Invoices"): `nr` (= number, the default) and `date`. */
const ORDERING = { nr: 'v.invoice_no', number: 'v.invoice_no', date: 'v.date' };

/** The organizers context's scalar subquery of an event's slug by the SQL expression of its id. */
export type EventSlugSql = (eventId: string) => string;

/** Which invoices a list shows: an event's, or an organizer's (of all its events, or of the ones listed). */
export type InvoiceListScope = { eventId: number } | { organizerId: number; eventIds: 'all' | number[] };

/** An invoice as the PDF renderer reads it, with the number of the invoice it cancels. */
export interface InvoiceRenderRow {
  id: number;
  organizer_id: number;
  number: string;
  order_code: string;
  date: string | Date;
  is_cancellation: boolean;
  currency: string;
  texts: Record<string, string | null>;
  lines: InvoiceLineData[];
  pdf_file_id: string | null;
  pdf_generation: number;
  refers_number: string | null;
}

/** An invoice as the shredder exports it. */
export interface InvoiceExportRow {
  number: string;
  order_code: string;
  date: string;
  is_cancellation: boolean;
  texts: Record<string, string | null>;
}

/**
 * The invoice context's statements (spec "Invoices"; compat §3.24): `invoice`, `invoice_counter`,
 * `invoice_settings`. Stateless; each method runs on the caller's EntityManager.
 */
@Injectable()
export class InvoiceQueries {
  /**
   * One page of invoices with their event slug and referred number, in one statement. Filters
   * `is_cancellation`, `order` (codes), `number` (numbers), `locale`, `refers` (number), as pretix's
   * `InvoiceFilter`; ordering `nr` (default) or `date`.
   * No lock. @throws ValidationFailed (400) for a malformed filter value
   */
  invoicesPage<T>(
    em: EntityManager,
    scope: InvoiceListScope,
    filters: QueryFilters,
    page: PageRequest,
    eventSlugOf: EventSlugSql,
    present: (row: Invoice, refs: InvoiceRefs) => T,
  ): Promise<Paginated<T>> {
    let qb: SelectQueryBuilder<Invoice>;
    if ('eventId' in scope) {
      qb = em
        .getRepository(Invoice)
        .createQueryBuilder('v')
        .where('v.event_id = :event', { event: scope.eventId });
    } else {
      qb = em
        .getRepository(Invoice)
        .createQueryBuilder('v')
        .where('v.organizer_id = :org', { org: scope.organizerId });
      if (scope.eventIds !== 'all') qb.andWhere('v.event_id = ANY(:events)', { events: scope.eventIds });
    }
    const isCancellation = filters.bool('is_cancellation');
    if (isCancellation !== undefined) qb.andWhere('v.is_cancellation = :isc', { isc: isCancellation });
    // pretix: `order` and `number` repeatable (any of them), all three case-insensitive.
    const orders = filters.all('order').map((o) => o.toUpperCase());
    if (orders.length > 0) qb.andWhere('upper(v.order_code) = ANY(:orders)', { orders });
    const numbers = filters.all('number').map((n) => n.toUpperCase());
    if (numbers.length > 0) qb.andWhere('upper(v.number) = ANY(:numbers)', { numbers });
    const locale = filters.str('locale');
    if (locale !== undefined) qb.andWhere('v.locale = :locale', { locale });
    const refers = filters.str('refers');
    if (refers !== undefined)
      qb.andWhere(
        'v.refers_id IN (SELECT r.id FROM invoice r WHERE upper(r.number) = upper(:refers) AND r.event_id = v.event_id)',
        { refers },
      );
    applyOrdering(qb, filters, ORDERING, ['nr']);
    return paginateInOne(qb, page, this.related(eventSlugOf), present);
  }

  /**
   * The event's invoice with this number, with its event slug and referred number, in one statement; no lock.
   * @throws NotFound for an unknown number
   */
  invoiceByNumber<T>(
    em: EntityManager,
    eventId: number,
    number: string,
    eventSlugOf: EventSlugSql,
    present: (row: Invoice, refs: InvoiceRefs) => T,
  ): Promise<T> {
    const qb = em
      .getRepository(Invoice)
      .createQueryBuilder('v')
      .where('v.event_id = :event AND v.number = :number', { event: eventId, number });
    return findOneInOne(qb, this.related(eventSlugOf), present);
  }

  /** The invoice `invoiceId` as the PDF renderer needs it, or null; one statement, no lock. */
  async renderRow(em: EntityManager, invoiceId: number): Promise<InvoiceRenderRow | null> {
    const rows: InvoiceRenderRow[] = await em.query(
      `SELECT i.id, i.organizer_id, i.number, i.order_code, i.date, i.is_cancellation, i.currency, i.texts, i.lines,
              i.pdf_file_id, i.pdf_generation, r.number AS refers_number
         FROM invoice i LEFT JOIN invoice r ON r.id = i.refers_id WHERE i.id = $1`,
      [invoiceId],
    );
    return rows[0] ?? null;
  }

  /**
   * Sets the stored PDF `fileId` of the invoice when its generation is still `generation` and it has no PDF yet
   * (row lock until the caller commits). @returns whether it was set (false: stale or done by another worker)
   */
  async attachPdf(
    em: EntityManager,
    invoiceId: number,
    fileId: string,
    generation: number,
  ): Promise<boolean> {
    const updated = await returning<{ id: number }>(
      em,
      `UPDATE invoice SET pdf_file_id = $2
            WHERE id = $1 AND pdf_generation = $3 AND pdf_file_id IS NULL RETURNING id`,
      [invoiceId, fileId, generation],
    );
    return updated.length > 0;
  }

  /**
   * Takes the next number of the event under `prefix`: one upsert of the counter row, which stays locked until
   * the caller commits. @returns the number taken
   */
  async takeNextNumber(em: EntityManager, eventId: number, prefix: string): Promise<number> {
    const rows: { last_no: number }[] = await em.query(
      `INSERT INTO invoice_counter (event_id, prefix, last_no) VALUES ($1, $2, 1)
       ON CONFLICT (event_id, prefix) DO UPDATE SET last_no = invoice_counter.last_no + 1
       RETURNING last_no`,
      [eventId, prefix],
    );
    return rows[0].last_no;
  }

  /** How many cancellation invoices and other invoices the order has (one statement, no lock). */
  async invoiceCounts(em: EntityManager, orderId: number): Promise<{ cancellations: number; others: number }> {
    const rows: { cancellations: number; others: number }[] = await em.query(
      `SELECT count(*) FILTER (WHERE is_cancellation)::int AS cancellations,
              count(*) FILTER (WHERE NOT is_cancellation)::int AS others
         FROM invoice WHERE order_id = $1`,
      [orderId],
    );
    return rows[0];
  }

  /** The event's stored settings (`invoice_settings.values`), or undefined; no lock. */
  async settingsValues(em: EntityManager, eventId: number): Promise<Record<string, string> | undefined> {
    const rows: { values: Record<string, string> }[] = await em.query(
      'SELECT "values" FROM invoice_settings WHERE event_id = $1',
      [eventId],
    );
    return rows[0]?.values;
  }

  /** Merges `changes` into the event's stored settings (one upsert). @returns the stored settings afterwards */
  async mergeSettings(
    em: EntityManager,
    eventId: number,
    changes: Record<string, string>,
  ): Promise<Record<string, string>> {
    const rows: { values: Record<string, string> }[] = await em.query(
      `INSERT INTO invoice_settings (event_id, "values") VALUES ($1, $2::jsonb)
       ON CONFLICT (event_id) DO UPDATE SET "values" = invoice_settings."values" || EXCLUDED."values"
       RETURNING "values"`,
      [eventId, JSON.stringify(changes)],
    );
    return rows[0].values;
  }

  /** The event's invoices as the shredder exports them, by number; no lock. */
  exportRows(em: EntityManager, eventId: number): Promise<InvoiceExportRow[]> {
    return em.query(
      `SELECT number, order_code, date::text AS date, is_cancellation, texts FROM invoice
        WHERE event_id = $1 ORDER BY number`,
      [eventId],
    );
  }

  /** The stored-file ids of the event's rendered PDFs, the invoices locked `FOR UPDATE`. */
  async lockPdfFileIds(em: EntityManager, eventId: number): Promise<string[]> {
    const rows: { pdf_file_id: string | null }[] = await em.query(
      `SELECT pdf_file_id FROM invoice WHERE event_id = $1 AND pdf_file_id IS NOT NULL FOR UPDATE`,
      [eventId],
    );
    return rows.map((r) => r.pdf_file_id!);
  }

  /**
   * Overwrites the non-empty `texts` keys `keys` (owner-written names, never input) of the event's invoices with
   * `redacted`, drops their PDF and bumps `pdf_generation` (a render in flight discards its result).
   */
  async redactInvoices(
    em: EntityManager,
    eventId: number,
    keys: readonly string[],
    redacted: string,
  ): Promise<void> {
    const redact = keys
      .map(
        (k) =>
          `|| jsonb_build_object('${k}', CASE WHEN coalesce(texts->>'${k}', '') = '' THEN texts->'${k}' ELSE to_jsonb($2::text) END)`,
      )
      .join(' ');
    await em.query(
      `UPDATE invoice SET texts = texts ${redact}, pdf_file_id = NULL, pdf_generation = pdf_generation + 1
      WHERE event_id = $1`,
      [eventId, redacted],
    );
  }

  /** The event slug and the referred invoice's number of a list row `v`. */
  private related(eventSlugOf: EventSlugSql): RelatedSpec<InvoiceRefs> {
    return {
      eventSlug: relatedValue<string>(eventSlugOf('v.event_id')),
      refersNumber: relatedValue<string | null>('SELECT r.number FROM invoice r WHERE r.id = v.refers_id'),
    };
  }
}
