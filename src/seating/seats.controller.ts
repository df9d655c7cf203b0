import { Body, Controller, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import { RequireEventAccess, RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentAccess, CurrentEvent, CurrentPrincipal, RequestAccess } from '../auth/request-context';
import { PermissionDenied } from '../common/errors';
import { IdParam } from '../common/http/id-param';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { filter, ListFilters } from '../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Event } from '../organizers/event.entity';
import { BulkSeatsDto, UpdateSeatDto } from './seat.dto';
import { SeatJson } from './seat.presenter';
import { SeatsService } from './seats.service';

/** What `?expand=` may ask for, with the permission each needs (docs/permissions.md "seats"). */
const EXPANDABLE: Record<string, string> = {
  orderposition: 'event.orders:read',
  cartposition: 'event.orders:read',
  voucher: 'event.vouchers:read',
};

/** The bulk calls answer 404 for an event series (its seats are per date; compat §3.18). */
const SERIES_NOT_FOUND = { description: 'The event is a series: use the subevent-specific endpoint.' };

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
  @ApiPaginatedResponse(SeatJson)
  @ListFilters({
    filters: {
      zone_name: filter.text('Zone name (exact match).'),
      row_name: filter.text('Row name (exact match).'),
      row_label: filter.text('Row label (exact match).'),
      seat_number: filter.text('Seat number (exact match).'),
      seat_label: filter.text('Seat label (exact match).'),
      seat_guid: filter.text('Seat GUID of the seating plan (exact match).'),
      blocked: filter.bool('Only blocked (`true`) or only unblocked (`false`) seats.'),
      is_available: filter.bool('Only available (`true`) or only unavailable (`false`) seats.'),
    },
    ordering: ['id'],
    expand: ['orderposition', 'cartposition', 'voucher'],
  })
  list(
    @CurrentEvent() event: Event,
    @CurrentAccess() access: RequestAccess,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<SeatJson>> {
    checkExpand(filters, access);
    return this.seats.list(event, filters, page);
  }

  @Post('bulk_block')
  @ApiNotFoundResponse(SERIES_NOT_FOUND)
  @HttpCode(200)
  @RequirePermission('event.settings.general:write')
  async bulkBlock(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: BulkSeatsDto,
  ): Promise<Record<string, never>> {
    await this.seats.bulk(event, body, true, principal);
    return {};
  }

  /** The spec's examples send the bulk calls with PATCH too. */
  @Patch('bulk_block')
  @ApiNotFoundResponse(SERIES_NOT_FOUND)
  @RequirePermission('event.settings.general:write')
  bulkBlockPatch(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: BulkSeatsDto,
  ): Promise<Record<string, never>> {
    return this.bulkBlock(event, principal, body);
  }

  @Post('bulk_unblock')
  @ApiNotFoundResponse(SERIES_NOT_FOUND)
  @HttpCode(200)
  @RequirePermission('event.settings.general:write')
  async bulkUnblock(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: BulkSeatsDto,
  ): Promise<Record<string, never>> {
    await this.seats.bulk(event, body, false, principal);
    return {};
  }

  @Patch('bulk_unblock')
  @ApiNotFoundResponse(SERIES_NOT_FOUND)
  @RequirePermission('event.settings.general:write')
  bulkUnblockPatch(
    @CurrentEvent() event: Event,
    @CurrentPrincipal() principal: Principal,
    @Body() body: BulkSeatsDto,
  ): Promise<Record<string, never>> {
    return this.bulkUnblock(event, principal, body);
  }

  @Get(':id')
  @RequireEventAccess()
  @ListFilters({ expand: ['orderposition', 'cartposition', 'voucher'] })
  get(
    @CurrentEvent() event: Event,
    @CurrentAccess() access: RequestAccess,
    @Filters() filters: QueryFilters,
    @IdParam('id') id: number,
  ): Promise<SeatJson> {
    checkExpand(filters, access);
    return this.seats.get(event, id);
  }

  @Patch(':id')
  @RequirePermission('event.settings.general:write')
  update(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateSeatDto,
  ): Promise<SeatJson> {
    return this.seats.setBlocked(event, id, body.blocked, principal);
  }
}

/** @throws PermissionDenied when `expand` names an object the credential may not read */
function checkExpand(filters: QueryFilters, access: RequestAccess): void {
  for (const name of filters.expand(Object.keys(EXPANDABLE))) {
    if (!access.eventPermissions?.has(EXPANDABLE[name])) throw new PermissionDenied();
  }
}
