import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { TeamGrantRow } from '../auth/credential-resolver';
import { applyOrdering } from '../common/listing/ordering';
import { findOneInOne, paginateInOne, relatedValue, RelatedSpec } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { SqlFragment, sqlFragment } from '../common/persistence/sql-fragment';
import { preparedQuery } from '../common/persistence/prepared';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { Team } from './team.entity';

/** The tenancy roots' fragments (stateless). */
const tenancy = new TenancyQueries();

/** A team with the slugs of its `limit_events`, ascending. */
export interface TeamWithLimitEvents {
  team: Team;
  limitEvents: string[];
}

/** What the credential statement returns: the token with its team's grant, and the URL's organizer and event as JSON. */
export interface TeamTokenResolutionRow {
  token: {
    token_id: number;
    token_name: string;
    active: boolean;
    grant: TeamGrantRow;
  } | null;
  organizer: unknown;
  event: unknown;
}

/**
 * Slugs of team `t`'s `limit_events`, ascending, as a subquery of the team's own statement (style.md "Data
 * access").
 */
const RELATED: RelatedSpec<{ limitEvents: string[] }> = {
  limitEvents: relatedValue<string[]>(
    `SELECT coalesce(array_agg(s.slug ORDER BY s.slug), '{}') FROM
          (SELECT ${tenancy.eventSlugOf('tle.event_id')} AS slug FROM team_limit_event tle
            WHERE tle.team_id = t.id) s`,
  ),
};

/** A team's grant as JSON ({@link TeamGrantRow}) over the row `team`. */
const GRANT = `jsonb_build_object('team_id', team.id, 'team_name', team.name,
      'organizer_id', team.organizer_id, 'organizer_slug', ${tenancy.organizerSlugOf('team.organizer_id')},
      'all_events', team.all_events,
      'event_ids', ARRAY(SELECT tle.event_id FROM team_limit_event tle WHERE tle.team_id = team.id),
      'all_event_permissions', team.all_event_permissions, 'limit_event_permissions', team.limit_event_permissions,
      'all_organizer_permissions', team.all_organizer_permissions,
      'limit_organizer_permissions', team.limit_organizer_permissions)`;

const USER_GRANTS_SQL = `SELECT ${GRANT} AS grant FROM team JOIN team_member tm ON tm.team_id = team.id
      WHERE tm.user_id = $1`;

const TOKEN_GRANT_SQL = `SELECT ${GRANT} AS grant FROM team_api_token tok JOIN team ON team.id = tok.team_id
      WHERE tok.id = $1 AND tok.active`;

/** The credential statement's text per data source (it embeds the entity-shaped JSON of the tenancy roots). */
const tokenSql = new WeakMap<object, string>();

/**
 * The SQL of teams, their members and `limit_events` (spec "Team", "Team member"; compat §3.1), and the
 * one-statement credential resolution of team tokens (README "API conventions"). Stateless; runs in the caller's
 * `em`.
 */
@Injectable()
export class TeamQueries {
  /**
   * Fragment, SQL condition over the user row `u`: the user is a member of the team given as the named parameter
   * `:team`. Alias `tm`.
   */
  memberOf(): SqlFragment {
    return sqlFragment(
      'EXISTS (SELECT 1 FROM team_member tm WHERE tm.user_id = u.id AND tm.team_id = :team)',
    );
  }

