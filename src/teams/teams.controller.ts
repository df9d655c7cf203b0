import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { ListFilters } from '../common/http/list-filters';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Filters, QueryFilters } from '../common/listing/query-filters';
import { Organizer } from '../organizers/organizer.entity';
import { IdParam } from '../common/http/id-param';
import { CreateTeamDto, UpdateTeamDto } from './team.dto';
import { TeamJson } from './team.presenter';
import { TeamsService } from './teams.service';

/** `O/teams/` (spec "Teams"; compat §3.1). Everything needs `organizer.teams:write`, reads too. */
@ApiTags('teams')
@Controller('organizers/:organizer/teams')
export class TeamsController {
  constructor(private readonly teams: TeamsService) {}

  @Get()
  @RequirePermission('organizer.teams:write')
  @ApiPaginatedResponse(TeamJson)
  @ListFilters({ ordering: ['id', 'name'] })
  listTeams(
    @CurrentOrganizer() organizer: Organizer,
    @Filters() filters: QueryFilters,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<TeamJson>> {
    return this.teams.list(organizer, filters, page);
  }

  @Get(':id')
  @RequirePermission('organizer.teams:write')
  retrieveTeam(@CurrentOrganizer() organizer: Organizer, @IdParam('id') id: number): Promise<TeamJson> {
    return this.teams.get(organizer, id);
  }

  @Post()
  @RequirePermission('organizer.teams:write')
  createTeam(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateTeamDto,
  ): Promise<TeamJson> {
    return this.teams.create(organizer, principal, body);
  }

  @Put(':id')
  @RequirePermission('organizer.teams:write')
  updateTeam(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateTeamDto,
  ): Promise<TeamJson> {
    return this.teams.update(organizer, id, principal, body, 'replace');
  }

  @Patch(':id')
  @RequirePermission('organizer.teams:write')
  partialUpdateTeam(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateTeamDto,
  ): Promise<TeamJson> {
    return this.teams.update(organizer, id, principal, body, 'patch');
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('organizer.teams:write')
  async destroyTeam(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.teams.delete(organizer, id, principal);
  }
}
