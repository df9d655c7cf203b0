import type { Principal } from '../../auth/principal';
import type { PermissionSet } from '../../auth/permissions';
import { CHANGE_RESOURCES, ChangeResource } from '../change-resources';

/**
 * The audit log API's view of src/sync/change-resources.ts (the one mapping from a log entry to its resource, key
 * and read permission), turned into what the list's SQL needs: the resource of a content type, and per credential
 * which resources it may read where (README "Audit log", "Permissions").
 */

/**
 * The resource name standing for entries whose content type has no resource in the mapping. Such entries are
 * shown only to credentials with the settings permission of their scope (`event.settings.general:write` for an
 * event's entries, `organizer.settings.general:write` for the organizer's).
 */
export const UNMAPPED = '';

/** Where entries of some resources may be read: the events (`'all'`, a list) and the resources readable there. */
export interface LogScope {
  /** `null`: the organizer's own entries (no event); else the events. */
  events: 'all' | number[] | null;
  /** Readable resource names; {@link UNMAPPED} for entries without one. */
  resources: string[];
}

const RESOURCES: readonly ChangeResource[] = Object.values(CHANGE_RESOURCES);

function readable(resource: ChangeResource, perms: PermissionSet): boolean {
  return resource.read.length === 0 || perms.hasAny(resource.read);
}

/**
 * The scopes of the log entries a credential may read in an organizer: the organizer's own entries (resources of
 * organizer scope readable with its organizer permissions), and per team grant its events with the resources
 * readable there (event-scoped ones with the grant's event permissions, organizer-scoped ones with the
 * organizer permissions). Team limits (`limit_events`) apply through the grants' events.
 */
export function logScopes(principal: Principal, organizerId: number): LogScope[] {
  const orgPerms = principal.organizerPermissions(organizerId);
  const orgResources = RESOURCES.filter((r) => r.scope === 'organizer' && readable(r, orgPerms)).map(
    (r) => r.name,
  );
  const scopes: LogScope[] = [
    {
      events: null,
      resources: orgPerms.has('organizer.settings.general:write')
        ? [...orgResources, UNMAPPED]
        : orgResources,
    },
  ];
  for (const grant of principal.grantsFor(organizerId)) {
    const perms = grant.eventPermissions;
    const resources = [
      ...orgResources,
      ...RESOURCES.filter((r) => r.scope === 'event' && readable(r, perms)).map((r) => r.name),
      ...(perms.has('event.settings.general:write') ? [UNMAPPED] : []),
    ];
    scopes.push({ events: grant.allEvents ? 'all' : [...grant.eventIds], resources });
  }
  return scopes;
}
