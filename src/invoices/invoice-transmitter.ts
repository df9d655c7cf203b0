import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import { MailOutboxService } from '../mail/mail-outbox.service';
import { MailOutcome, MailOutcomeHooks } from '../mail/mail-outcome-hooks';
import { QueuedJob, RetryLater } from '../tasks/job';
import { StoredFiles } from '../tasks/stored-files.service';
import { InvoicePdfRenderer } from './invoice-pdf-renderer';
import { InvoiceQueries } from './invoice.queries';
import {
  EMAIL_PROVIDER,
  EMAIL_TYPE,
  emailRecipient,
  invoiceAttachmentName,
  invoiceMail,
  TRANSMISSION_ACTIONS,
  TransmitJob,
} from './invoice-transmission.rules';
import { InvoiceTransmissionQueries, TransmissionRow, TransmittedRow } from './invoice-transmission.queries';

/** Delay before a transmission whose PDF could not be made yet is tried again. */
const PDF_WAIT_MS = 1_000;

/**
 * The worker side of invoice transmission (pretix `transmit_invoice` with the `email_pdf` provider): a
 * `transmit-invoice` job claims the invoice (`inflight`), renders its PDF when there is none yet and queues one
 * mail with the PDF attached to the transmission address or the order's e-mail (logged
 * `pretix.event.order.email.invoice`). The mail's outcome (registered with {@link MailOutcomeHooks}) completes the
 * transmission (`completed`, provider `email_pdf`, logged `pretix.event.order.invoice.sent`) or fails it
 * (`failed`, `pretix.event.order.invoice.sending_failed`). Another type than `email` fails at once (reason
 * `no_provider`: no other provider is installed), as does a missing recipient (`no_recipient`).
 */
