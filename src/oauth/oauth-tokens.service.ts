import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { AccessTokenResolver, ResolvedAccessToken } from '../auth/access-token-resolver';
import { generateToken, hashToken } from '../auth/credentials.service';
import { OAuthAuthorizationCode } from './oauth-authorization-code.entity';
import { OAuthAuthorizationCodeQueries } from './oauth-authorization-code.queries';
import { OAuthToken } from './oauth-token.entity';
import { OAuthTokenQueries } from './oauth-token.queries';

/** Access token lifetime (spec "Authentication" 5: one day), seconds. */
export const ACCESS_TOKEN_LIFETIME_S = 86_400;
/** Authorization code lifetime (README "OAuth 2.0 applications"), seconds. */
export const CODE_LIFETIME_S = 600;

/** What a code or a refresh token grants. */
export interface Grant {
  applicationId: number;
  userId: number;
  scopes: string[];
  organizerIds: number[];
  /** The code the chain started with (null for none). */
  codeId: number | null;
}

/** A code as the token endpoint checks it. */
export interface StoredCode extends Grant {
  id: number;
  redirectUri: string;
  codeChallenge: string | null;
  expires: Date;
}

/** A usable refresh token. */
export interface StoredRefreshToken extends Grant {
  tokenId: number;
}

/** The secrets of a newly issued token pair (returned once, stored hashed). */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  accessExpires: Date;
}

/** One application a user has authorized, with the union of what its live tokens grant. */
export interface AuthorizedApplication {
  applicationId: number;
  scopes: string[];
  organizerIds: number[];
}

/**
 * Authorization codes and tokens (spec "Authentication" 4-6): codes are single use and bound to what was
 * consented; a second use revokes the tokens issued with it. Token pairs are stored as SHA-256 hashes. Also the
 * oauth context's answer to auth's `ACCESS_TOKEN_RESOLVER` port.
 */
@Injectable()
export class OAuthTokensService implements AccessTokenResolver {
  constructor(
    @InjectRepository(OAuthAuthorizationCode) private readonly codes: Repository<OAuthAuthorizationCode>,
    @InjectRepository(OAuthToken) private readonly tokens: Repository<OAuthToken>,
    private readonly codeQueries: OAuthAuthorizationCodeQueries,
    private readonly tokenQueries: OAuthTokenQueries,
  ) {}

  /** Stores a new code (valid {@link CODE_LIFETIME_S}) and returns its secret. */
  async createCode(grant: Omit<Grant, 'codeId'> & { redirectUri: string; codeChallenge: string | null }) {
    const code = generateToken(48);
    await this.codes.insert({
      applicationId: grant.applicationId,
      userId: grant.userId,
      codeHash: hashToken(code),
      redirectUri: grant.redirectUri,
      scopes: grant.scopes,
      organizerIds: grant.organizerIds,
      codeChallenge: grant.codeChallenge,
      expires: new Date(Date.now() + CODE_LIFETIME_S * 1000),
    });
    return code;
  }

  /**
   * The unused code with this secret; a code that was already used has the tokens issued with it revoked
   * (RFC 6749 §4.1.2) and yields null, like an unknown one.
   */
  async findCode(code: string): Promise<StoredCode | null> {
    const row = await this.codes.findOneBy({ codeHash: hashToken(code) });
    if (!row) return null;
    if (row.used) {
      await this.revokeIssuedWith(row.id);
      return null;
    }
    return {
      id: row.id,
      applicationId: row.applicationId,
      userId: row.userId,
      scopes: row.scopes,
      organizerIds: row.organizerIds,
      codeId: row.id,
      redirectUri: row.redirectUri,
      codeChallenge: row.codeChallenge,
      expires: row.expires,
    };
  }

  /**
   * Marks the code used, atomically: false when another exchange got there first (whose tokens are then
   * revoked).
   */
  async consumeCode(id: number): Promise<boolean> {
    if ((await this.codeQueries.consume(this.codes.manager, id)) === 1) return true;
    await this.revokeIssuedWith(id);
    return false;
  }

  /** Revokes every token descended from code `codeId`. */
  private async revokeIssuedWith(codeId: number): Promise<void> {
    await this.tokens.update({ authorizationCodeId: codeId }, { accessRevoked: true, refreshRevoked: true });
  }

