import { SetMetadata } from '@nestjs/common';
import { ACCESS_RULE, AccessRule as RouteAccessRule } from '../common/http/access-rule';
import type { Permission } from './permissions';

export { ACCESS_RULE, NO_TRAILING_SLASH, NoTrailingSlash, Public } from '../common/http/access-rule';

/**
 * Route access declarations (docs/permissions.md). Every route carries exactly one; the app refuses to boot
 * when a route has none (default deny).
 */
export type AccessRule = RouteAccessRule<Permission>;

/** Any valid credential (`/api/v1/me`, the organizer list). */
export const RequireAuthentication = () =>
  SetMetadata(ACCESS_RULE, { kind: 'authenticated' } satisfies AccessRule);

/** A team of the organizer in the URL (any permission). Unknown organizer: 403. */
export const RequireOrganizerAccess = () =>
  SetMetadata(ACCESS_RULE, { kind: 'organizer' } satisfies AccessRule);

/** Access to the event in the URL (`all_events` or listed in `limit_events`), any permission. */
export const RequireEventAccess = () => SetMetadata(ACCESS_RULE, { kind: 'event' } satisfies AccessRule);

/**
 * One permission, or any of several. Names starting with `event` are checked on the event in the URL,
 * `organizer.` names on the organizer.
 */
export const RequirePermission = (...anyOf: Permission[]) =>
  SetMetadata(ACCESS_RULE, { kind: 'permission', anyOf } satisfies AccessRule);

/** Marks a route that an OAuth token with scope `profile` may call as well as one with `read` (`/api/v1/me`). */
export const PROFILE_SCOPE = 'ticketing:profile-scope';
export const AcceptsProfileScope = () => SetMetadata(PROFILE_SCOPE, true);
