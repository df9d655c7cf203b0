import { SetMetadata } from '@nestjs/common';

/**
 * Route access declarations as route metadata (docs/permissions.md). The route table checks at boot that every
 * route carries one (default deny); `auth/` interprets them and offers the typed decorators
 * (`RequirePermission`, …). Kept here so that the HTTP conventions need no import of `auth/`.
 */
export type AccessRule<P extends string = string> =
  | { kind: 'public' }
  | { kind: 'authenticated' }
  | { kind: 'organizer' }
  | { kind: 'event' }
  | { kind: 'permission'; anyOf: P[] };

export const ACCESS_RULE = 'ticketing:access-rule';

/** No credentials needed (the OpenAPI document, OAuth token endpoints). */
export const Public = () => SetMetadata(ACCESS_RULE, { kind: 'public' } satisfies AccessRule);

/** Marks a route whose URL has no trailing slash (compat §1.1: `/api/v1/me`, `/api/v1/oauth/token`). */
export const NO_TRAILING_SLASH = 'ticketing:no-trailing-slash';
export const NoTrailingSlash = () => SetMetadata(NO_TRAILING_SLASH, true);
