import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentEvent, CurrentPrincipal } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { filter, ListFilters } from '../common/http/list-filters';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Event } from '../organizers/event.entity';
import { CreateCheckinListDto, UpdateCheckinListDto } from './checkin-list.dto';
import { CheckinListJson } from './checkin-list.presenter';
import { CheckinListsService, CheckinListStatus, EXCLUDABLE } from './checkin-lists.service';
import { CheckinRecordJson } from './checkin.presenter';
import { CheckinsService } from './checkins.service';
import { FailedCheckinDto } from './redeem.dto';

const READ = ['event.orders:read', 'event.orders:checkin'] as const;
const WRITE = 'event.settings.general:write' as const;

/**
 * `E/checkinlists/` (spec "Check-in lists"; compat §3.20). Read: `event.orders:read` or `event.orders:checkin`;
 * write: `event.settings.general:write`; `failed_checkins/`: `event.orders:checkin` or `event.orders:write`
 * (docs/permissions.md).
 */
@ApiTags('checkinlists')
@Controller('organizers/:organizer/events/:event/checkinlists')
export class CheckinListsController {
  constructor(
    private readonly lists: CheckinListsService,
    private readonly checkins: CheckinsService,
  ) {}

  @Get()
  @RequirePermission(...READ)
  @ApiPaginatedResponse(CheckinListJson)
  @ListFilters({
    filters: {
      subevent: filter.int('Only the lists of this sub-event.'),
      subevent_match: filter.int('The lists of this sub-event and the lists valid for all dates.'),
      ends_after: filter.datetime('Only lists of dates ending after this time (and lists of no date).'),
      exclude: {
        schema: { type: 'array', items: { type: 'string', enum: [...EXCLUDABLE] } },
        description: 'Fields to leave out of the answer (repeatable), for example `checkin_count`.',
      },
    },
    ordering: ['id', 'name', 'subevent__date_from'],
    expand: ['subevent'],
  })
  listCheckinLists(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<CheckinListJson>> {
    return this.lists.list(event, filters, page);
  }

  @Get(':id')
  @RequirePermission(...READ)
  retrieveCheckinList(@CurrentEvent() event: Event, @IdParam('id') id: number): Promise<CheckinListJson> {
    return this.lists.get(event, id);
  }

  @Get(':id/status')
  @RequirePermission(...READ)
  getCheckinListStatus(@CurrentEvent() event: Event, @IdParam('id') id: number): Promise<CheckinListStatus> {
    return this.lists.status(event, id);
  }

  @Post()
  @RequirePermission(WRITE)
  createCheckinList(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateCheckinListDto,
  ): Promise<CheckinListJson> {
    return this.lists.create(event, principal, body);
  }

  @Put(':id')
  @RequirePermission(WRITE)
  updateCheckinList(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateCheckinListDto,
  ): Promise<CheckinListJson> {
    return this.lists.update(event, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission(WRITE)
  partialUpdateCheckinList(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateCheckinListDto,
  ): Promise<CheckinListJson> {
    return this.lists.update(event, id, principal, body, 'patch');
  }

  /** Deletes the list and every check-in made on it. */
  @Delete(':id')
  @HttpCode(204)
  @RequirePermission(WRITE)
  async destroyCheckinList(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.lists.delete(event, id, principal);
  }

  /** Stores a scan refused offline by a scanner (201; a repeated nonce is stored once). */
  @Post(':id/failed_checkins')
  @RequirePermission('event.orders:checkin', 'event.orders:write')
  failedCheckinListCheckins(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @IdParam('id') id: number,
    @Body() body: FailedCheckinDto,
  ): Promise<CheckinRecordJson> {
    return this.checkins.failed(event, principal, id, body);
  }
}

/** `DELETE E/checkinlist/{id}/`: the spec's singular path of the delete (spec "Check-in lists"). */
@ApiTags('checkinlists')
@Controller('organizers/:organizer/events/:event/checkinlist')
export class CheckinListSingularController {
  constructor(private readonly lists: CheckinListsService) {}

  /** Deletes the list and every check-in made on it (as `DELETE E/checkinlists/{id}/`). */
  @Delete(':id')
  @HttpCode(204)
  @RequirePermission(WRITE)
  async destroyCheckinlistByAlias(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.lists.delete(event, id, principal);
  }
}
