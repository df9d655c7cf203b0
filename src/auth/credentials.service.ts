import { Injectable, UnauthorizedException } from '@nestjs/common';
import { randomString } from '../common/values/random';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'crypto';
import { DataSource } from 'typeorm';
import { PermissionSet } from './permissions';
import { Principal, TeamGrant } from './principal';

/** SHA-256 hex of a secret token: what the database stores and looks up. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A new 64-character `[a-z0-9]` secret (compat §1.2), from the OS CSPRNG. */
export function generateToken(length = 64): string {
  return randomString(TOKEN_ALPHABET, length);
}

interface GrantRow {
  team_id: number;
  team_name: string;
  organizer_id: number;
  all_events: boolean;
  event_ids: number[];
  all_event_permissions: boolean;
  limit_event_permissions: string[];
  all_organizer_permissions: boolean;
  limit_organizer_permissions: string[];
}

/** Columns of a team grant, shared by the token and the user look-up. */
const GRANT_COLUMNS = `team.id AS team_id, team.name AS team_name, team.organizer_id, team.all_events,
  ARRAY(SELECT tle.event_id FROM team_limit_event tle WHERE tle.team_id = team.id) AS event_ids,
  team.all_event_permissions, team.limit_event_permissions,
  team.all_organizer_permissions, team.limit_organizer_permissions`;

function toGrant(row: GrantRow): TeamGrant {
  return {
    teamId: row.team_id,
    teamName: row.team_name,
    organizerId: row.organizer_id,
    allEvents: row.all_events,
    eventIds: new Set(row.event_ids),
    eventPermissions: new PermissionSet(row.all_event_permissions, new Set(row.limit_event_permissions)),
    organizerPermissions: new PermissionSet(
      row.all_organizer_permissions,
      new Set(row.limit_organizer_permissions),
    ),
  };
}

/**
 * Turns a presented secret into a {@link Principal} (spec "Authentication"; compat §1.2). One SQL statement for a
 * team token.
 */
@Injectable()
export class CredentialsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Resolves a team API token.
   * @returns null when no token has that secret (the caller may try other credential kinds)
   * @throws UnauthorizedException "Token inactive or deleted." for a deactivated token
   */
  async fromTeamToken(token: string): Promise<Principal | null> {
    const rows: (GrantRow & { token_id: number; token_name: string; active: boolean })[] =
      await this.db.query(
        `SELECT tok.id AS token_id, tok.name AS token_name, tok.active, ${GRANT_COLUMNS}
         FROM team_api_token tok JOIN team ON team.id = tok.team_id
        WHERE tok.token_hash = $1`,
        [hashToken(token)],
      );
    const row = rows[0];
    if (!row) return null;
    if (!row.active) throw new UnauthorizedException('Token inactive or deleted.');
    return new Principal(
      { kind: 'team_token', tokenId: row.token_id, tokenName: row.token_name, scopes: null },
      [toGrant(row)],
    );
  }

  /** All team grants of a user (a user's rights are the union of their teams). */
  async grantsOfUser(userId: number): Promise<TeamGrant[]> {
    const rows: GrantRow[] = await this.db.query(
      `SELECT ${GRANT_COLUMNS} FROM team JOIN team_member tm ON tm.team_id = team.id WHERE tm.user_id = $1`,
      [userId],
    );
    return rows.map(toGrant);
  }

  /**
   * Resolves a bearer credential: a team token sent as `Bearer` is accepted; OAuth access tokens plug in here
   * (OAuth issue).
   * @throws UnauthorizedException "Invalid token." when nothing matches
   */
  async fromBearer(token: string): Promise<Principal> {
    const principal = await this.fromTeamToken(token);
    if (principal) return principal;
    throw new UnauthorizedException('Invalid token.');
  }
}
