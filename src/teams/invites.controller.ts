import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Organizer } from '../organizers/organizer.entity';
import { IdParam } from '../common/http/id-param';
import { CreateTeamInviteDto } from './team-invite.dto';
import { AddedMemberJson, TeamInviteJson } from './team-invite.presenter';
import { TeamInvitesService } from './team-invites.service';

/** `O/teams/{team}/invites/` (spec "Teams"; compat §3.1): list, detail, POST, DELETE. */
@ApiTags('teams')
@Controller('organizers/:organizer/teams/:team/invites')
export class InvitesController {
  constructor(private readonly invites: TeamInvitesService) {}

  @Get()
  @RequirePermission('organizer.teams:write')
  @ApiPaginatedResponse(TeamInviteJson)
  listInvites(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('team') team: number,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<TeamInviteJson>> {
    return this.invites.list(organizer, team, page);
  }

  @Get(':id')
  @RequirePermission('organizer.teams:write')
  retrieveInvite(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('team') team: number,
    @IdParam('id') id: number,
  ): Promise<TeamInviteJson> {
    return this.invites.get(organizer, team, id);
  }

  /** 201 `{id, email}` for a new invite, or `{email}` when an existing user was added to the team directly. */
  @Post()
  @RequirePermission('organizer.teams:write')
  @ApiExtraModels(TeamInviteJson, AddedMemberJson)
  @ApiCreatedResponse({
    schema: { anyOf: [{ $ref: getSchemaPath(TeamInviteJson) }, { $ref: getSchemaPath(AddedMemberJson) }] },
  })
  createInvite(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('team') team: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateTeamInviteDto,
  ): Promise<TeamInviteJson | AddedMemberJson> {
    return this.invites.create(organizer, team, principal, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermission('organizer.teams:write')
  async destroyInvite(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('team') team: number,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.invites.delete(organizer, team, id, principal);
  }
}
