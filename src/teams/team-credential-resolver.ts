import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import {
  CredentialResolution,
  CredentialResolver,
  ResolvedEvent,
  ResolvedOrganizer,
  ScopeSlugs,
  toTeamGrant,
} from '../auth/credential-resolver';
import type { TeamGrant } from '../auth/principal';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { TeamApiToken } from './team-api-token.entity';
import { TeamQueries } from './team.queries';

/**
 * The teams context's answer to auth's `CREDENTIAL_RESOLVER` port: a team token with its team's grants, and the
 * organizer and event of the URL (SQL of the organizers context, embedded), in ONE statement (README "API
 * conventions"; {@link TeamQueries.resolveToken}). No cache: a deactivated or deleted token is refused by the very
 * next request on every replica.
 */
@Injectable()
export class TeamCredentialResolver implements CredentialResolver {
  constructor(
    @InjectRepository(TeamApiToken) private readonly tokens: Repository<TeamApiToken>,
    private readonly tenancy: TenancyQueries,
    private readonly queries: TeamQueries,
  ) {}

  async resolveTeamToken(tokenHash: string, scope: ScopeSlugs): Promise<CredentialResolution> {
    const em = this.tokens.manager;
    const row = await this.queries.resolveToken(em, tokenHash, scope.organizer ?? null, scope.event ?? null);
    const tok = row?.token;
    return {
      teamToken: tok
        ? {
            tokenId: tok.token_id,
            tokenName: tok.token_name,
            active: tok.active,
            grant: toTeamGrant(tok.grant),
          }
        : null,
      organizer: this.tenancy.organizerFromJson(em, row?.organizer) as ResolvedOrganizer | null,
      event: this.tenancy.eventFromJson(em, row?.event) as ResolvedEvent | null,
    };
  }

  async grantsOfUser(userId: number): Promise<TeamGrant[]> {
    const grants = await this.queries.grantsOfUser(this.tokens.manager, userId);
    return grants.map(toTeamGrant);
  }

  async grantOfTeamToken(tokenId: number): Promise<TeamGrant | null> {
    const grant = await this.queries.grantOfActiveToken(this.tokens.manager, tokenId);
    return grant ? toTeamGrant(grant) : null;
  }
}
