import { PermissionSet } from './permissions';
import type { TeamGrant } from './principal';

/**
 * Port through which authentication resolves a credential together with the organizer and event of the URL in
 * ONE SQL statement (README "API conventions": statements per request). Declared here, provided by
 * the teams context (which owns tokens and teams and asks the tenancy roots for their part of the statement), and
 * handed to `AuthModule.forRoot` by the application module, so `auth/` imports neither context.
 */
export const CREDENTIAL_RESOLVER = Symbol('CredentialResolver');

/** The organizer of the URL as the request carries it (the organizers context's entity). */
export interface ResolvedOrganizer {
  id: number;
  slug: string;
}

/** The event of the URL as the request carries it (the organizers context's entity). */
export interface ResolvedEvent {
  id: number;
  organizerId: number;
  slug: string;
}

/** Slugs of the URL that the statement also resolves; absent ones are not looked up. */
export interface ScopeSlugs {
  organizer?: string;
  event?: string;
}

/** A team API token with the one team it acts through. */
export interface ResolvedTeamToken {
  tokenId: number;
  tokenName: string;
  active: boolean;
  grant: TeamGrant;
}

/**
 * What one statement found: the token (null: no token has that secret), the organizer with the URL's slug and
 * the event with the URL's slugs (null: no slug in the URL, or none with that slug).
 */
export interface CredentialResolution {
  teamToken: ResolvedTeamToken | null;
  organizer: ResolvedOrganizer | null;
  event: ResolvedEvent | null;
}

export interface CredentialResolver {
  /**
   * Resolves a team token by the SHA-256 hex of its secret, and the URL's organizer and event, in one statement.
   */
  resolveTeamToken(tokenHash: string, scope: ScopeSlugs): Promise<CredentialResolution>;

  /** All team grants of a user (a user's rights are the union of their teams; OAuth). One statement. */
  grantsOfUser(userId: number): Promise<TeamGrant[]>;

  /**
   * The grant of the team of an active team token, read now (background work done for a token, e.g. an export
   * run); null when the token is deleted or inactive. One statement.
   */
  grantOfTeamToken(tokenId: number): Promise<TeamGrant | null>;
}

/** A team's grant columns as the resolver's statement returns them (snake_case, one JSON object per team). */
export interface TeamGrantRow {
  team_id: number;
  team_name: string;
  organizer_id: number;
  organizer_slug: string;
  all_events: boolean;
  event_ids: number[];
  all_event_permissions: boolean;
  limit_event_permissions: string[];
  all_organizer_permissions: boolean;
  limit_organizer_permissions: string[];
}

/** {@link TeamGrantRow} to the grant the {@link Principal} asks. */
export function toTeamGrant(row: TeamGrantRow): TeamGrant {
  return {
    teamId: row.team_id,
    teamName: row.team_name,
    organizerId: row.organizer_id,
    organizerSlug: row.organizer_slug,
    allEvents: row.all_events,
    eventIds: new Set(row.event_ids),
    eventPermissions: new PermissionSet(row.all_event_permissions, new Set(row.limit_event_permissions)),
    organizerPermissions: new PermissionSet(
      row.all_organizer_permissions,
      new Set(row.limit_organizer_permissions),
    ),
  };
}
