/**
 * Port through which authentication resolves an OAuth 2.0 access token (spec "Authentication" 1-2, 7). Declared
 * here, provided by the oauth context (which owns the token table) and handed to `AuthModule.forRoot` by the
 * application module, so `auth/` imports no context above it.
 */
export const ACCESS_TOKEN_RESOLVER = Symbol('AccessTokenResolver');

/** An access token as the oauth context found it by the SHA-256 of its secret. */
export interface ResolvedAccessToken {
  userId: number;
  /** The OAuth application the token was issued to (database id). */
  applicationId: number;
  /** `read`, `write`, `profile`. */
  scopes: string[];
  /** Organizers granted at consent. */
  organizerIds: number[];
  /** False when revoked or expired (401). */
  usable: boolean;
}

export interface AccessTokenResolver {
  /** One statement; null when no access token has that hash. */
  resolveAccessToken(tokenHash: string): Promise<ResolvedAccessToken | null>;
}
