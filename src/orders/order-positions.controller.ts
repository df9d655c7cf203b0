import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { CurrentEvent } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Event } from '../organizers/event.entity';
import { OrderPositionJson } from './order.presenter';
import { OrderPositionsService } from './order-positions.service';

/** `E/orderpositions/` (compat §4.4): read-only here; other methods answer 405. Permission `event.orders:read`. */
@ApiTags('orders')
@Controller('organizers/:organizer/events/:event/orderpositions')
export class OrderPositionsController {
  constructor(private readonly positions: OrderPositionsService) {}

  @Get()
  @RequirePermission('event.orders:read')
  @ApiPaginatedResponse(OrderPositionJson)
  list(
    @CurrentEvent() event: Event,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<OrderPositionJson>> {
    return this.positions.list(event, filters, page);
  }

  @Get(':id')
  @RequirePermission('event.orders:read')
  get(
    @CurrentEvent() event: Event,
    @IdParam('id') id: number,
    @Filters() filters: QueryFilters,
  ): Promise<OrderPositionJson> {
    return this.positions.get(event, id, filters);
  }
}
