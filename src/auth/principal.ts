import { PermissionSet } from './permissions';

/** What one team grants (spec "Team"): which events of its organizer, and which permissions. */
export interface TeamGrant {
  teamId: number;
  teamName: string;
  organizerId: number;
  /** Slug of the team's organizer (`/api/v1/me`). */
  organizerSlug: string;
  allEvents: boolean;
  eventIds: ReadonlySet<number>;
  eventPermissions: PermissionSet;
  organizerPermissions: PermissionSet;
}

/**
 * A scanner or box-office device acting with `Authorization: Device <api_token>` (pretix's device
 * authentication): its organizer, its events and pretix's fixed device permissions come as one grant.
 */
export interface DeviceIdentity {
  /** Database id of the device row. */
  id: number;
  /** pretix's `device_id`: the device's number inside its organizer (1, 2, …), what the API shows. */
  deviceId: number;
  name: string;
  organizerId: number;
  /** Security profile identifier (`full`, `pretixscan`, `pretixscan_online_kiosk`, `pretixscan_online_noorders`). */
  securityProfile: string;
  /** The device's gate, or null. */
  gate: { id: number; name: string } | null;
}

/**
 * Who is calling: a team API token (one team), a user acting through OAuth (all their teams), or a device (one
 * grant: its organizer, its events, pretix's device permissions).
 */
export interface PrincipalIdentity {
  kind: 'team_token' | 'user' | 'device';
  tokenId?: number;
  tokenName?: string;
  userId?: number;
  /** OAuth scopes (`read`, `write`, `profile`); null means unrestricted (team tokens). */
  scopes?: ReadonlySet<string> | null;
  /** Organizers an OAuth grant is restricted to; null means no restriction. */
  organizerIds?: ReadonlySet<number> | null;
  /** The OAuth application a user acts through (its database id), for `kind: 'user'` with an access token. */
  oauthApplicationId?: number;
  /** The device, for `kind: 'device'`. */
  device?: DeviceIdentity;
}

/**
 * The authenticated credential and everything it may do. Built once per request by the credential strategies;
 * the permission guard and list filters ask it, nobody re-checks permissions by hand (architecture.md
 * "Request path").
 */
export class Principal {
  constructor(
    readonly identity: PrincipalIdentity,
    private readonly grants: readonly TeamGrant[],
  ) {}

  get kind(): PrincipalIdentity['kind'] {
    return this.identity.kind;
  }

  /** Team grants inside one organizer (respecting an OAuth organizer restriction). */
  grantsFor(organizerId: number): TeamGrant[] {
    const allowed = this.identity.organizerIds;
    if (allowed && !allowed.has(organizerId)) return [];
    return this.grants.filter((g) => g.organizerId === organizerId);
  }

  /** Organizers the credential reaches (spec "Organizers": only those). */
  organizerIds(): number[] {
    const ids = new Set(this.grants.map((g) => g.organizerId));
    const allowed = this.identity.organizerIds;
    return [...ids].filter((id) => !allowed || allowed.has(id));
  }

  hasOrganizerAccess(organizerId: number): boolean {
    return this.grantsFor(organizerId).length > 0;
  }

  /** Events of an organizer this credential reaches: `'all'` or a list of ids. */
  reachableEvents(organizerId: number): 'all' | number[] {
    const grants = this.grantsFor(organizerId);
    if (grants.some((g) => g.allEvents)) return 'all';
    return [...new Set(grants.flatMap((g) => [...g.eventIds]))];
  }

  canAccessEvent(organizerId: number, eventId: number): boolean {
    return this.grantsFor(organizerId).some((g) => g.allEvents || g.eventIds.has(eventId));
  }

  /** Union of the event permissions of every team that reaches the event. */
  eventPermissions(organizerId: number, eventId: number): PermissionSet {
    return PermissionSet.union(
      this.grantsFor(organizerId)
        .filter((g) => g.allEvents || g.eventIds.has(eventId))
        .map((g) => g.eventPermissions),
    );
  }

  /** Union of the organizer permissions of the credential's teams in that organizer. */
  organizerPermissions(organizerId: number): PermissionSet {
    return PermissionSet.union(this.grantsFor(organizerId).map((g) => g.organizerPermissions));
  }

  /**
   * Events of an organizer on which the credential holds a permission (for organizer-wide lists such as
   * `O/orders/` that are filtered to events with `event.orders:read`).
   */
  eventsWithPermission(organizerId: number, permission: string): 'all' | number[] {
    const grants = this.grantsFor(organizerId).filter((g) => g.eventPermissions.has(permission));
    if (grants.some((g) => g.allEvents)) return 'all';
    return [...new Set(grants.flatMap((g) => [...g.eventIds]))];
  }

  /** OAuth scope check; team tokens have no scopes and pass. */
  hasScope(scope: string): boolean {
    return !this.identity.scopes || this.identity.scopes.has(scope);
  }
}
