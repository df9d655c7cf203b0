import { Controller, Get, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import { RequireOrganizerAccess, RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentEvent, CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { filter, ListFilters, ListFiltersSpec, QueryParamDoc } from '../common/http/list-filters';
import { MAX_FILTER_LENGTH } from '../common/listing/query-filters';
import { LIMITS } from '../config/limits';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Event } from '../organizers/event.entity';
import { Organizer } from '../organizers/organizer.entity';
import { INVOICE_ORDERING, InvoiceReads, PDF_NOT_READY } from './invoice-reads.service';
import { InvoiceJson } from './invoice.presenter';
import { InvoicesService } from './invoices.service';
import { InvoiceTransmissionService } from './invoice-transmission.service';
import { TRANSMISSION_MESSAGES } from './invoice-transmission.rules';
import { NoStore } from '../common/http/no-store';

/** A repeatable text filter (`?order=A&order=B`: any of them). */
function texts(description: string): QueryParamDoc {
  return {
    schema: {
      type: 'array',
      items: { type: 'string', maxLength: MAX_FILTER_LENGTH },
      maxItems: LIMITS.filterValues,
    },
    style: 'form',
    explode: true,
    description,
  };
}

/** Filters of both invoice lists (spec "Invoices"; pretix `InvoiceFilter`). */
export const INVOICE_LIST_FILTERS: ListFiltersSpec = {
  filters: {
    is_cancellation: filter.bool('Only cancellation invoices (`true`) or only the others (`false`).'),
    order: texts('Order code (case-insensitive); repeat the parameter for any of several.'),
    refers: filter.text('Number of the invoice a cancellation refers to (case-insensitive).'),
    locale: filter.text('Language of the invoice, e.g. `en`.'),
    number: texts('Invoice number (case-insensitive); repeat the parameter for any of several.'),
  },
  ordering: INVOICE_ORDERING,
};

/**
 * `E/invoices/` (spec "Invoices"; compat §3.24): read with `event.orders:read`; `reissue/`, `regenerate/`,
 * `transmit/` and `retransmit/` with `event.orders:write`, POST only (GET answers 405: a write is never a GET, README "Security"; pretix documents
 * POST). Invoices are addressed by number and never written directly (POST/PUT/PATCH/DELETE on them answer 405).
 */
@ApiTags('invoices')
@Controller('organizers/:organizer/events/:event/invoices')
export class InvoicesController {
  constructor(
    private readonly reads: InvoiceReads,
    private readonly invoices: InvoicesService,
    private readonly transmission: InvoiceTransmissionService,
  ) {}

  /** Filters `is_cancellation`, `order`, `refers`, `locale`, `number`; ordering `nr` (default) or `date`. */
  @Get()
  @RequirePermission('event.orders:read')
  @ApiPaginatedResponse(InvoiceJson)
  @ListFilters(INVOICE_LIST_FILTERS)
  getEventInvoices(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<InvoiceJson>> {
    return this.reads.list(event, filters, page);
  }

  @Get(':number')
  @RequirePermission('event.orders:read')
  @ApiOkResponse({ type: InvoiceJson })
  retrieveInvoice(@CurrentEvent() event: Event, @Param('number') number: string): Promise<InvoiceJson> {
    return this.reads.get(event, number);
  }

  /** The PDF (`application/pdf`, attachment `<number>.pdf`); 409 with `Retry-After` until the worker made it. */
  @NoStore()
  @Get(':number/download')
  @RequirePermission('event.orders:read')
  @ApiProduces('application/pdf')
  @ApiOkResponse({
    description: 'The PDF.',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiConflictResponse({ description: `Not rendered yet: ${PDF_NOT_READY}` })
  async getInvoiceDownload(
    @CurrentEvent() event: Event,
    @Param('number') number: string,
  ): Promise<StreamableFile> {
    const pdf = await this.reads.download(event, number);
    return new StreamableFile(pdf.content, {
      type: 'application/pdf',
      disposition: `attachment; filename="${pdf.filename}"`,
      length: pdf.content.length,
    });
  }

  /** Cancels the invoice (a cancellation invoice) and, unless the order is canceled, issues a new one. 204. */
  @Post(':number/reissue')
  @HttpCode(204)
  @RequirePermission('event.orders:write')
  @ApiNoContentResponse({ description: 'Reissued.' })
  reissueInvoice(@CurrentEvent() event: Event, @Param('number') number: string): Promise<void> {
    return this.invoices.reissue(event, number);
  }

  /**
   * Transmits the invoice (e-mail with the PDF attached, by the worker), only while it is `pending`. 204; 403
   * otherwise.
   */
  @Post(':number/transmit')
  @HttpCode(204)
  @RequirePermission('event.orders:write')
  @ApiNoContentResponse({ description: 'Transmission queued.' })
  @ApiForbiddenResponse({ description: `Not pending: ${TRANSMISSION_MESSAGES.notPending}` })
  transmitInvoice(@CurrentEvent() event: Event, @Param('number') number: string): Promise<void> {
    return this.transmission.transmit(event, number);
  }

  /** Transmits the invoice again, whatever its transmission status (`pending` again). 204; 409 while `inflight`. */
  @Post(':number/retransmit')
  @HttpCode(204)
  @RequirePermission('event.orders:write')
  @ApiNoContentResponse({ description: 'Transmission queued.' })
  @ApiConflictResponse({ description: `In transmission: ${TRANSMISSION_MESSAGES.inflight}` })
  retransmitInvoice(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('number') number: string,
  ): Promise<void> {
    return this.transmission.retransmit(event, principal, number);
  }

  /** Refreshes the invoice's data from the order (same number) and renders a new PDF. 204. */
  @Post(':number/regenerate')
  @HttpCode(204)
  @RequirePermission('event.orders:write')
  @ApiNoContentResponse({ description: 'Regenerated.' })
  regenerateInvoice(@CurrentEvent() event: Event, @Param('number') number: string): Promise<void> {
    return this.invoices.regenerate(event, number);
  }
}

/**
 * `O/invoices/` (spec "Invoices", pretix 2023.8): invoices of all events of the organizer where the credential
 * holds `event.orders:read` (docs/permissions.md); the filters of `E/invoices/`.
 */
@ApiTags('invoices')
@Controller('organizers/:organizer/invoices')
export class OrganizerInvoicesController {
  constructor(private readonly reads: InvoiceReads) {}

  @Get()
  @RequireOrganizerAccess()
  @ApiPaginatedResponse(InvoiceJson)
  @ListFilters(INVOICE_LIST_FILTERS)
  getOrganizerInvoices(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<InvoiceJson>> {
    return this.reads.listForOrganizer(organizer, principal, filters, page);
  }
}