@Injectable()
export class InvoiceTransmitter implements OnModuleInit {
  private readonly logger = new Logger('Invoices');
  private readonly queries = new InvoiceTransmissionQueries();
  private readonly invoices = new InvoiceQueries();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly renderer: InvoicePdfRenderer,
    private readonly files: StoredFiles,
    private readonly mail: MailOutboxService,
    private readonly audit: AuditLogService,
    private readonly outcomes: MailOutcomeHooks,
  ) {}

  onModuleInit(): void {
    this.outcomes.onOutcome((em, outcome) => this.onMailOutcome(em, outcome));
  }

  /**
   * Runs one `transmit-invoice` job. @throws RetryLater while the PDF cannot be made yet (the invoice is `pending`
   * again meanwhile; the last attempt fails the transmission, reason `exception`)
   */
  async process(job: QueuedJob): Promise<{ state: string }> {
    const data = job.data as unknown as TransmitJob;
    const inv = await this.db.transaction((em) =>
      this.queries.claim(em, Number(data.invoiceId), Boolean(data.allowRetransmission)),
    );
    if (!inv) return { state: 'skipped' };
    if (inv.transmission_type !== EMAIL_TYPE) {
      await this.fail(inv, null, { reason: 'no_provider' }, null);
      return { state: 'failed' };
    }
    const recipient = emailRecipient(inv.invoice_to_transmission_info ?? {}, data.orderEmail);
    if (!recipient) {
      // pretix leaves the provider unset here.
      await this.fail(inv, undefined, { reason: 'no_recipient' }, EMAIL_PROVIDER);
      return { state: 'failed' };
    }
    let file: { id: string; size: number };
    try {
      file = await this.pdfOf(inv);
    } catch (err) {
      const message = (err as Error).message;
      if (job.attemptsMade + 1 >= job.attempts) {
        // pretix: an exception fails the transmission.
        await this.fail(inv, EMAIL_PROVIDER, { reason: 'exception', exception: message }, EMAIL_PROVIDER);
        return { state: 'failed' };
      }
      // Back to pending so the retry can claim it again.
      await this.db.transaction((em) => this.queries.setStatus(em, inv.id, 'pending'));
      throw new RetryLater(PDF_WAIT_MS * 2 ** job.attemptsMade, `invoice ${inv.number}: ${message}`);
    }
    const { subject, body } = invoiceMail(inv.number, inv.order_code, data.eventName);
    await this.db.transaction(async (em) => {
      const mailId = await this.mail.enqueue(em, {
        organizerId: inv.organizer_id,
        eventId: inv.event_id,
        to: recipient,
        subject,
        body,
        attachments: [
          {
            fileId: file.id,
            filename: invoiceAttachmentName(inv.number),
            contentType: 'application/pdf',
            size: file.size,
          },
        ],
      });
      await this.queries.awaitMail(em, inv.id, mailId);
      await this.log(em, inv, TRANSMISSION_ACTIONS.emailed, {
        subject,
        message: body,
        position: null,
        recipient,
        invoices: [inv.id],
        attach_tickets: false,
        attach_ical: false,
        attach_other_files: [],
        attach_cached_files: [],
      });
    });
    this.logger.log(`invoice ${inv.number}: transmission mailed to ${recipient}`);
    return { state: 'mailed' };
  }

  /** The invoice's stored PDF, rendered now when it has none. @throws Error when there is none after that */
  private async pdfOf(inv: TransmissionRow): Promise<{ id: string; size: number }> {
    let fileId = inv.pdf_file_id;
    if (!fileId) {
      await this.renderer.render(inv.id, inv.pdf_generation);
      fileId = (await this.invoices.renderRow(this.db.manager, inv.id))?.pdf_file_id ?? null;
    }
    const [file] = fileId ? await this.files.findLive([fileId]) : [];
    if (!file) throw new Error('no PDF yet');
    return { id: file.id, size: file.content.length };
  }

  /** A transmission that failed before any mail: `failed` and the log entry of pretix. */
  private async fail(
    inv: TransmissionRow,
    provider: string | null | undefined,
    data: Record<string, unknown>,
    loggedProvider: string | null,
  ): Promise<void> {
    await this.db.transaction(async (em) => {
      await this.queries.setStatus(em, inv.id, 'failed', provider);
      await this.log(em, inv, TRANSMISSION_ACTIONS.failed, {
        full_invoice_no: inv.number,
        transmission_provider: loggedProvider,
        transmission_type: inv.transmission_type,
        data,
      });
    });
    this.logger.warn(`invoice ${inv.number}: transmission failed: ${JSON.stringify(data)}`);
  }

  /** The outcome of a mail: completes or fails the transmissions it carried (none for most mails). */
  private async onMailOutcome(em: EntityManager, outcome: MailOutcome): Promise<void> {
    if (outcome.status === 'sent') {
      const recipients = [outcome.recipient.toLowerCase()];
      const done = await this.queries.mailSent(em, outcome.mailId, recipients);
      for (const inv of done)
        await this.log(em, inv, TRANSMISSION_ACTIONS.sent, {
          full_invoice_no: inv.number,
          transmission_provider: EMAIL_PROVIDER,
          transmission_type: EMAIL_TYPE,
          data: { recipients },
        });
      return;
    }
    const failed = await this.queries.mailFailed(em, outcome.mailId);
    for (const inv of failed)
      await this.log(em, inv, TRANSMISSION_ACTIONS.failed, {
        full_invoice_no: inv.number,
        transmission_provider: EMAIL_PROVIDER,
        transmission_type: EMAIL_TYPE,
        data: { reason: 'exception', exception: outcome.error },
      });
  }

  private log(
    em: EntityManager,
    inv: Pick<TransmittedRow, 'organizer_id' | 'event_id' | 'order_id'>,
    action: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.record(em, null, {
      organizerId: inv.organizer_id,
      eventId: inv.event_id,
      contentType: 'order',
      objectId: inv.order_id,
      action,
      data,
    });
  }
}
