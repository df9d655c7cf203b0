import { Controller, Delete, Get, HttpCode } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Organizer } from '../organizers/organizer.entity';
import { IdParam } from '../common/http/id-param';
import { TeamMemberJson } from './team-member.presenter';
import { TeamMembersService } from './team-members.service';

/**
 * `O/teams/{team}/members/` (spec "Teams"; compat §3.1): list, detail, DELETE. There is no POST (405): users
 * join through invites.
 */
@ApiTags('teams')
@Controller('organizers/:organizer/teams/:team/members')
export class MembersController {
  constructor(private readonly members: TeamMembersService) {}

  @Get()
  @RequirePermission('organizer.teams:write')
  @ApiPaginatedResponse(TeamMemberJson)
  listMembers(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('team') team: number,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<TeamMemberJson>> {
    return this.members.list(organizer, team, page);
  }

  @Get(':id')
  @RequirePermission('organizer.teams:write')
  retrieveMember(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('team') team: number,
    @IdParam('id') id: number,
  ): Promise<TeamMemberJson> {
    return this.members.get(organizer, team, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('organizer.teams:write')
  async destroyMember(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('team') team: number,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.members.remove(organizer, team, id, principal);
  }
}
