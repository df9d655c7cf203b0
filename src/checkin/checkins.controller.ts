import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { CurrentEvent } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { filter, ListFilters } from '../common/http/list-filters';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Event } from '../organizers/event.entity';
import { CheckinRecordJson } from './checkin.presenter';
import { CheckinsService } from './checkins.service';

/** `E/checkins/`: the read-only history of scans (compat §3.22); `event.orders:read` or `event.orders:checkin`. */
@ApiTags('checkins')
@Controller('organizers/:organizer/events/:event/checkins')
export class CheckinsController {
  constructor(private readonly checkins: CheckinsService) {}

  @Get()
  @RequirePermission('event.orders:read', 'event.orders:checkin')
  @ApiPaginatedResponse(CheckinRecordJson)
  @ListFilters({
    filters: {
      successful: filter.bool('Only successful (`true`) or failed (`false`) scans.'),
      auto_checked_in: filter.bool('Only automatic (`true`) or manual (`false`) scans.'),
      type: filter.choice(['entry', 'exit'], 'Only scans of this direction.'),
      list: filter.int('Only scans on this check-in list.'),
      created_since: filter.datetime('Stored at or after this time.'),
      created_before: filter.datetime('Stored before this time.'),
      datetime_since: filter.datetime('Scanned at or after this time.'),
      datetime_before: filter.datetime('Scanned before this time.'),
    },
    ordering: ['id', 'created', 'datetime'],
  })
  listCheckins(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<CheckinRecordJson>> {
    return this.checkins.list(event, filters, page);
  }

  @Get(':id')
  @RequirePermission('event.orders:read', 'event.orders:checkin')
  retrieveCheckin(@CurrentEvent() event: Event, @IdParam('id') id: number): Promise<CheckinRecordJson> {
    return this.checkins.get(event, id);
  }
}
