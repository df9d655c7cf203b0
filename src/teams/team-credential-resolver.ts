import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import {
  CredentialResolution,
  CredentialResolver,
  ResolvedEvent,
  ResolvedOrganizer,
  ScopeSlugs,
  TeamGrantRow,
  toTeamGrant,
} from '../auth/credential-resolver';
import type { TeamGrant } from '../auth/principal';
import { preparedQuery } from '../common/persistence/prepared';
import { TenancyQueries } from '../organizers/tenancy-queries';
import { TeamApiToken } from './team-api-token.entity';

/**
 * The teams context's answer to auth's `CREDENTIAL_RESOLVER` port: a team token with its team's grants, and the
 * organizer and event of the URL (SQL of the organizers context, embedded), in ONE statement (issue 7). No cache:
 * a deactivated or deleted token is refused by the very next request on every replica.
 */
@Injectable()
export class TeamCredentialResolver implements CredentialResolver {
  private readonly tokenSql: string;
  private readonly userGrantsSql: string;

  constructor(
    @InjectRepository(TeamApiToken) private readonly tokens: Repository<TeamApiToken>,
    private readonly tenancy: TenancyQueries,
  ) {
    const grant = `jsonb_build_object('team_id', team.id, 'team_name', team.name,
      'organizer_id', team.organizer_id, 'organizer_slug', ${tenancy.organizerSlugOf('team.organizer_id')},
      'all_events', team.all_events,
      'event_ids', ARRAY(SELECT tle.event_id FROM team_limit_event tle WHERE tle.team_id = team.id),
      'all_event_permissions', team.all_event_permissions, 'limit_event_permissions', team.limit_event_permissions,
      'all_organizer_permissions', team.all_organizer_permissions,
      'limit_organizer_permissions', team.limit_organizer_permissions)`;
    this.tokenSql = `SELECT
      (SELECT jsonb_build_object('token_id', tok.id, 'token_name', tok.name, 'active', tok.active, 'grant', ${grant})
         FROM team_api_token tok JOIN team ON team.id = tok.team_id WHERE tok.token_hash = $1) AS token,
      ${tenancy.organizerBySlug('$2::varchar')} AS organizer,
      ${tenancy.eventBySlugs('$2::varchar', '$3::varchar')} AS event`;
    this.userGrantsSql = `SELECT ${grant} AS grant FROM team JOIN team_member tm ON tm.team_id = team.id
      WHERE tm.user_id = $1`;
  }

  async resolveTeamToken(tokenHash: string, scope: ScopeSlugs): Promise<CredentialResolution> {
    const rows = await preparedQuery<{ token: TokenJson | null; organizer: unknown; event: unknown }>(
      this.tokens.manager,
      this.tokenSql,
      [tokenHash, scope.organizer ?? null, scope.event ?? null],
    );
    const row = rows[0];
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
      organizer: this.tenancy.organizerFromJson(row?.organizer) as ResolvedOrganizer | null,
      event: this.tenancy.eventFromJson(row?.event) as ResolvedEvent | null,
    };
  }

  async grantsOfUser(userId: number): Promise<TeamGrant[]> {
    const rows: { grant: TeamGrantRow }[] = await this.tokens.query(this.userGrantsSql, [userId]);
    return rows.map((r) => toTeamGrant(r.grant));
  }
}

interface TokenJson {
  token_id: number;
  token_name: string;
  active: boolean;
  grant: TeamGrantRow;
}
