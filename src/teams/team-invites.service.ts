import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import { generateToken } from '../auth/credentials.service';
import type { Principal } from '../auth/principal';
import { UsersService } from '../auth/users.service';
import { NotFound, ValidationFailed } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { MailOutboxService } from '../mail/mail-outbox.service';
import type { Organizer } from '../organizers/organizer.entity';
import type { CreateTeamInviteDto } from './team-invite.dto';
import { TeamInvite } from './team-invite.entity';
import { TeamInviteQueries } from './team-invite.queries';
import { AddedMemberJson, TeamInviteJson, toTeamInviteJson } from './team-invite.presenter';
import { TeamQueries } from './team.queries';
import { TeamsService } from './teams.service';

export const ALREADY_MEMBER = 'This user already has permissions for this team.';
export const ALREADY_INVITED = 'This user already has been invited for this team.';

/** Invitations into a team (spec "Team invite"; compat §3.1). */
@Injectable()
export class TeamInvitesService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly teams: TeamsService,
    private readonly audit: AuditLogService,
    private readonly mail: MailOutboxService,
    private readonly users: UsersService,
    private readonly queries: TeamInviteQueries,
    private readonly teamQueries: TeamQueries,
  ) {}

  /**
   * Open invites of a team ordered by e-mail, then id.
   * @throws ParentNotFound (403) for an unknown team or a team of another organizer
   */
  async list(organizer: Organizer, teamId: number, page: PageRequest): Promise<Paginated<TeamInviteJson>> {
    const team = await this.teams.findTeam(this.db, organizer, teamId);
    return this.queries.page(this.db, team.id, page, (rows) => rows.map(toTeamInviteJson));
  }

  /** @throws ParentNotFound (403) for an unknown team; NotFound for an invite of another team */
  async get(organizer: Organizer, teamId: number, id: number): Promise<TeamInviteJson> {
    const team = await this.teams.findTeam(this.db, organizer, teamId);
    const invite = await this.db.getRepository(TeamInvite).findOne({ where: { id, teamId: team.id } });
    if (!invite) throw new NotFound();
    return toTeamInviteJson(invite);
  }

  /**
   * Invites an e-mail address (compat §3.1). When a user with that address exists (case-insensitively), the user
   * is added to the team at once and the answer is `{email}` without id (log `pretix.team.member.added`).
   * Otherwise an invite with a random token is stored, one invitation e-mail is put into the outbox, and the
   * answer is `{id, email}` (log `pretix.team.invite.created`). The team row is locked, so concurrent requests
   * for one address cannot both succeed.
   * @throws ParentNotFound (403) for an unknown team
   * @throws ValidationFailed bare list: the user is already a member, or the address is already invited
   */
  async create(
    organizer: Organizer,
    teamId: number,
    principal: Principal,
    body: CreateTeamInviteDto,
  ): Promise<TeamInviteJson | AddedMemberJson> {
    return this.db.transaction(async (em) => {
      const team = await this.teams.findTeam(em, organizer, teamId, true);
      const user = await this.users.findByEmail(em, body.email);
      if (user) {
        if (await this.teamQueries.isMember(em, team.id, user.id))
          throw ValidationFailed.bare(ALREADY_MEMBER);
        await this.teamQueries.addMember(em, team.id, user.id);
        await this.audit.record(em, principal, {
          organizerId: organizer.id,
          contentType: 'team',
          objectId: team.id,
          action: 'pretix.team.member.added',
          data: { email: user.email, user: user.id },
        });
        return { email: user.email };
      }
      const invited = await this.queries.invited(em, team.id, body.email);
      if (invited) throw ValidationFailed.bare(ALREADY_INVITED);
      const invite = await em.save(
        em.create(TeamInvite, { teamId: team.id, email: body.email, token: generateToken(32) }),
      );
      await this.mail.enqueue(em, {
        organizerId: organizer.id,
        to: invite.email,
        subject: 'You have been invited to a team',
        body:
          `Hello,\n\nyou have been invited to join the team "${team.name}" of the organizer ` +
          `"${organizer.name}".\n\nTo accept the invitation, create an account with this e-mail address and ` +
          `use this invitation code: ${invite.token}\n\nIf you did not expect this invitation, you can ignore ` +
          `this e-mail.\n`,
      });
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        contentType: 'team',
        objectId: team.id,
        action: 'pretix.team.invite.created',
        data: { email: invite.email, id: invite.id },
      });
      return toTeamInviteJson(invite);
    });
  }

  /**
   * Revokes an invite (204). Logs `pretix.team.invite.deleted`.
   * @throws ParentNotFound (403) for an unknown team; NotFound for an invite of another team
   */
  async delete(organizer: Organizer, teamId: number, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const team = await this.teams.findTeam(em, organizer, teamId, true);
      const invite = await em.findOne(TeamInvite, { where: { id, teamId: team.id } });
      if (!invite) throw new NotFound();
      await em.delete(TeamInvite, { id: invite.id });
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        contentType: 'team',
        objectId: team.id,
        action: 'pretix.team.invite.deleted',
        data: { email: invite.email, id: invite.id },
      });
    });
  }
}
