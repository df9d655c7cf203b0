import { SetMetadata } from '@nestjs/common';
import type { Permission } from './permissions';

/**
 * Route access declarations (docs/permissions.md). Every route carries exactly one; the app refuses to boot
 * when a route has none (default deny).
 */
export type AccessRule =
  | { kind: 'public' }
  | { kind: 'authenticated' }
  | { kind: 'organizer' }
  | { kind: 'event' }
  | { kind: 'permission'; anyOf: Permission[] };

export const ACCESS_RULE = 'ticketing:access-rule';

/** No credentials needed (the OpenAPI document, OAuth token endpoints). */
export const Public = () => SetMetadata(ACCESS_RULE, { kind: 'public' } satisfies AccessRule);

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

/** Marks a route whose URL has no trailing slash (compat §1.1: `/api/v1/me`, `/api/v1/oauth/token`). */
export const NO_TRAILING_SLASH = 'ticketing:no-trailing-slash';
export const NoTrailingSlash = () => SetMetadata(NO_TRAILING_SLASH, true);
