import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import type { User } from '../auth/user.entity';
import { UsersService } from '../auth/users.service';
import { NotFound } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import type { Organizer } from '../organizers/organizer.entity';
import { TeamMemberJson, toTeamMemberJson } from './team-member.presenter';
import { TeamQueries } from './team.queries';
import { TeamsService } from './teams.service';

/** Members of a team (spec "Team member"; compat §3.1): list, detail, removal. Members are added by invites. */
@Injectable()
export class TeamMembersService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly teams: TeamsService,
    private readonly audit: AuditLogService,
    private readonly users: UsersService,
    private readonly queries: TeamQueries,
  ) {}

  /**
   * Members of a team ordered by user id.
   * @throws ParentNotFound (403) for an unknown team or a team of another organizer
   */
  async list(organizer: Organizer, teamId: number, page: PageRequest): Promise<Paginated<TeamMemberJson>> {
    const team = await this.teams.findTeam(this.db, organizer, teamId);
    const users = await this.users.pageWhere(this.db, this.queries.memberOf(), { team: team.id }, page);
    return users.withItems(users.items.map(toTeamMemberJson));
  }

  /** @throws NotFound for an unknown team, or a user who is not a member of it */
  async get(organizer: Organizer, teamId: number, userId: number): Promise<TeamMemberJson> {
    const team = await this.teams.findTeam(this.db, organizer, teamId);
    return toTeamMemberJson(await this.member(this.db, team.id, userId));
  }

  /**
   * Removes a user from a team (204); the user account survives. Logs `pretix.team.member.removed`.
   * @throws NotFound for an unknown team, or a user who is not a member of it
   */
  async remove(organizer: Organizer, teamId: number, userId: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const team = await this.teams.findTeam(em, organizer, teamId, true);
      const user = await this.member(em, team.id, userId);
      await this.queries.removeMember(em, team.id, user.id);
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        contentType: 'team',
        objectId: team.id,
        action: 'pretix.team.member.removed',
        data: { email: user.email, user: user.id },
      });
    });
  }

  private async member(em: EntityManager, teamId: number, userId: number): Promise<User> {
    const user = await this.users.findWhere(em, userId, this.queries.memberOf(), { team: teamId });
    if (!user) throw new NotFound();
    return user;
  }
}
