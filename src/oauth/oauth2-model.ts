import OAuth2Server, {
  AuthorizationCode,
  AuthorizationCodeModel,
  Client,
  Falsey,
  InvalidGrantError,
  InvalidRequestError,
  RefreshToken,
  RefreshTokenModel,
  Token,
  User,
} from '@node-oauth/oauth2-server';
// The library's own grant type, refined below (not exported from its index).
const AuthorizationCodeGrantType =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type') as new (
    options: unknown,
  ) => object;
const RefreshTokenGrantType =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type') as new (
    options: unknown,
  ) => object;
import { generateToken } from '../auth/credentials.service';
import type { OAuthApplicationsService, OAuthClient } from './oauth-applications.service';
import { ACCESS_TOKEN_LIFETIME_S, Grant, OAuthTokensService } from './oauth-tokens.service';

/** The "user" the library carries from a code or refresh token to `saveToken`: the grant being continued. */
interface GrantUser extends User {
  grant: Grant;
  /** The refresh token being replaced (refresh grant). */
  refreshTokenId?: number;
}

/**
 * The authorization code grant of `@node-oauth/oauth2-server` with the answers README "OAuth 2.0 applications"
 * gives: a `redirect_uri` that differs from the one of the code, or a `code_verifier` that is malformed, answer
 * `invalid_grant` (RFC 6749 §5.2; RFC 7636 §4.6), not `invalid_request`.
 */
class StrictAuthorizationCodeGrant extends (AuthorizationCodeGrantType as new (options: unknown) => {
  handle(request: OAuth2Server.Request, client: Client): Promise<Token>;
  verifyPKCE(request: OAuth2Server.Request, code: AuthorizationCode): void;
  validateRedirectUri(request: OAuth2Server.Request, code: AuthorizationCode): void;
}) {
  private publicClient = false;

  override handle(request: OAuth2Server.Request, client: Client): Promise<Token> {
    this.publicClient = client.public === true;
    return super.handle(request, client);
  }

  override verifyPKCE(request: OAuth2Server.Request, code: AuthorizationCode): void {
    // A public client's code always carries a challenge (the authorization step requires one); never exchange
    // one without it (README "Security": public clients must use PKCE).
    if (this.publicClient && !code.codeChallenge)
      throw new InvalidGrantError('Invalid grant: public clients must use PKCE');
    try {
      super.verifyPKCE(request, code);
    } catch (err) {
      if (err instanceof InvalidRequestError)
        throw new InvalidGrantError('Invalid grant: code verifier is invalid');
      throw err;
    }
  }

  override validateRedirectUri(request: OAuth2Server.Request, code: AuthorizationCode): void {
    const given = (request.body as Record<string, unknown>).redirect_uri;
    if (given !== code.redirectUri)
      throw new InvalidGrantError('Invalid grant: `redirect_uri` does not match');
  }
}

/** The parts of the library's refresh grant that {@link ScopeFirstRefreshTokenGrant} reorders. */
interface RefreshGrantSteps {
  getRefreshToken(request: OAuth2Server.Request, client: Client): Promise<RefreshToken>;
  revokeToken(token: RefreshToken): Promise<RefreshToken>;
  getScope(request: OAuth2Server.Request, token: RefreshToken): string[] | undefined;
  saveToken(user: User, client: Client, scope: string[] | undefined): Promise<Token>;
}

/**
 * The refresh grant of `@node-oauth/oauth2-server` with the scope checked *before* the refresh token is used up
 * (README "Security"): a refresh asking for a scope the token does not carry answers `invalid_scope` and leaves
 * the token (and its family) usable. The library revokes first and checks after.
 */
class ScopeFirstRefreshTokenGrant extends (RefreshTokenGrantType as new (
  options: unknown,
) => RefreshGrantSteps) {
  async handle(request: OAuth2Server.Request, client: Client): Promise<Token> {
    const found = await this.getRefreshToken(request, client);
    const scope = this.getScope(request, found);
    const token = await this.revokeToken(found);
    return this.saveToken(token.user, client, scope);
  }
}

/**
 * The library's storage model over this context's services: confidential clients with their secret, public
 * clients by `client_id` with PKCE (a confidential client without its secret is `invalid_client`), codes and refresh tokens by their hashes, organizer restriction carried along.
 */
