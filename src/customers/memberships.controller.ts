import { Body, Controller, Get, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { IdParam } from '../common/http/id-param';
import { filter, ListFilters } from '../common/http/list-filters';
import { NoStore } from '../common/http/no-store';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Organizer } from '../organizers/organizer.entity';
import { CreateMembershipDto, UpdateMembershipDto } from './membership.dto';
import { MembershipJson } from './membership.presenter';
import { MembershipsService } from './memberships.service';

/**
 * `O/memberships/` (pretix `MembershipViewSet`). Read: `organizer.customers:read`; write:
 * `organizer.customers:write` (docs/permissions.md). No DELETE (405; pretix: change the dates instead).
 */
@ApiTags('memberships')
@NoStore()
@Controller('organizers/:organizer/memberships')
export class MembershipsController {
  constructor(private readonly memberships: MembershipsService) {}

  @Get()
  @RequirePermission('organizer.customers:read')
  @ApiPaginatedResponse(MembershipJson)
  @ListFilters({
    filters: {
      customer: filter.text('Identifier of the customer (case-insensitive exact match).'),
      membership_type: filter.int('Id of the membership type.'),
      testmode: filter.bool('Only test mode (`true`) or only live (`false`) memberships.'),
    },
  })
  listMemberships(
    @CurrentOrganizer() organizer: Organizer,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<MembershipJson>> {
    return this.memberships.list(organizer, filters, page);
  }

  @Get(':id')
  @RequirePermission('organizer.customers:read')
  retrieveMembership(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
  ): Promise<MembershipJson> {
    return this.memberships.get(organizer, id);
  }

  @Post()
  @RequirePermission('organizer.customers:write')
  createMembership(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateMembershipDto,
  ): Promise<MembershipJson> {
    return this.memberships.create(organizer, principal, body);
  }

  @Put(':id')
  @RequirePermission('organizer.customers:write')
  updateMembership(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateMembershipDto,
  ): Promise<MembershipJson> {
    return this.memberships.update(organizer, id, principal, body);
  }

  @Patch(':id')
  @RequirePermission('organizer.customers:write')
  partialUpdateMembership(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateMembershipDto,
  ): Promise<MembershipJson> {
    return this.memberships.update(organizer, id, principal, body);
  }
}
