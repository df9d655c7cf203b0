import { Controller, Get, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireOrganizerAccess } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../../auth/request-context';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { isoUtc } from '../../common/values/datetime';
import { Organizer } from '../../organizers/organizer.entity';
import { OrderJson } from './order.presenter';
import { ORGANIZER_ORDER_LIST_FILTERS } from './order-filters';
import { OrdersService } from './orders.service';
import { NoStore } from '../../common/http/no-store';

/**
 * `O/orders/` (compat §4.4, newer pretix): read-only list over all events of the organizer, filtered to the
 * events where the credential holds `event.orders:read` (docs/permissions.md); same filters as `E/orders/`.
 */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/orders')
export class OrganizerOrdersController {
  constructor(private readonly orders: OrdersService) {}

  /** The list, with header `X-Page-Generated` (pass it back as `modified_since`; see `OrderListQueries.syncHorizon`). */
  @Get()
  @RequireOrganizerAccess()
  @ApiPaginatedResponse(OrderJson)
  @ListFilters(ORGANIZER_ORDER_LIST_FILTERS)
  listOrganizerOrders(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Paginated<OrderJson>> {
    return this.orders
      .listForOrganizer(organizer, principal, filters, page)
      .then(({ page: result, generated }) => {
        res.setHeader('X-Page-Generated', isoUtc(generated));
        return result;
      });
  }
}