  /** Issues an access token (valid {@link ACCESS_TOKEN_LIFETIME_S}) with its refresh token. */
  async issue(grant: Grant): Promise<IssuedTokens> {
    const accessToken = generateToken();
    const refreshToken = generateToken();
    const accessExpires = new Date(Date.now() + ACCESS_TOKEN_LIFETIME_S * 1000);
    await this.tokens.insert({
      applicationId: grant.applicationId,
      userId: grant.userId,
      authorizationCodeId: grant.codeId,
      accessTokenHash: hashToken(accessToken),
      accessExpires,
      refreshTokenHash: hashToken(refreshToken),
      scopes: grant.scopes,
      organizerIds: grant.organizerIds,
    });
    return { accessToken, refreshToken, accessExpires };
  }

  /**
   * The usable refresh token with this secret, or null. A known refresh token that is no longer usable (already
   * rotated, or revoked) is a reuse: every access and refresh token of its family (descended from the same
   * authorization code) is revoked before null is returned (RFC 9700 §4.14.2; README "Security").
   */
  async findRefreshToken(token: string): Promise<StoredRefreshToken | null> {
    const row = await this.tokens.findOneBy({ refreshTokenHash: hashToken(token) });
    if (!row) return null;
    if (row.refreshRevoked) {
      await this.revokeFamily(row.id);
      return null;
    }
    return {
      tokenId: row.id,
      applicationId: row.applicationId,
      userId: row.userId,
      scopes: row.scopes,
      organizerIds: row.organizerIds,
      codeId: row.authorizationCodeId,
    };
  }

  /**
   * Uses up a refresh token: it and its access token are revoked at once (spec "Authentication" 5). False when a
   * concurrent refresh used it first: that is a reuse too, and its family is revoked (RFC 9700 §4.14.2).
   */
  async useRefreshToken(tokenId: number): Promise<boolean> {
    if ((await this.tokenQueries.useRefreshToken(this.tokens.manager, tokenId)) === 1) return true;
    await this.revokeFamily(tokenId);
    return false;
  }

  /** Revokes token row `tokenId` and every token of its family (same authorization code), in one statement. */
  private async revokeFamily(tokenId: number): Promise<void> {
    await this.tokenQueries.revokeFamily(this.tokens.manager, tokenId);
  }

  /**
   * Revokes `token` if it is an access or refresh token of application `applicationId` (RFC 7009): an access
   * token alone, or a refresh token with its access token. A token of another application, or an unknown one,
   * is left alone. `hint` only orders the lookups.
   */
  async revoke(applicationId: number, token: string, hint?: string): Promise<void> {
    const hash = hashToken(token);
    const asAccess = () =>
      this.tokens.update({ applicationId, accessTokenHash: hash }, { accessRevoked: true });
    const asRefresh = () =>
      this.tokens.update(
        { applicationId, refreshTokenHash: hash },
        { accessRevoked: true, refreshRevoked: true },
      );
    const [first, second] = hint === 'refresh_token' ? [asRefresh, asAccess] : [asAccess, asRefresh];
    if (!(await first()).affected) await second();
  }

  /**
   * Port `ACCESS_TOKEN_RESOLVER`: the access token with this hash, usable or not (revoked, expired, or its user
   * deactivated); null when unknown. One statement.
   */
  async resolveAccessToken(tokenHash: string): Promise<ResolvedAccessToken | null> {
    const found = await this.tokenQueries.byAccessHash(this.tokens.manager, tokenHash);
    if (!found) return null;
    const row = found.token;
    return {
      userId: row.userId,
      applicationId: row.applicationId,
      scopes: row.scopes,
      organizerIds: row.organizerIds,
      usable: found.userActive && !row.accessRevoked && row.accessExpires.getTime() > Date.now(),
    };
  }

  /** Applications `userId` has authorized (a live refresh token), with the scopes and organizers granted. */
  async authorizedBy(userId: number): Promise<AuthorizedApplication[]> {
    const rows = await this.tokenQueries.authorizedBy(this.tokens.manager, userId);
    return rows.map((r) => ({
      applicationId: r.application_id,
      scopes: r.scopes,
      organizerIds: r.organizer_ids,
    }));
  }

  /** Revokes every token `userId` granted to application `applicationId`; false when there was none. */
  async revokeAuthorization(userId: number, applicationId: number): Promise<boolean> {
    return (await this.tokenQueries.revokeAuthorization(this.tokens.manager, userId, applicationId)) > 0;
  }

  /**
   * Deletes what can no longer be used (the worker's scheduler): codes expired a day ago, and token pairs whose
   * refresh token is revoked and whose access token has expired.
   * @returns rows deleted
   */
  async prune(): Promise<{ codes: number; tokens: number }> {
    const codes = await this.codeQueries.prune(this.codes.manager);
    const tokens = await this.tokenQueries.prune(this.tokens.manager);
    return { codes, tokens };
  }
}
