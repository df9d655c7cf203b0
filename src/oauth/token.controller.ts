import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import OAuth2Server, { OAuthError } from '@node-oauth/oauth2-server';
import type { Request, Response } from 'express';
import { NoTrailingSlash, Public } from '../auth/access.decorators';
import { clientCredentials } from './client-credentials';
import { OAuthApplicationsService } from './oauth-applications.service';
import { OAuthErrorJson, RevokeRequestForm, TokenRequestForm, TokenResponseJson } from './oauth-token.dto';
import { OAuthTokensService } from './oauth-tokens.service';
import { oauth2Server } from './oauth2-model';

const FORM = 'application/x-www-form-urlencoded';
/** The grants this service offers (the library knows more). */
const GRANT_TYPES = ['authorization_code', 'refresh_token'];

/** Sends an RFC 6749 §5.2 error; `invalid_client` is always 401, with a Basic challenge. */
function sendError(res: Response, status: number, error: string, description?: string): void {
  if (error === 'invalid_client') {
    status = 401;
    res.setHeader('WWW-Authenticate', 'Basic realm="oauth"');
  }
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json(description ? { error, error_description: description } : { error });
}

/**
 * The token and revoke endpoints (spec "OAuth and profile"; RFC 6749 §4.1.3, §6; RFC 7009). Public routes:
 * the client authenticates itself with its id and secret. The grants run in `@node-oauth/oauth2-server`.
 */
@ApiTags('oauth')
@Controller('oauth')
export class TokenController {
  private readonly server: OAuth2Server;

  constructor(
    private readonly apps: OAuthApplicationsService,
    private readonly tokens: OAuthTokensService,
  ) {
    this.server = oauth2Server(apps, tokens);
  }

  @Post('token')
  @NoTrailingSlash()
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Exchange a code or a refresh token for tokens',
    description:
      'Client authentication with HTTP Basic (client id as user name, client secret as password) or ' +
      '`client_id` + `client_secret` in the form body; a public client sends `client_id` alone (with ' +
      '`code_verifier` for a code: PKCE is required). `grant_type=authorization_code` with `code`, ' +
      '`redirect_uri` and `code_verifier` (when PKCE was used); `grant_type=refresh_token` with `refresh_token` ' +
      '(the used refresh token and its access token stop working at once; presenting a used refresh token again ' +
      'revokes every token of its authorization; a wider `scope` than the token has: `invalid_scope`, nothing ' +
      'used up). Answers carry `Cache-Control: no-store`.',
  })
  @ApiConsumes(FORM)
  @ApiBody({ type: TokenRequestForm })
  @ApiOkResponse({ type: TokenResponseJson, description: 'New access and refresh token.' })
  @ApiBadRequestResponse({
    type: OAuthErrorJson,
    description:
      '`invalid_grant` (bad, used, expired or foreign code or refresh token, wrong `code_verifier` or ' +
      '`redirect_uri`), `invalid_request`, `unsupported_grant_type`, `invalid_scope`.',
  })
  @ApiUnauthorizedResponse({ type: OAuthErrorJson, description: '`invalid_client`: bad client credentials.' })
  async createOAuthToken(@Req() req: Request, @Res() res: Response): Promise<void> {
    const grantType = (req.body as Record<string, unknown> | undefined)?.grant_type;
    if (typeof grantType === 'string' && grantType !== '' && !GRANT_TYPES.includes(grantType)) {
      return sendError(res, 400, 'unsupported_grant_type', 'Supported: authorization_code, refresh_token.');
    }
    const response = new OAuth2Server.Response(res);
    try {
      const token = await this.server.token(new OAuth2Server.Request(req), response);
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      res.status(200).json({
        access_token: token.accessToken,
        expires_in: Math.max(
          0,
          Math.round(((token.accessTokenExpiresAt?.getTime() ?? 0) - Date.now()) / 1000),
        ),
        token_type: 'Bearer',
        scope: (token.scope ?? []).join(' '),
        refresh_token: token.refreshToken,
      });
    } catch (err) {
      if (!(err instanceof OAuthError) || err.code >= 500) throw err;
      sendError(res, err.code, err.name, err.message);
    }
  }

  @Post('revoke_token')
  @NoTrailingSlash()
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Revoke an access or refresh token',
    description:
      'RFC 7009. Same client authentication as the token endpoint; form body `token` (access or refresh ' +
      'token), optional `token_type_hint`. Revoking an access token leaves its refresh token usable; revoking a ' +
      'refresh token also revokes its access token. An unknown token, or one of another client: 200 and nothing ' +
      'revoked.',
  })
  @ApiConsumes(FORM)
  @ApiBody({ type: RevokeRequestForm })
  @ApiOkResponse({ description: 'Revoked (or nothing to revoke); empty body.' })
  @ApiBadRequestResponse({ type: OAuthErrorJson, description: '`invalid_request`: no `token`.' })
  @ApiUnauthorizedResponse({ type: OAuthErrorJson, description: '`invalid_client`: bad client credentials.' })
  revokeOAuthToken(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.revokeFrom(req, res, (req.body ?? {}) as Record<string, unknown>);
  }

  @Get('revoke_token')
  @NoTrailingSlash()
  @Public()
  @ApiOperation({
    summary: 'Revoke a token (query string)',
    description: 'As `POST`, with `token` (and `token_type_hint`) in the query string.',
  })
  @ApiQuery({ name: 'token', required: true, type: String, description: 'An access or refresh token.' })
  @ApiQuery({
    name: 'token_type_hint',
    required: false,
    enum: ['access_token', 'refresh_token'],
    description: 'Which kind `token` is.',
  })
  @ApiOkResponse({ description: 'Revoked (or nothing to revoke); empty body.' })
  @ApiBadRequestResponse({ type: OAuthErrorJson, description: '`invalid_request`: no `token`.' })
  @ApiUnauthorizedResponse({ type: OAuthErrorJson, description: '`invalid_client`: bad client credentials.' })
  revokeOAuthTokenByQuery(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.revokeFrom(req, res, req.query);
  }

  private async revokeFrom(req: Request, res: Response, params: Record<string, unknown>): Promise<void> {
    const credentials = clientCredentials(req);
    const client = credentials
      ? await this.apps.authenticate(credentials.clientId, credentials.clientSecret)
      : null;
    if (!client) return sendError(res, 401, 'invalid_client', 'Invalid client credentials.');
    const token = params.token;
    if (typeof token !== 'string' || token === '') {
      return sendError(res, 400, 'invalid_request', 'Missing parameter: `token`.');
    }
    const hint = typeof params.token_type_hint === 'string' ? params.token_type_hint : undefined;
    await this.tokens.revoke(client.id, token, hint);
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).end();
  }
}
