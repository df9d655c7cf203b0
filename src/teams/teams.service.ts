import { Injectable } from '@nestjs/common';
import { findOrNotFound, findParentOr403 } from '../common/persistence/find';
import { groupBy } from '../common/values/collections';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import { generateToken, hashToken } from '../auth/credentials.service';
import type { Principal } from '../auth/principal';
import { ErrorCollector, ValidationFailed } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { WriteMode } from '../common/persistence/write';
import type { Organizer } from '../organizers/organizer.entity';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { TeamApiToken } from './team-api-token.entity';
import { resolveTeamInput, TEAM_DEFAULTS, TeamFields } from './team-input';
import type { CreateTeamDto } from './team.dto';
import { Team } from './team.entity';
import { TeamQueries } from './team.queries';
import { TeamJson, toTeamJson } from './team.presenter';

export const ADMINISTRATORS = 'Administrators';

/** Teams of an organizer (spec "Team"; compat §3.1). */
@Injectable()
export class TeamsService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly tenancy: TenancyQueries,
    private readonly queries: TeamQueries,
  ) {}

  /** The organizer's "Administrators" team with all events and all permissions, created when missing. */
  async ensureAdministrators(organizer: Organizer): Promise<Team> {
    return this.db.transaction(async (em) => {
      await this.queries.lockBootstrap(em, organizer.id);
      const existing = await em.findOne(Team, {
        where: { organizerId: organizer.id, name: ADMINISTRATORS },
        order: { id: 'ASC' },
      });
      if (existing) {
        existing.allEvents = true;
        existing.allEventPermissions = true;
        existing.allOrganizerPermissions = true;
        return em.save(existing);
      }
      return em.save(
        em.create(Team, {
          organizerId: organizer.id,
          name: ADMINISTRATORS,
          allEvents: true,
          allEventPermissions: true,
          allOrganizerPermissions: true,
          limitEventPermissions: [],
          limitOrganizerPermissions: [],
        }),
      );
    });
  }

  /** Creates an active API token for a team and returns its secret (shown once; only its hash is stored). */
  async issueToken(team: Team, name: string): Promise<string> {
    const token = generateToken();
    await this.db
      .getRepository(TeamApiToken)
      .insert({ teamId: team.id, name, tokenHash: hashToken(token), active: true });
    return token;
  }

  /**
   * The team `id` of the organizer as the parent of its sub-resources (members, invites, tokens).
   * With `lock`, the row is locked for the rest of the transaction (serialises writes to one team).
   * @throws ParentNotFound (403) when no team of this organizer has that id (spec: a missing parent is 403)
   */
  async findTeam(em: EntityManager, organizer: Organizer, id: number, lock = false): Promise<Team> {
    return findParentOr403(em, Team, { id, organizerId: organizer.id }, lock);
  }

  /** Lists the organizer's teams; ordering `id` (default) or `name`. One SQL statement whatever the page size. */
  async list(organizer: Organizer, filters: QueryFilters, page: PageRequest): Promise<Paginated<TeamJson>> {
    const teams = await this.queries.page(this.db, organizer.id, filters, page);
    return teams.withItems(teams.items.map((r) => toTeamJson(r.team, r.limitEvents)));
  }

  /** @throws NotFound for an unknown id or a team of another organizer */
  async get(organizer: Organizer, id: number): Promise<TeamJson> {
    const found = await this.queries.one(this.db, organizer.id, id);
    return toTeamJson(found.team, found.limitEvents);
  }

  /**
   * Creates a team (201). Omitted fields take their defaults; legacy booleans are applied to the lists.
   * @throws ValidationFailed on unknown `limit_events` slugs or `all_events` with `limit_events`
   */
  async create(organizer: Organizer, principal: Principal, body: CreateTeamDto): Promise<TeamJson> {
    const input = resolveTeamInput(body, { name: body.name, ...TEAM_DEFAULTS });
    return this.db.transaction(async (em) => {
      const eventIds = await this.validate(em, organizer, input);
      const team = em.create(Team, { organizerId: organizer.id });
      this.apply(team, input);
      await em.save(team);
      await this.setLimitEvents(em, team.id, eventIds);
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        contentType: 'team',
        objectId: team.id,
        action: 'pretix.team.created',
        data: { ...body },
      });
      return toTeamJson(team, input.limit_events);
    });
  }

  /**
   * PUT (`replace`: omitted real fields reset to their defaults; omitted legacy booleans change nothing) or PATCH
   * (`patch`: only the fields sent). Rules are checked on the merged data (compat §3.1).
   * @throws NotFound for an unknown id or a team of another organizer
   * @throws ValidationFailed as for create
   */
  async update(
    organizer: Organizer,
    id: number,
    principal: Principal,
    body: Partial<CreateTeamDto>,
    mode: Exclude<WriteMode, 'create'>,
  ): Promise<TeamJson> {
    return this.db.transaction(async (em) => {
      const team = await findOrNotFound(em, Team, { id, organizerId: organizer.id }, true);
      const stored = (await this.limitEventSlugs(em, [team.id])).get(team.id) ?? [];
      const base: TeamFields =
        mode === 'patch' ? this.fieldsOf(team, stored) : { name: team.name, ...TEAM_DEFAULTS };
      const input = resolveTeamInput(body, base);
      const eventIds = await this.validate(em, organizer, input);
      this.apply(team, input);
      await em.save(team);
      await this.setLimitEvents(em, team.id, eventIds);
      if (Object.keys(body).length > 0) {
        await this.audit.record(em, principal, {
          organizerId: organizer.id,
          contentType: 'team',
          objectId: team.id,
          action: 'pretix.team.changed',
          data: { ...body },
        });
      }
      return toTeamJson(team, input.limit_events);
    });
  }

  /**
   * Deletes a team with its memberships, invites and tokens (204). No lock-out protection (spec "Team").
   * @throws NotFound for an unknown id or a team of another organizer
   */
  async delete(organizer: Organizer, id: number, principal: Principal): Promise<void> {
    await this.db.transaction(async (em) => {
      const team = await findOrNotFound(em, Team, { id, organizerId: organizer.id }, true);
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        contentType: 'team',
        objectId: team.id,
        action: 'pretix.team.deleted',
        data: { name: team.name },
      });
      await em.delete(Team, { id: team.id });
    });
  }

  /** Slugs of the `limit_events` of several teams, in one statement. */
  private async limitEventSlugs(em: EntityManager, teamIds: number[]): Promise<Map<number, string[]>> {
    if (teamIds.length === 0) return new Map();
    const rows = await this.queries.limitEventSlugs(em, teamIds);
    return groupBy(
      rows,
      (row) => row.team_id,
      (row) => row.slug,
    );
  }

  private fieldsOf(team: Team, limitEvents: string[]): TeamFields {
    return {
      name: team.name,
      all_events: team.allEvents,
      limit_events: limitEvents,
      require_2fa: team.require2fa,
      all_event_permissions: team.allEventPermissions,
      limit_event_permissions: team.limitEventPermissions,
      all_organizer_permissions: team.allOrganizerPermissions,
      limit_organizer_permissions: team.limitOrganizerPermissions,
    };
  }

  /**
   * Checks merged team data and resolves `limit_events` slugs to event ids (this organizer's events only).
   * Field errors come first; the cross-field rule is checked only on valid fields (as DRF does).
   */
  private async validate(em: EntityManager, organizer: Organizer, input: TeamFields): Promise<number[]> {
    let ids: number[] = [];
    if (input.limit_events.length > 0) {
      const bySlug = await this.tenancy.eventIdsBySlugs(em, organizer.id, input.limit_events);
      const unknown = input.limit_events.find((slug) => !bySlug.has(slug));
      if (unknown !== undefined) {
        throw ValidationFailed.field('limit_events', `Object with slug=${unknown} does not exist.`);
      }
      ids = input.limit_events.map((slug) => bySlug.get(slug)!);
    }
    const errors = new ErrorCollector();
    if (input.all_events && input.limit_events.length > 0) {
      errors.addNonField('Do not set both limit_events and all_events.');
    }
    errors.throwIfAny();
    return ids;
  }

  private apply(team: Team, input: TeamFields): void {
    team.name = input.name;
    team.allEvents = input.all_events;
    team.require2fa = input.require_2fa;
    team.allEventPermissions = input.all_event_permissions;
    team.limitEventPermissions = input.limit_event_permissions;
    team.allOrganizerPermissions = input.all_organizer_permissions;
    team.limitOrganizerPermissions = input.limit_organizer_permissions;
  }

  private async setLimitEvents(em: EntityManager, teamId: number, eventIds: number[]): Promise<void> {
    await this.queries.setLimitEvents(em, teamId, eventIds);
  }
}
