import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import { generateToken, hashToken } from '../auth/credentials.service';
import type { Principal } from '../auth/principal';
import { NotFound } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import type { Organizer } from '../organizers/organizer.entity';
import type { CreateTeamApiTokenDto } from './team-api-token.dto';
import { TeamApiToken } from './team-api-token.entity';
import { TeamApiTokenQueries } from './team-api-token.queries';
import { CreatedTeamApiTokenJson, TeamApiTokenJson, toTeamApiTokenJson } from './team-api-token.presenter';
import { TeamsService } from './teams.service';

/** API tokens of a team (spec "Team API token", "States and transitions"; compat §3.1). */
@Injectable()
export class TeamApiTokensService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly teams: TeamsService,
    private readonly audit: AuditLogService,
    private readonly queries: TeamApiTokenQueries,
  ) {}

  /**
   * Tokens of a team, active and inactive, ordered by name, then id; never with the secret.
   * @throws ParentNotFound (403) for an unknown team or a team of another organizer
   */
  async list(organizer: Organizer, teamId: number, page: PageRequest): Promise<Paginated<TeamApiTokenJson>> {
    const team = await this.teams.findTeam(this.db, organizer, teamId);
    return this.queries.page(this.db, team.id, page, (rows) => rows.map(toTeamApiTokenJson));
  }

  /** @throws ParentNotFound (403) for an unknown team; NotFound for a token of another team */
  async get(organizer: Organizer, teamId: number, id: number): Promise<TeamApiTokenJson> {
    const team = await this.teams.findTeam(this.db, organizer, teamId);
    const token = await this.db.getRepository(TeamApiToken).findOne({ where: { id, teamId: team.id } });
    if (!token) throw new NotFound();
    return toTeamApiTokenJson(token);
  }

  /**
   * Creates an active token (201) and returns it with its 64-character secret, which is shown only here; the
   * database keeps its SHA-256. Logs `pretix.team.token.created`.
   * @throws ParentNotFound (403) for an unknown team
   */
  async create(
    organizer: Organizer,
    teamId: number,
    principal: Principal,
    body: CreateTeamApiTokenDto,
  ): Promise<CreatedTeamApiTokenJson> {
    return this.db.transaction(async (em) => {
      const team = await this.teams.findTeam(em, organizer, teamId);
      const secret = generateToken();
      const token = await em.save(
        em.create(TeamApiToken, {
          teamId: team.id,
          name: body.name,
          tokenHash: hashToken(secret),
          active: true,
        }),
      );
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        contentType: 'team',
        objectId: team.id,
        action: 'pretix.team.token.created',
        data: { name: token.name, id: token.id },
      });
      return { ...toTeamApiTokenJson(token), token: secret };
    });
  }

  /**
   * Deactivates a token for good (spec "States and transitions": active=true -> false; the row stays). Answers
   * 200 with the token (`active: false`). Logs `pretix.team.token.deleted`.
   * @throws ParentNotFound (403) for an unknown team; NotFound for a token of another team
   */
  async deactivate(
    organizer: Organizer,
    teamId: number,
    id: number,
    principal: Principal,
  ): Promise<TeamApiTokenJson> {
    return this.db.transaction(async (em) => {
      const team = await this.teams.findTeam(em, organizer, teamId);
      const token = await em.findOne(TeamApiToken, {
        where: { id, teamId: team.id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!token) throw new NotFound();
      token.active = false;
      await em.update(TeamApiToken, { id: token.id }, { active: false });
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        contentType: 'team',
        objectId: team.id,
        action: 'pretix.team.token.deleted',
        data: { name: token.name, id: token.id },
      });
      return toTeamApiTokenJson(token);
    });
  }
}
