import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'crypto';
import { NotAuthenticated } from '../common/errors';
import { randomString } from '../common/values/random';
import { ACCESS_TOKEN_RESOLVER, AccessTokenResolver } from './access-token-resolver';
import {
  CREDENTIAL_RESOLVER,
  CredentialResolver,
  ResolvedEvent,
  ResolvedOrganizer,
  ScopeSlugs,
} from './credential-resolver';
import { DEVICE_RESOLVER, DeviceResolver, ResolvedDevice } from './device-resolver';
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

/** Event permissions of every device on its events (pretix `Device._event_permission_set`). */
export const DEVICE_EVENT_PERMISSIONS = [
  'event.orders:read',
  'event.orders:write',
  'event.vouchers:read',
] as const;

/** Organizer permissions of every device on its organizer (pretix `Device._organizer_permission_set`). */
export const DEVICE_ORGANIZER_PERMISSIONS = [
  'organizer.giftcards:read',
  'organizer.giftcards:write',
  'organizer.reusablemedia:read',
  'organizer.reusablemedia:write',
] as const;

/** pretix's 401 details for device tokens (`pretix.api.auth.device`). */
export const DEVICE_NOT_INITIALIZED = 'Device has not been initialized.';
export const DEVICE_REVOKED = 'Device access has been revoked.';

/**
 * The principal of a device: ONE synthetic grant on its organizer, its events (`all_events` or `limit_events`)
 * with pretix's fixed device permission sets (no team permission beyond them).
 */
export function devicePrincipal(device: ResolvedDevice): Principal {
  const { identity } = device;
  const grant: TeamGrant = {
    teamId: 0,
    teamName: identity.name,
    organizerId: identity.organizerId,
    organizerSlug: device.organizerSlug,
    allEvents: device.allEvents,
    eventIds: new Set(device.eventIds),
    eventPermissions: new PermissionSet(false, new Set(DEVICE_EVENT_PERMISSIONS)),
    organizerPermissions: new PermissionSet(false, new Set(DEVICE_ORGANIZER_PERMISSIONS)),
  };
  return new Principal({ kind: 'device', scopes: null, device: identity }, [grant]);
}

/** A credential with the organizer and event of the URL, resolved in the same statement. */
export interface Authenticated {
  principal: Principal;
  organizer: ResolvedOrganizer | null;
  event: ResolvedEvent | null;
}

/**
 * Turns a presented secret into a {@link Principal} (spec "Authentication"; compat §1.2), together with the
 * organizer and event slugs of the URL: one SQL statement for a team token (through the
 * {@link CredentialResolver} port).
 */
@Injectable()
export class CredentialsService {
  constructor(
    @Inject(CREDENTIAL_RESOLVER) private readonly resolver: CredentialResolver,
    @Inject(ACCESS_TOKEN_RESOLVER) private readonly accessTokens: AccessTokenResolver,
    @Inject(DEVICE_RESOLVER) private readonly devices: DeviceResolver,
  ) {}

  /**
   * Resolves a device API token (`Authorization: Device <token>`) and the URL's organizer and event, in ONE
   * statement (through the {@link DeviceResolver} port).
   * @throws NotAuthenticated "Invalid token." for an unknown token, "Device has not been initialized." or
   *   "Device access has been revoked." (pretix's messages)
   */
  async fromDeviceToken(token: string, scope: ScopeSlugs = {}): Promise<Authenticated> {
    const found = await this.devices.resolveDeviceToken(hashToken(token), scope);
    const device = found.device;
    if (!device) throw new NotAuthenticated('Invalid token.');
    if (!device.initialized) throw new NotAuthenticated(DEVICE_NOT_INITIALIZED);
    if (device.revoked) throw new NotAuthenticated(DEVICE_REVOKED);
    return { principal: devicePrincipal(device), organizer: found.organizer, event: found.event };
  }

  /**
   * Resolves a team API token and the URL's organizer and event.
   * @returns null when no token has that secret (the caller may try other credential kinds)
   * @throws NotAuthenticated "Token inactive or deleted." for a deactivated token
   */
  async fromTeamToken(token: string, scope: ScopeSlugs = {}): Promise<Authenticated | null> {
    const found = await this.resolver.resolveTeamToken(hashToken(token), scope);
    const tok = found.teamToken;
    if (!tok) return null;
    if (!tok.active) throw new NotAuthenticated('Token inactive or deleted.');
    const principal = new Principal(
      { kind: 'team_token', tokenId: tok.tokenId, tokenName: tok.tokenName, scopes: null },
      [tok.grant],
    );
    return { principal, organizer: found.organizer, event: found.event };
  }

  /** All team grants of a user (a user's rights are the union of their teams). */
  grantsOfUser(userId: number): Promise<TeamGrant[]> {
    return this.resolver.grantsOfUser(userId);
  }

  /**
   * Resolves a bearer credential: a team token sent as `Bearer` is accepted, else an OAuth access token, which
   * acts as its user through all the user's teams (read now, no cache: a removed membership counts at once),
   * restricted to the organizers and scopes granted at consent. Three statements for an access token: the team
   * token lookup (which also resolves the URL's organizer and event), the access token, the user's teams.
   * @throws NotAuthenticated "Invalid token." when nothing matches, or the access token is expired or revoked
   */
  async fromBearer(token: string, scope: ScopeSlugs = {}): Promise<Authenticated> {
    const hash = hashToken(token);
    const found = await this.resolver.resolveTeamToken(hash, scope);
    const tok = found.teamToken;
    if (tok) {
      if (!tok.active) throw new NotAuthenticated('Token inactive or deleted.');
      const principal = new Principal(
        { kind: 'team_token', tokenId: tok.tokenId, tokenName: tok.tokenName, scopes: null },
        [tok.grant],
      );
      return { principal, organizer: found.organizer, event: found.event };
    }
    const access = await this.accessTokens.resolveAccessToken(hash);
    if (!access) throw new NotAuthenticated('Invalid token.');
    if (!access.usable) throw new NotAuthenticated('Token expired or revoked.');
    const grants = await this.resolver.grantsOfUser(access.userId);
    const principal = new Principal(
      {
        kind: 'user',
        userId: access.userId,
        oauthApplicationId: access.applicationId,
        scopes: new Set(access.scopes),
        organizerIds: new Set(access.organizerIds),
      },
      grants,
    );
    return { principal, organizer: found.organizer, event: found.event };
  }
}
