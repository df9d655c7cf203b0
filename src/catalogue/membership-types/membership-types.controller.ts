import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../../auth/request-context';
import { IdParam } from '../../common/http/id-param';
import { ApiPaginatedResponse } from '../../common/http/openapi';
import { ListFilters } from '../../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../../common/listing/pagination';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Organizer } from '../../organizers/organizer.entity';
import { CreateMembershipTypeDto, UpdateMembershipTypeDto } from './membership-type.dto';
import { MembershipTypeJson } from './membership-type.presenter';
import { MembershipTypesService } from './membership-types.service';

/**
 * `O/membershiptypes/` (spec "Membership types"; compat §3.6). Reads and writes need
 * `organizer.settings.general:write` (docs/permissions.md).
 */
@ApiTags('membership types')
@Controller('organizers/:organizer/membershiptypes')
export class MembershipTypesController {
  constructor(private readonly types: MembershipTypesService) {}

  @Get()
  @RequirePermission('organizer.settings.general:write')
  @ApiPaginatedResponse(MembershipTypeJson)
  @ListFilters({ ordering: ['id'] })
  listMembershipTypes(
    @CurrentOrganizer() organizer: Organizer,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<MembershipTypeJson>> {
    return this.types.list(organizer, filters, page);
  }

  @Get(':id')
  @RequirePermission('organizer.settings.general:write')
  retrieveMembershipType(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
  ): Promise<MembershipTypeJson> {
    return this.types.get(organizer, id);
  }

  @Post()
  @RequirePermission('organizer.settings.general:write')
  createMembershipType(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateMembershipTypeDto,
  ): Promise<MembershipTypeJson> {
    return this.types.create(organizer, principal, body);
  }

  @Put(':id')
  @RequirePermission('organizer.settings.general:write')
  updateMembershipType(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateMembershipTypeDto,
  ): Promise<MembershipTypeJson> {
    return this.types.update(organizer, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('organizer.settings.general:write')
  partialUpdateMembershipType(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateMembershipTypeDto,
  ): Promise<MembershipTypeJson> {
    return this.types.update(organizer, id, principal, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('organizer.settings.general:write')
  async destroyMembershipType(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.types.delete(organizer, id, principal);
  }
}
