import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { CurrentEvent } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { filter, ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Event } from '../../organizers/event.entity';
import { OrderPositionJson } from './order.presenter';
import { OrderPositionsService } from './order-positions.service';
import { ORDER_STATUSES, POSITION_CANCELED_FILTERS } from './order-filters';
import { NoStore } from '../../common/http/no-store';

/** `E/orderpositions/` (compat §4.4): read-only here; other methods answer 405. Permission `event.orders:read`. */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/events/:event/orderpositions')
export class OrderPositionsController {
  constructor(private readonly positions: OrderPositionsService) {}

  @Get()
  @RequirePermission('event.orders:read')
  @ApiPaginatedResponse(OrderPositionJson)
  @ListFilters({
    filters: {
      order: filter.text("Code of the position's order (case-insensitive)."),
      order__status: filter.choice(
        ORDER_STATUSES,
        "Status of the position's order: `n` pending, `p` paid, `e` expired, `c` canceled.",
      ),
      item: filter.int("Id of the position's product."),
      variation: filter.int("Id of the position's variation."),
      addon_to: filter.int('Id of the position this one is an add-on to.'),
      voucher: filter.int('Id of the voucher the position used.'),
      attendee_email: filter.text('Attendee email address (case-insensitive exact match).'),
      secret: filter.text('Ticket secret (exact match).'),
      pseudonymization_id: filter.text('Pseudonymization id (exact match).'),
      ...POSITION_CANCELED_FILTERS,
    },
    ordering: ['id', 'positionid'],
  })
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
