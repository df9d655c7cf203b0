import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { StoredFiles } from '../tasks/stored-files.service';
import { renderInvoicePdf } from './invoice-pdf';
import { InvoiceQueries, type InvoiceRenderRow } from './invoice.queries';
import { dateOnly } from './invoice.presenter';

/** What one render did: `stored` (the PDF is the invoice's now), `stale` (a newer generation exists), `skipped`. */
export type RenderOutcome = 'stored' | 'stale' | 'skipped';

/**
 * Renders the PDF of one invoice generation with pdfkit and stores it (`stored_file`, kind `invoice_pdf`, kept
 * until the invoice goes): the file and the invoice's `pdf_file_id` in one transaction, only while the invoice
 * still has no PDF and `generation` is the latest. Used by the `invoices` queue's render jobs and by a
 * transmission that finds no PDF yet (worker only). Rendering errors are thrown.
 */
@Injectable()
export class InvoicePdfRenderer {
  /** Not injected: stateless. */
  private readonly queries = new InvoiceQueries();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly files: StoredFiles,
  ) {}

  /**
   * Renders and stores generation `generation` of the invoice, unless it is stale or already has a PDF.
   * @throws InvoiceRenderError when rendering or storing fails
   */
  async render(invoiceId: number, generation: number): Promise<{ outcome: RenderOutcome; number?: string }> {
    const inv = await this.queries.renderRow(this.db.manager, invoiceId);
    if (!inv || inv.pdf_generation !== generation || inv.pdf_file_id !== null) return { outcome: 'skipped' };
    try {
      return { outcome: await this.renderRow(inv, generation), number: inv.number };
    } catch (err) {
      throw new InvoiceRenderError(inv.number, err);
    }
  }

  private async renderRow(inv: InvoiceRenderRow, generation: number): Promise<'stored' | 'stale'> {
    const invoiceId = inv.id;
    const pdf = await renderInvoicePdf({
      number: inv.number,
      orderCode: inv.order_code,
      date: dateOnly(inv.date),
      isCancellation: inv.is_cancellation,
      refersNumber: inv.refers_number,
      currency: inv.currency,
      texts: inv.texts,
      lines: inv.lines,
    });
    const stored = await this.db
      .transaction(async (em) => {
        const fileId = await this.files.store(
          {
            kind: 'invoice_pdf',
            filename: `${inv.number}.pdf`,
            contentType: 'application/pdf',
            content: pdf,
            organizerId: inv.organizer_id,
            expires: null,
          },
          em,
        );
        // Stale (regenerated meanwhile) or done by another worker: keep nothing.
        if (!(await this.queries.attachPdf(em, invoiceId, fileId, generation))) throw new StaleRender();
        return true;
      })
      .catch((err: unknown) => {
        if (err instanceof StaleRender) return false;
        throw err;
      });
    return stored ? 'stored' : 'stale';
  }
}

/** A render failed (the cause's message), with the invoice's number for the log. */
export class InvoiceRenderError extends Error {
  constructor(
    readonly number: string,
    cause: unknown,
  ) {
    super((cause as Error).message);
  }
}

/** The render's generation is no longer the latest. */
class StaleRender extends Error {}
