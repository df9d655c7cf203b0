import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireOrganizerAccess } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../../auth/request-context';
import { ListFilters } from '../../common/http/list-filters';
import { NoStore } from '../../common/http/no-store';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Organizer } from '../../organizers/organizer.entity';
import { OrganizerOrderPositionJson } from './order.presenter';
import { ORGANIZER_POSITION_LIST_FILTERS } from './order-filters';
import { OrderPositionsService } from './order-positions.service';

/**
 * `O/orderpositions/` (pretix 2026.01): read-only list of the positions of all events of the organizer, filtered to
 * the events where the credential holds `event.orders:read` (as `O/orders/`, docs/permissions.md); the filters of
 * `E/orderpositions/` plus `event` (slug). Each position carries `event` (slug).
 */
@ApiTags('orders')
@NoStore()
@Controller('organizers/:organizer/orderpositions')
export class OrganizerOrderPositionsController {
  constructor(private readonly positions: OrderPositionsService) {}

  @Get()
  @RequireOrganizerAccess()
  @ApiPaginatedResponse(OrganizerOrderPositionJson)
  @ListFilters(ORGANIZER_POSITION_LIST_FILTERS)
  listOrganizerOrderPositions(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<OrganizerOrderPositionJson>> {
    return this.positions.listForOrganizer(organizer, principal, filters, page);
  }
}