export function oauth2Model(
  apps: OAuthApplicationsService,
  tokens: OAuthTokensService,
): AuthorizationCodeModel & RefreshTokenModel {
  const toClient = (c: OAuthClient): Client => ({
    id: String(c.id),
    clientId: c.clientId,
    redirectUris: c.redirectUris,
    grants: ['authorization_code', 'refresh_token'],
    public: !c.confidential,
  });
  return {
    /**
     * A confidential client with its secret; without a secret, only a public client (whose code exchange the
     * library lets through only with a `code_verifier`, and whose refresh needs no secret).
     */
    async getClient(clientId: string, clientSecret: string | undefined): Promise<Client | Falsey> {
      const client = clientSecret
        ? await apps.authenticate(clientId, clientSecret)
        : await apps.findPublicClient(clientId);
      return client ? toClient(client) : null;
    },
    generateAccessToken: () => Promise.resolve(generateToken()),
    generateRefreshToken: () => Promise.resolve(generateToken()),
    async getAuthorizationCode(code: string): Promise<AuthorizationCode | Falsey> {
      const found = await tokens.findCode(code);
      if (!found) return null;
      const user: GrantUser = { id: found.userId, grant: found };
      return {
        authorizationCode: String(found.id),
        expiresAt: found.expires,
        redirectUri: found.redirectUri,
        scope: found.scopes,
        client: { id: String(found.applicationId), grants: [] },
        user,
        codeChallenge: found.codeChallenge ?? undefined,
        codeChallengeMethod: found.codeChallenge ? 'S256' : undefined,
      };
    },
    revokeAuthorizationCode(code: AuthorizationCode): Promise<boolean> {
      return tokens.consumeCode(Number(code.authorizationCode));
    },
    async getRefreshToken(refreshToken: string): Promise<RefreshToken | Falsey> {
      const found = await tokens.findRefreshToken(refreshToken);
      if (!found) return null;
      const user: GrantUser = { id: found.userId, grant: found, refreshTokenId: found.tokenId };
      return {
        refreshToken,
        scope: found.scopes,
        client: { id: String(found.applicationId), grants: [] },
        user,
      };
    },
    revokeToken(token: RefreshToken | Token): Promise<boolean> {
      const id = (token.user as GrantUser).refreshTokenId;
      return id === undefined ? Promise.resolve(false) : tokens.useRefreshToken(id);
    },
    async saveToken(token: Token, client: Client, user: User): Promise<Token | Falsey> {
      const grant = (user as GrantUser).grant;
      const scopes = token.scope ?? grant.scopes;
      const issued = await tokens.issue({ ...grant, applicationId: Number(client.id), scopes });
      return {
        accessToken: issued.accessToken,
        accessTokenExpiresAt: issued.accessExpires,
        refreshToken: issued.refreshToken,
        scope: scopes,
        client,
        user,
      };
    },
    // Not used: codes are issued by the consent page, access tokens resolved by auth's port.
    saveAuthorizationCode: () => Promise.resolve(null),
    getAccessToken: () => Promise.resolve(null),
  };
}

/** The library's server for the token endpoint (access tokens {@link ACCESS_TOKEN_LIFETIME_S}). */
export function oauth2Server(apps: OAuthApplicationsService, tokens: OAuthTokensService): OAuth2Server {
  return new OAuth2Server({
    model: oauth2Model(apps, tokens),
    accessTokenLifetime: ACCESS_TOKEN_LIFETIME_S,
    // Refresh tokens do not expire (spec "Authentication" 5); the library wants a number and it is not stored.
    refreshTokenLifetime: 100 * 365 * 86_400,
    // A code exchange needs a secret or (public clients) a code_verifier; a refresh without a secret is let
    // through to getClient, which then finds only public clients.
    requireClientAuthentication: { authorization_code: true, refresh_token: false },
    alwaysIssueNewRefreshToken: true,
    extendedGrantTypes: {
      authorization_code: StrictAuthorizationCodeGrant as unknown as typeof OAuth2Server.AbstractGrantType,
      refresh_token: ScopeFirstRefreshTokenGrant as unknown as typeof OAuth2Server.AbstractGrantType,
    },
  });
}
