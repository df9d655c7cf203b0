import { Controller, Get } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { CurrentOrganizer } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { filter, ListFilters } from '../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Organizer } from '../organizers/organizer.entity';
import { OutgoingMailJson } from './outgoing-mail.presenter';
import { OutgoingMailsService } from './outgoing-mails.service';

/** `O/outgoingmails/`: the organizer's outbox, read-only (README "Resources"; permission `organizer.outgoingmails:read`). */
@ApiTags('outgoing mails')
@Controller('organizers/:organizer/outgoingmails')
export class OutgoingMailsController {
  constructor(private readonly mails: OutgoingMailsService) {}

  @Get()
  @RequirePermission('organizer.outgoingmails:read')
  @ApiPaginatedResponse(OutgoingMailJson)
  @ApiQuery({ name: 'status', required: false, enum: ['queued', 'sending', 'sent', 'failed'] })
  @ApiQuery({ name: 'to', required: false, description: 'Recipient address (case-insensitive)' })
  @ApiQuery({ name: 'created_since', required: false, description: 'ISO 8601 datetime' })
  @ListFilters({
    filters: {
      status: filter.choice(['queued', 'sending', 'sent', 'failed'], 'Mails in this delivery status.'),
      to: filter.text('Recipient address (case-insensitive exact match).'),
      created_since: filter.datetime('Mails created at or after this time.'),
    },
  })
  listOutgoingMails(
    @CurrentOrganizer() organizer: Organizer,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<OutgoingMailJson>> {
    return this.mails.list(organizer, filters, page);
  }

  @Get(':id')
  @RequirePermission('organizer.outgoingmails:read')
  retrieveOutgoingMail(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
  ): Promise<OutgoingMailJson> {
    return this.mails.get(organizer, id);
  }
}
