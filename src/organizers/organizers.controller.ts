import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireAuthentication, RequireOrganizerAccess, RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { ListFilters } from '../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Organizer } from './organizer.entity';
import { UpdateOrganizerDto } from './organizer.dto';
import { OrganizerJson } from './organizer.presenter';
import { OrganizersService } from './organizers.service';

/**
 * `GET /api/v1/organizers/`, `GET` and `PATCH /api/v1/organizers/{organizer}/` (compat §4.1; PATCH needs
 * `organizer.settings.general:write`, pretix `OrganizerViewSet.write_permission`).
 */
@ApiTags('organizers')
@Controller('organizers')
export class OrganizersController {
  constructor(private readonly organizers: OrganizersService) {}

  @Get()
  @RequireAuthentication()
  @ApiPaginatedResponse(OrganizerJson)
  @ListFilters({ ordering: ['name', 'slug'] })
  listOrganizers(
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<OrganizerJson>> {
    return this.organizers.list(principal, filters, page);
  }

  @Get(':organizer')
  @RequireOrganizerAccess()
  retrieveOrganizer(@CurrentOrganizer() organizer: Organizer): OrganizerJson {
    return this.organizers.get(organizer);
  }

  @Patch(':organizer')
  @RequirePermission('organizer.settings.general:write')
  partialUpdateOrganizer(
    @CurrentOrganizer() organizer: Organizer,
    @Body() body: UpdateOrganizerDto,
  ): OrganizerJson {
    return this.organizers.update(organizer, body);
  }
}
