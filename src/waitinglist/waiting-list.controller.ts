import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { filter, ListFilters } from '../common/http/list-filters';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Event } from '../organizers/event.entity';
import { CreateWaitingListEntryDto, UpdateWaitingListEntryDto } from './waiting-list-entry.dto';
import { WaitingListEntryJson } from './waiting-list-entry.presenter';
import { WaitingListService } from './waiting-list.service';

/**
 * `E/waitinglistentries/` (pretix `WaitingListViewSet`). Read: `event.orders:read`; write: `event.orders:write`
 * (docs/permissions.md; compat §2 table). An entry with a voucher can no longer be changed or deleted (403).
 */
@ApiTags('waitinglistentries')
@Controller('organizers/:organizer/events/:event/waitinglistentries')
export class WaitingListController {
  constructor(private readonly entries: WaitingListService) {}

  @Get()
  @RequirePermission('event.orders:read')
  @ApiPaginatedResponse(WaitingListEntryJson)
  @ListFilters({
    filters: {
      item: filter.int('Id of the product the entry waits for.'),
      variation: filter.int('Id of the variation the entry waits for.'),
      subevent: filter.int('Id of the event date the entry waits for.'),
      email: filter.text('E-mail address (exact match).'),
      locale: filter.text('Language code of the entry (exact match).'),
      has_voucher: filter.bool('Whether a voucher was sent to the entry.'),
    },
    ordering: ['id', 'created', 'email', 'item'],
  })
  listWaitingListEntries(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<WaitingListEntryJson>> {
    return this.entries.list(event, filters, page);
  }

  @Get(':id')
  @RequirePermission('event.orders:read')
  retrieveWaitingListEntry(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
  ): Promise<WaitingListEntryJson> {
    return this.entries.get(event, id);
  }

  @Post()
  @RequirePermission('event.orders:write')
  createWaitingListEntry(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateWaitingListEntryDto,
  ): Promise<WaitingListEntryJson> {
    return this.entries.create(event, principal, body);
  }

  @Put(':id')
  @RequirePermission('event.orders:write')
  updateWaitingListEntry(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateWaitingListEntryDto,
  ): Promise<WaitingListEntryJson> {
    return this.entries.update(event, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('event.orders:write')
  partialUpdateWaitingListEntry(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateWaitingListEntryDto,
  ): Promise<WaitingListEntryJson> {
    return this.entries.update(event, id, principal, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('event.orders:write')
  async destroyWaitingListEntry(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.entries.delete(event, id, principal);
  }

  /**
   * Sends the entry a voucher now (one use, valid for `waiting_list_hours`, blocking quota) and mails it. No body.
   * 400 with a bare list when no place is free, the entry is anonymized or already has a voucher.
   */
  @Post(':id/send_voucher')
  @HttpCode(204)
  @RequirePermission('event.orders:write')
  @ApiNoContentResponse({ description: 'The voucher was created and its mail queued.' })
  async sendWaitingListVoucher(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.entries.sendVoucher(event, id, principal);
  }
}
