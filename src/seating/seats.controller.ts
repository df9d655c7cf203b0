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
import { SeatsService } from './seats.service';
import { checkExpand, SEAT_DETAIL_FILTERS, SEAT_LIST_FILTERS } from './seat-list-filters';

/** Every route answers 404 for an event series (its seats are per date; compat §3.18). */
const SERIES_NOT_FOUND = {
  description: 'The event is a series: use the subevent-specific endpoint; or the seat does not exist.',
};

/**
 * `E/seats/` (compat §3.18) for events without dates. Read: event access (`expand` needs the permission of what it
 * expands: 403 without); write (`blocked`, bulk block and unblock): `event.settings.general:write`.
 */
@ApiTags('seats')
@Controller('organizers/:organizer/events/:event/seats')
export class SeatsController {
  constructor(private readonly seats: SeatsService) {}

  @Get()
  @RequireEventAccess()
  @ApiNotFoundResponse(SERIES_NOT_FOUND)
  @ApiPaginatedResponse(SeatJson)
  @ListFilters(SEAT_LIST_FILTERS)
  listSeats(
    @CurrentEvent() event: Event,
    @CurrentAccess() access: RequestAccess,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<SeatJson>> {
    checkExpand(filters, access);
    return this.seats.list(event, null, filters, page);
  }

  @Post('bulk_block')
  @ApiNotFoundResponse(SERIES_NOT_FOUND)
  @HttpCode(200)
  @RequirePermission('event.settings.general:write')
  async bulkBlockSeats(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: BulkSeatsDto,
  ): Promise<Record<string, never>> {
    await this.seats.bulk(event, null, body, true, principal);
    return {};
  }

  /** The spec's examples send the bulk calls with PATCH too. */
  @Patch('bulk_block')
  @ApiNotFoundResponse(SERIES_NOT_FOUND)
  @RequirePermission('event.settings.general:write')
  bulkBlockSeatsWithPatch(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: BulkSeatsDto,
  ): Promise<Record<string, never>> {
    return this.bulkBlockSeats(event, principal, body);
  }

  @Post('bulk_unblock')
  @ApiNotFoundResponse(SERIES_NOT_FOUND)
  @HttpCode(200)
  @RequirePermission('event.settings.general:write')
  async bulkUnblockSeats(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: BulkSeatsDto,
  ): Promise<Record<string, never>> {
    await this.seats.bulk(event, null, body, false, principal);
    return {};
  }

  @Patch('bulk_unblock')
  @ApiNotFoundResponse(SERIES_NOT_FOUND)
  @RequirePermission('event.settings.general:write')
  bulkUnblockSeatsWithPatch(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: BulkSeatsDto,
  ): Promise<Record<string, never>> {
    return this.bulkUnblockSeats(event, principal, body);
  }

  @Get(':id')
  @RequireEventAccess()
  @ApiNotFoundResponse(SERIES_NOT_FOUND)
  @ListFilters(SEAT_DETAIL_FILTERS)
  retrieveSeat(
    @CurrentEvent() event: Event,
    @CurrentAccess() access: RequestAccess,
    @Filters() filters: QueryFilters,
    @IdParam('id') id: number,
  ): Promise<SeatJson> {
    checkExpand(filters, access);
    return this.seats.get(event, null, id, filters);
  }

  @Patch(':id')
  @ApiNotFoundResponse(SERIES_NOT_FOUND)
  @RequirePermission('event.settings.general:write')
  partialUpdateSeat(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateSeatDto,
  ): Promise<SeatJson> {
    return this.seats.setBlocked(event, null, id, body.blocked, principal);
  }
}
