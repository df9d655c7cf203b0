import { Injectable, Logger } from '@nestjs/common';
import { JobQueues } from '../tasks/job-queues.service';
import { QUEUES } from '../tasks/queues';

/** A render to ask for: the invoice and the generation of its data. */
export interface PdfRequest {
  invoiceId: number;
  generation: number;
}

/** Job name of a render on the `invoices` queue. */
export const RENDER_INVOICE = 'render-invoice';
/** Attempts of one render job before it is given up (the next download asks again). */
export const RENDER_ATTEMPTS = 4;

/** Job id of a render: one live job per invoice and generation (BullMQ de-duplicates by id). */
export function renderJobId(r: PdfRequest): string {
  return `invoice-${r.invoiceId}-${r.generation}`;
}

/**
 * The producer side of the `invoices` queue: asks the worker to render invoice PDFs. Enqueueing happens after the
 * invoice's transaction committed; when Redis is unreachable the request is dropped with a warning: the PDF is
 * then asked for again by the first download (see {@link InvoiceReads.download}), so no state gets stuck.
 */
@Injectable()
export class InvoicePdfJobs {
  private readonly logger = new Logger('Invoices');

  constructor(private readonly queues: JobQueues) {}

  /** Enqueues the renders (errors are logged, never thrown). */
  async request(renders: readonly PdfRequest[]): Promise<void> {
    for (const r of renders) {
      try {
        await this.enqueue(r);
      } catch (err) {
        this.logger.warn(`invoice ${r.invoiceId}: render not queued: ${(err as Error).message}`);
      }
    }
  }

  /**
   * Makes sure a render job of this generation exists: enqueues one unless it is queued or running.
   * @throws ServiceUnavailable when Redis does not answer in time
   */
  async ensure(r: PdfRequest): Promise<void> {
    const state = await this.queues.jobState(QUEUES.invoices, renderJobId(r));
    if (state === 'missing' || state === 'failed' || state === 'completed') await this.enqueue(r);
  }

  private enqueue(r: PdfRequest): Promise<void> {
    return this.queues.enqueue(
      QUEUES.invoices,
      RENDER_INVOICE,
      { ...r },
      { jobId: renderJobId(r), attempts: RENDER_ATTEMPTS },
    );
  }
}
