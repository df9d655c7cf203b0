import { Body, Controller, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentAccess, CurrentEvent, CurrentPrincipal, RequestAccess } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { ListFilters } from '../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Event } from '../organizers/event.entity';
import { BulkSeatsDto, UpdateSeatDto } from './seat.dto';
import { SeatJson } from './seat.presenter';
import { checkExpand, SEAT_DETAIL_FILTERS, SEAT_LIST_FILTERS } from './seat-list-filters';
import { SeatsService } from './seats.service';

/** Every route answers 404 on an event without dates and for a date of another event (compat §3.18). */
const WRONG_FORM = {
  description:
    'The event has no sub-events (`This event has no subevents`), the sub-event is not one of the event ' +
    '(`Subevent not found`), or the seat does not exist.',
};

/**
 * `E/subevents/{subevent}/seats/` (compat §3.18): the seats of one date of a series, with the routes, filters and
 * permissions of `E/seats/` (read: event access, `expand` needs the permission of what it expands; write:
 * `event.settings.general:write`).
 */
@ApiTags('seats')
@Controller('organizers/:organizer/events/:event/subevents/:subevent/seats')
export class SubEventSeatsController {
  constructor(private readonly seats: SeatsService) {}

  @Get()
  @RequireEventAccess()
  @ApiNotFoundResponse(WRONG_FORM)
  @ApiPaginatedResponse(SeatJson)
  @ListFilters(SEAT_LIST_FILTERS)
  listSeats2(
    @CurrentEvent() event: Event,
    @IdParam('subevent') subevent: number,
    @CurrentAccess() access: RequestAccess,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<SeatJson>> {
    checkExpand(filters, access);
    return this.seats.list(event, subevent, filters, page);
  }

  @Post('bulk_block')
  @ApiNotFoundResponse(WRONG_FORM)
  @HttpCode(200)
  @RequirePermission('event.settings.general:write')
  async bulkBlockSeats2(
    @CurrentEvent() event: Event,
    @IdParam('subevent') subevent: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: BulkSeatsDto,
  ): Promise<Record<string, never>> {
    await this.seats.bulk(event, subevent, body, true, principal);
    return {};
  }

  /** The spec's examples send the bulk calls with PATCH too. */
  @Patch('bulk_block')
  @ApiNotFoundResponse(WRONG_FORM)
  @RequirePermission('event.settings.general:write')
  bulkBlockSeatsWithPatch2(
    @CurrentEvent() event: Event,
    @IdParam('subevent') subevent: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: BulkSeatsDto,
  ): Promise<Record<string, never>> {
    return this.bulkBlockSeats2(event, subevent, principal, body);
  }

  @Post('bulk_unblock')
  @ApiNotFoundResponse(WRONG_FORM)
  @HttpCode(200)
  @RequirePermission('event.settings.general:write')
  async bulkUnblockSeats2(
    @CurrentEvent() event: Event,
    @IdParam('subevent') subevent: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: BulkSeatsDto,
  ): Promise<Record<string, never>> {
    await this.seats.bulk(event, subevent, body, false, principal);
    return {};
  }

  @Patch('bulk_unblock')
  @ApiNotFoundResponse(WRONG_FORM)
  @RequirePermission('event.settings.general:write')
  bulkUnblockSeatsWithPatch2(
    @CurrentEvent() event: Event,
    @IdParam('subevent') subevent: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: BulkSeatsDto,
  ): Promise<Record<string, never>> {
    return this.bulkUnblockSeats2(event, subevent, principal, body);
  }

  @Get(':id')
  @RequireEventAccess()
  @ApiNotFoundResponse(WRONG_FORM)
  @ListFilters(SEAT_DETAIL_FILTERS)
  retrieveSeat2(
    @CurrentEvent() event: Event,
    @IdParam('subevent') subevent: number,
    @CurrentAccess() access: RequestAccess,
    @Filters() filters: QueryFilters,
    @IdParam('id') id: number,
  ): Promise<SeatJson> {
    checkExpand(filters, access);
    return this.seats.get(event, subevent, id, filters);
  }

  @Patch(':id')
  @ApiNotFoundResponse(WRONG_FORM)
  @RequirePermission('event.settings.general:write')
  partialUpdateSeat2(
    @CurrentEvent() event: Event,
    @IdParam('subevent') subevent: number,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateSeatDto,
  ): Promise<SeatJson> {
    return this.seats.setBlocked(event, subevent, id, body.blocked, principal);
  }
}
