import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { CurrentEvent } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { OrderPositionJson } from './order.presenter';
import { OrderPositionsService } from './order-positions.service';
import { POSITION_CANCELED_FILTERS, POSITION_LIST_FILTERS } from './order-filters';
import { NoStore } from '../../common/http/no-store';

/**
 * `E/orderpositions/` (compat §4.4): list and detail, permission `event.orders:read` (PATCH and
 * `regenerate_secrets`: `position-edits/`).
 */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/events/:event/orderpositions')
export class OrderPositionsController {
  constructor(private readonly positions: OrderPositionsService) {}

  @Get()
  @RequirePermission('event.orders:read')
  @ApiPaginatedResponse(OrderPositionJson)
  @ListFilters(POSITION_LIST_FILTERS)
  listOrderPositions(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<OrderPositionJson>> {
    return this.positions.list(event, filters, page);
  }

  @Get(':id')
  @RequirePermission('event.orders:read')
  @ListFilters({ filters: POSITION_CANCELED_FILTERS })
  retrieveOrderPosition(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @Filters() filters: QueryFilters,
  ): Promise<OrderPositionJson> {
    return this.positions.get(event, id, filters);
  }
}
