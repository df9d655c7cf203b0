import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JobProcessor, ProcessesQueue, QueuedJob, RetryLater } from '../tasks/job';
import { QUEUES } from '../tasks/queues';
import { StoredFiles } from '../tasks/stored-files.service';
import { renderInvoicePdf } from './invoice-pdf';
import { InvoiceQueries } from './invoice.queries';
import { dateOnly } from './invoice.presenter';

/** The row a render reads (one statement, with the number of the invoice it refers to). */
/**
 * The `invoices` queue (worker only; architecture.md "Processes"): renders the PDF of one invoice generation with
 * pdfkit and stores it in PostgreSQL (`stored_file`, kind `invoice_pdf`, kept until the invoice goes). The file
 * and the invoice's `pdf_file_id` are written in one transaction, and only while the invoice still has no PDF and
 * the job's generation is the latest (a `regenerate` meanwhile makes the job stale: skipped). A failure is retried
 * (`INVOICE_PDF_RETRY_DELAY_MS`, doubling, 4 attempts); a worker that dies mid-render loses its job lock and
 * another worker takes the job over. A given-up job leaves the invoice without PDF, and the next download asks
 * again: nothing stays stuck.
 */
@Injectable()
@ProcessesQueue(QUEUES.invoices)
export class InvoicePdfProcessor implements JobProcessor {
  private readonly logger = new Logger('Invoices');
  /** Not injected: the worker registers this processor outside the invoices module (the class is stateless). */
  private readonly queries = new InvoiceQueries();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly files: StoredFiles,
    private readonly config: AppConfig,
  ) {}

  async process(job: QueuedJob): Promise<{ state: string }> {
    const invoiceId = Number(job.data.invoiceId);
    const generation = Number(job.data.generation);
    const inv = await this.queries.renderRow(this.db.manager, invoiceId);
    if (!inv || inv.pdf_generation !== generation || inv.pdf_file_id !== null) return { state: 'skipped' };
    this.logger.debug(`invoice ${inv.number} rendering (attempt ${job.attemptsMade + 1})`);
    try {
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
      this.logger.log(`invoice ${inv.number}: PDF ${stored ? 'stored' : 'discarded (stale)'}`);
      return { state: stored ? 'stored' : 'stale' };
    } catch (err) {
      const message = (err as Error).message;
      if (job.attemptsMade + 1 >= job.attempts) {
        this.logger.warn(`invoice ${inv.number}: render failed for good: ${message}`);
        throw err;
      }
      const delay = this.config.invoicePdfRetryDelayMs * 2 ** job.attemptsMade;
      this.logger.warn(`invoice ${inv.number}: render failed, retry in ${delay} ms: ${message}`);
      throw new RetryLater(delay, message);
    }
  }
}

/** The render's generation is no longer the latest. */
class StaleRender extends Error {}
