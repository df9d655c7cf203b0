import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { JobProcessor, ProcessesQueue, QueuedJob, RetryLater } from '../tasks/job';
import { QUEUES } from '../tasks/queues';
import { InvoicePdfRenderer, InvoiceRenderError } from './invoice-pdf-renderer';
import { TRANSMIT_INVOICE } from './invoice-transmission.rules';
import { InvoiceTransmitter } from './invoice-transmitter';

/**
 * The `invoices` queue (worker only; architecture.md "Processes"). Render jobs render the PDF of one invoice
 * generation ({@link InvoicePdfRenderer}; a `regenerate` meanwhile makes the job stale: skipped). A failure is
 * retried (`INVOICE_PDF_RETRY_DELAY_MS`, doubling, 4 attempts); a worker that dies mid-render loses its job lock
 * and another worker takes the job over. A given-up job leaves the invoice without PDF, and the next download
 * asks again: nothing stays stuck. `transmit-invoice` jobs are handed to the {@link InvoiceTransmitter}.
 */
@Injectable()
@ProcessesQueue(QUEUES.invoices)
export class InvoicePdfProcessor implements JobProcessor {
  private readonly logger = new Logger('Invoices');

  constructor(
    private readonly renderer: InvoicePdfRenderer,
    private readonly transmitter: InvoiceTransmitter,
    private readonly config: AppConfig,
  ) {}

  async process(job: QueuedJob): Promise<{ state: string }> {
    if (job.name === TRANSMIT_INVOICE) return this.transmitter.process(job);
    const invoiceId = Number(job.data.invoiceId);
    const generation = Number(job.data.generation);
    try {
      const { outcome, number } = await this.renderer.render(invoiceId, generation);
      if (outcome !== 'skipped')
        this.logger.log(`invoice ${number}: PDF ${outcome === 'stored' ? 'stored' : 'discarded (stale)'}`);
      return { state: outcome };
    } catch (err) {
      const message = (err as Error).message;
      const label = err instanceof InvoiceRenderError ? err.number : String(invoiceId);
      if (job.attemptsMade + 1 >= job.attempts) {
        this.logger.warn(`invoice ${label}: render failed for good: ${message}`);
        throw err;
      }
      const delay = this.config.invoicePdfRetryDelayMs * 2 ** job.attemptsMade;
      this.logger.warn(`invoice ${label}: render failed, retry in ${delay} ms: ${message}`);
      throw new RetryLater(delay, message);
    }
  }
}
