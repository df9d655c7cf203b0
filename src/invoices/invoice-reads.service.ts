import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../auth/principal';
import { Conflict, NotFound } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import type { Event } from '../organizers/event.entity';
import type { Organizer } from '../organizers/organizer.entity';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { StoredFiles } from '../tasks/stored-files.service';
import { Invoice } from './invoice.entity';
import { InvoiceQueries } from './invoice.queries';
import { InvoicePdfJobs } from './invoice-pdf-jobs';
import { InvoiceJson, toInvoiceJson } from './invoice.presenter';

/** Ordering fields of the lists (spec "Invoices"): `nr` (= number, the default) and `date`. */
export const INVOICE_ORDERING = ['nr', 'number', 'date'];

/** Seconds a client waits before asking for a PDF again (spec: "retry after a few seconds"). */
export const PDF_RETRY_AFTER = 2;
export const PDF_NOT_READY =
  'The invoice file has not yet been generated, we will generate it for you now. Please try again in a few seconds.';

/** A downloadable PDF. */
export interface InvoicePdf {
  filename: string;
  content: Buffer;
}

/**
 * Invoices as clients read them (spec "Invoices"; compat §3.24): the event's and the organizer's lists (one
 * statement per page: rows, count, event slug and the referred number), one invoice by number, its PDF.
 */
@Injectable()
export class InvoiceReads {
  private readonly logger = new Logger('Invoices');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tenancy: TenancyQueries,
    private readonly files: StoredFiles,
    private readonly pdfs: InvoicePdfJobs,
    private readonly queries: InvoiceQueries,
  ) {}

  /** The organizers context's subquery of an event's slug (read with each invoice). */
  private readonly eventSlugOf = (eventId: string): string => this.tenancy.eventSlugOf(eventId);

  /**
   * `GET E/invoices/`: filters `is_cancellation`, `order` (code), `refers` (number), `locale`, `number`; ordering
   * `nr` (default) or `date`.
   * @throws ValidationFailed (400) for a malformed filter value
   */
  list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<InvoiceJson>> {
    return this.queries.invoicesPage(
      this.db.manager,
      { eventId: event.id },
      filters,
      page,
      this.eventSlugOf,
      toInvoiceJson,
    );
  }

  /**
   * `GET O/invoices/`: invoices of the organizer's events where the credential holds `event.orders:read`, with
   * the filters of {@link list}; ordered by event, then as asked.
   */
  listForOrganizer(
    organizer: Organizer,
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<InvoiceJson>> {
    const allowed = principal.eventsWithPermission(organizer.id, 'event.orders:read');
    return this.queries.invoicesPage(
      this.db.manager,
      { organizerId: organizer.id, eventIds: allowed },
      filters,
      page,
      this.eventSlugOf,
      toInvoiceJson,
    );
  }

  /** One invoice by number. @throws NotFound for an unknown number */
  get(event: Event, number: string): Promise<InvoiceJson> {
    return this.queries.invoiceByNumber(this.db.manager, event.id, number, this.eventSlugOf, toInvoiceJson);
  }

  /**
   * `GET E/invoices/{number}/download/`: the stored PDF. While there is none, makes sure a render job exists
   * (a lost or given-up one is enqueued again) and answers 409 with `Retry-After`.
   * @throws NotFound for an unknown number
   * @throws Conflict 409 `{"detail"}` with `Retry-After` while the PDF is not ready
   */
  async download(event: Event, number: string): Promise<InvoicePdf> {
    const inv = await this.db.getRepository(Invoice).findOne({
      where: { eventId: event.id, number },
      select: { id: true, number: true, pdfFileId: true, pdfGeneration: true },
    });
    if (!inv) throw new NotFound();
    if (inv.pdfFileId) {
      const [file] = await this.files.findLive([inv.pdfFileId]);
      if (file) return { filename: `${inv.number}.pdf`, content: file.content };
    }
    try {
      await this.pdfs.ensure({ invoiceId: inv.id, generation: inv.pdfGeneration });
    } catch (err) {
      // Redis away: the next download asks again.
      this.logger.warn(`invoice ${inv.number}: render not queued: ${(err as Error).message}`);
    }
    throw new Conflict(PDF_NOT_READY, PDF_RETRY_AFTER);
  }
}