  /** Takes the transaction-scoped advisory lock of the organizer's bootstrap (serialises "Administrators"). */
  async lockBootstrap(em: EntityManager, organizerId: number): Promise<void> {
    await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`bootstrap:${organizerId}`]);
  }

  /** A page of the organizer's teams with their `limit_events`; ordering `id` (default) or `name`. One statement. */
  page(
    em: EntityManager,
    organizerId: number,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<TeamWithLimitEvents>> {
    const qb = em
      .getRepository(Team)
      .createQueryBuilder('t')
      .where('t.organizer_id = :org', { org: organizerId });
    applyOrdering(qb, filters, { id: 't.id', name: 't.name' }, ['id']);
    return paginateInOne(qb, page, RELATED, (team, r) => ({ team, limitEvents: r.limitEvents }));
  }

  /** The organizer's team `id` with its `limit_events`. One statement. @throws NotFound for another id */
  one(em: EntityManager, organizerId: number, id: number): Promise<TeamWithLimitEvents> {
    const qb = em
      .getRepository(Team)
      .createQueryBuilder('t')
      .where('t.id = :id AND t.organizer_id = :org', { id, org: organizerId });
    return findOneInOne(qb, RELATED, (team, r) => ({ team, limitEvents: r.limitEvents }));
  }

  /** Slugs of the `limit_events` of several teams (ordered by slug), as rows. One statement. */
  limitEventSlugs(em: EntityManager, teamIds: number[]): Promise<{ team_id: number; slug: string }[]> {
    return em.query(
      `SELECT t.team_id, t.slug FROM (SELECT tle.team_id, ${tenancy.eventSlugOf('tle.event_id')} AS slug
        FROM team_limit_event tle WHERE tle.team_id = ANY($1::int[])) t ORDER BY t.slug`,
      [teamIds],
    );
  }

  /** Replaces the team's `limit_events` (a delete, then an insert unless `eventIds` is empty). */
  async setLimitEvents(em: EntityManager, teamId: number, eventIds: number[]): Promise<void> {
    await em.query('DELETE FROM team_limit_event WHERE team_id = $1', [teamId]);
    if (eventIds.length > 0) {
      await em.query(
        'INSERT INTO team_limit_event (team_id, event_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
        [teamId, eventIds],
      );
    }
  }

  /** Adds one event to the team's `limit_events` (nothing when it is there). */
  async addLimitEvent(em: EntityManager, teamId: number, eventId: number): Promise<void> {
    await em.query(
      'INSERT INTO team_limit_event (team_id, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [teamId, eventId],
    );
  }

  /** Whether the user is a member of the team. No lock. */
  async isMember(em: EntityManager, teamId: number, userId: number): Promise<boolean> {
    const rows: unknown[] = await em.query('SELECT 1 FROM team_member WHERE team_id = $1 AND user_id = $2', [
      teamId,
      userId,
    ]);
    return rows.length > 0;
  }

  /** Makes the user a member of the team. */
  async addMember(em: EntityManager, teamId: number, userId: number): Promise<void> {
    await em.query('INSERT INTO team_member (team_id, user_id) VALUES ($1, $2)', [teamId, userId]);
  }

  /** Removes the user from the team. */
  async removeMember(em: EntityManager, teamId: number, userId: number): Promise<void> {
    await em.query('DELETE FROM team_member WHERE team_id = $1 AND user_id = $2', [teamId, userId]);
  }

  /**
   * The team token with this hash with its team's grant, and the organizer (slug `organizerSlug`) and event of the
   * URL as JSON (the tenancy roots' fragments), in ONE prepared statement; all parts null when unknown.
   */
  async resolveToken(
    em: EntityManager,
    tokenHash: string,
    organizerSlug: string | null,
    eventSlug: string | null,
  ): Promise<TeamTokenResolutionRow | undefined> {
    let sql = tokenSql.get(em.connection);
    if (sql === undefined) {
      sql = `SELECT
      (SELECT jsonb_build_object('token_id', tok.id, 'token_name', tok.name, 'active', tok.active, 'grant', ${GRANT})
         FROM team_api_token tok JOIN team ON team.id = tok.team_id WHERE tok.token_hash = $1) AS token,
      ${tenancy.organizerBySlug(em, '$2::varchar')} AS organizer,
      ${tenancy.eventBySlugs(em, '$2::varchar', '$3::varchar')} AS event`;
      tokenSql.set(em.connection, sql);
    }
    const rows = await preparedQuery<TeamTokenResolutionRow>(em, sql, [tokenHash, organizerSlug, eventSlug]);
    return rows[0];
  }

  /** The grant of the team of the active token with this id, or null. One statement. */
  async grantOfActiveToken(em: EntityManager, tokenId: number): Promise<TeamGrantRow | null> {
    const rows: { grant: TeamGrantRow }[] = await em.query(TOKEN_GRANT_SQL, [tokenId]);
    return rows[0]?.grant ?? null;
  }

  /** The grants of every team the user is a member of. One statement. */
  async grantsOfUser(em: EntityManager, userId: number): Promise<TeamGrantRow[]> {
    const rows: { grant: TeamGrantRow }[] = await em.query(USER_GRANTS_SQL, [userId]);
    return rows.map((r) => r.grant);
  }
}
