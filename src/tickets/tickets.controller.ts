import { Controller, Get, Param, StreamableFile } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { NoStore } from '../common/http/no-store';
import { Event } from '../organizers/event.entity';
import { TICKET_DOWNLOAD_MESSAGES } from '../orders/presentation/ticket-download.rules';
import { TicketDownload, TicketDownloads, TICKET_NOT_READY } from './ticket-downloads.service';

const PDF_RESPONSE = {
  description: 'The ticket PDF (`attachment; filename="<EVENT>-<code>[-<positionid>]-pdf.pdf"`).',
  content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
};
const REFUSED = `The order or product allows no download: \`${TICKET_DOWNLOAD_MESSAGES.canceledOrExpired}\`, \`${TICKET_DOWNLOAD_MESSAGES.pending}\` or \`${TICKET_DOWNLOAD_MESSAGES.product}\`.`;
const NOT_READY = `Being rendered: \`{"detail": "${TICKET_NOT_READY}"}\` with \`Retry-After\`.`;

/**
 * Ticket downloads (compat §4.4 `download`; README "Ticket downloads"): `E/orders/{code}/download/{output}/` (all
 * the order's tickets in one PDF) and `E/orderpositions/{id}/download/{output}/`, permission `event.orders:read`
 * (as the order reads; pretix checks the same). The only output is `pdf`.
 */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/events/:event')
export class TicketsController {
  constructor(private readonly tickets: TicketDownloads) {}

  @Get('orders/:code/download/:output')
  @RequirePermission('event.orders:read')
  @ApiProduces('application/pdf')
  @ApiOkResponse(PDF_RESPONSE)
  @ApiConflictResponse({ description: NOT_READY })
  @ApiForbiddenResponse({ description: REFUSED })
  @ApiNotFoundResponse({ description: `Unknown order, or \`${TICKET_DOWNLOAD_MESSAGES.unknownOutput}\`.` })
  async getOrderTicketDownload(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @Param('output') output: string,
  ): Promise<StreamableFile> {
    return pdfFile(await this.tickets.download(event, principal, { code }, output));
  }

  @Get('orderpositions/:id/download/:output')
  @RequirePermission('event.orders:read')
  @ApiProduces('application/pdf')
  @ApiOkResponse(PDF_RESPONSE)
  @ApiConflictResponse({ description: NOT_READY })
  @ApiForbiddenResponse({ description: REFUSED })
  @ApiNotFoundResponse({
    description: `Unknown or canceled position, or \`${TICKET_DOWNLOAD_MESSAGES.unknownOutput}\`.`,
  })
  async getOrderPositionTicketDownload(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Param('output') output: string,
  ): Promise<StreamableFile> {
    return pdfFile(await this.tickets.download(event, principal, { positionId: id }, output));
  }
}

function pdfFile(file: TicketDownload): StreamableFile {
  return new StreamableFile(file.content, {
    type: 'application/pdf',
    disposition: `attachment; filename="${file.filename}"`,
    length: file.content.length,
  });
}
