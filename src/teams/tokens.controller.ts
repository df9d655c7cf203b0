import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { ApiPaginatedResponse } from '../common/http/openapi';
import { PageRequest, Paginated, Pagination } from '../common/listing/pagination';
import { Organizer } from '../organizers/organizer.entity';
import { IdParam } from '../common/http/id-param';
import { CreateTeamApiTokenDto } from './team-api-token.dto';
import { CreatedTeamApiTokenJson, TeamApiTokenJson } from './team-api-token.presenter';
import { TeamApiTokensService } from './team-api-tokens.service';
import { NoStore } from '../common/http/no-store';

/**
 * `O/teams/{team}/tokens/` (spec "Teams", "States and transitions"; compat §3.1). DELETE deactivates and answers
 * 200 with the token; the secret appears only in the POST answer.
 */
@ApiTags('teams')
@Controller('organizers/:organizer/teams/:team/tokens')
export class TokensController {
  constructor(private readonly tokens: TeamApiTokensService) {}

  @Get()
  @RequirePermission('organizer.teams:write')
  @ApiPaginatedResponse(TeamApiTokenJson)
  listTokens(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('team') team: number,
    @Pagination() page: PageRequest,
  ): Promise<Paginated<TeamApiTokenJson>> {
    return this.tokens.list(organizer, team, page);
  }

  @Get(':id')
  @RequirePermission('organizer.teams:write')
  retrieveToken(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('team') team: number,
    @IdParam('id') id: number,
  ): Promise<TeamApiTokenJson> {
    return this.tokens.get(organizer, team, id);
  }

  @NoStore()
  @Post()
  @RequirePermission('organizer.teams:write')
  createToken(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('team') team: number,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateTeamApiTokenDto,
  ): Promise<CreatedTeamApiTokenJson> {
    return this.tokens.create(organizer, team, principal, body);
  }

  @Delete(':id')
  @HttpCode(200)
  @RequirePermission('organizer.teams:write')
  destroyToken(
    @CurrentOrganizer() organizer: Organizer,
    @IdParam('team') team: number,
    @IdParam('id') id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<TeamApiTokenJson> {
    return this.tokens.deactivate(organizer, team, id, principal);
  }
}
