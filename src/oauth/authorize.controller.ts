import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ConsentForm, CsrfForm, LoginForm } from './page-forms.dto';
import type { Request, Response } from 'express';
import { NoTrailingSlash, Public } from '../auth/access.decorators';
import { AuthorizationRequest, requestParams } from './authorization-request';
import { HTML, sendMessage, sendPage } from './html';
import { ConsentView, OAuthPages } from './oauth-pages.service';
import { OAuthSessions } from './oauth-sessions';
import { withQuery } from './redirect-uris';

const FORM = 'application/x-www-form-urlencoded';
const AUTHORIZE_PATH = '/api/v1/oauth/authorize';
const LOGIN_PATH = '/api/v1/oauth/login';
const HOME_PATH = '/api/v1/oauth/authorized/';

const FORM_EXPIRED =
  'The form has expired or was not sent from this site. Go back, reload the page and try again.';

/** Longest `next` accepted (characters); a longer one falls back to the home page. */
const NEXT_MAX_LENGTH = 2048;

/**
 * A `next` target that stays on this service (README "Security", "Logging in": no open redirect): a path (with
 * query) of this site after normalisation, else the home page. Refused: anything that is not a string, does not
 * start with exactly one `/`, contains a backslash, a control character or whitespace, an encoded slash or
 * backslash (`%2F`, `%5C`) in its path, or whose normalised path (`.`/`..` segments resolved) starts with `//` (a
 * scheme-relative URL: `/..//evil.example` would become `//evil.example`).
 * @returns the normalised path and query
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > NEXT_MAX_LENGTH) return HOME_PATH;
  // eslint-disable-next-line no-control-regex
  if (!/^\/(?!\/)/.test(next) || /[\\\x00-\x20\x7f]/.test(next)) return HOME_PATH;
  const rawPath = next.split(/[?#]/, 1)[0];
  if (/%(2f|5c)/i.test(rawPath)) return HOME_PATH;
  try {
    const url = new URL(next, 'http://service.invalid');
    if (url.origin !== 'http://service.invalid' || !/^\/(?!\/)/.test(url.pathname)) return HOME_PATH;
    return `${url.pathname}${url.search}`;
  } catch {
    return HOME_PATH;
  }
}

/** The values of a form field that may be repeated (checkboxes). */
const many = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x) => typeof x === 'string') : typeof v === 'string' ? [v] : [];

/**
 * The authorization step (README "OAuth 2.0 applications"; RFC 6749 §4.1; RFC 7636): the login page and the
 * consent page, server-rendered HTML forms without JavaScript, protected by a session cookie and CSRF tokens.
 */
@ApiTags('oauth')
@Controller('oauth')
export class AuthorizeController {
  constructor(
    private readonly pages: OAuthPages,
    private readonly sessions: OAuthSessions,
  ) {}

  @Get('authorize')
  @NoTrailingSlash()
  @Public()
  @ApiOperation({
    summary: 'Authorization page (HTML)',
    description:
      '`response_type=code`, `client_id`, `redirect_uri` (exactly as registered), `scope` (`read`, `write`, ' +
      '`profile`, space separated; default `read write`), `state`, optional PKCE `code_challenge` with ' +
      '`code_challenge_method=S256` (required for public clients). Unknown client or redirect URI: 400 page. ' +
      'Other errors redirect with `error`. ' +
      'Not logged in: 302 to the login page. Logged in: the consent page.',
  })
  @ApiQuery({ name: 'response_type', required: true, type: String, description: '`code`.' })
  @ApiQuery({ name: 'client_id', required: true, type: String, description: "The application's client id." })
  @ApiQuery({
    name: 'redirect_uri',
    required: true,
    type: String,
    description: 'A registered redirect URI, exactly.',
  })
  @ApiQuery({
    name: 'scope',
    required: false,
    type: String,
    description: 'Space separated; default `read write`.',
  })
  @ApiQuery({
    name: 'state',
    required: false,
    type: String,
    description: 'Returned unchanged with the code.',
  })
  @ApiQuery({
    name: 'code_challenge',
    required: false,
    type: String,
    description: 'PKCE challenge (RFC 7636).',
  })
  @ApiQuery({ name: 'code_challenge_method', required: false, type: String, description: '`S256` (only).' })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The consent page (HTML).', content: HTML })
  async showOAuthConsent(@Req() req: Request, @Res() res: Response): Promise<void> {
    const request = await this.check(req.query, res);
    if (!request) return;
    const userId = this.sessions.userOf(req);
    if (userId === null) {
      res.redirect(302, `${LOGIN_PATH}?next=${encodeURIComponent(req.originalUrl)}`);
      return;
    }
    this.consentPage(req, res, request, await this.pages.consent(userId, request), null);
  }

  @Post('authorize')
  @NoTrailingSlash()
  @Public()
  @ApiOperation({
    summary: 'Allow or deny an application (HTML form)',
    description:
      'The consent form: the request as hidden inputs, `organizers` (checkbox per organizer slug), and ' +
      '`allow=1` (302 to the redirect URI with `code` and `state`) or `deny=1` (302 with `error=access_denied`).',
  })
  @ApiConsumes(FORM)
  @ApiBody({ type: ConsentForm })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The consent page again, with an error.', content: HTML })
  async submitOAuthConsent(@Req() req: Request, @Res() res: Response): Promise<void> {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const request = await this.check(body, res);
    if (!request) return;
    const userId = this.sessions.userOf(req);
    if (userId === null) {
      res.redirect(
        303,
        `${LOGIN_PATH}?next=${encodeURIComponent(`${AUTHORIZE_PATH}?${new URLSearchParams(requestParams(request)).toString()}`)}`,
      );
      return;
    }
    if (!this.sessions.valid(req)) return this.csrfFailed(res);
    if (body.deny !== undefined) {
      res.redirect(302, withQuery(request.redirectUri, { error: 'access_denied', state: request.state }));
      return;
    }
    const decision = await this.pages.decide(
      userId,
      request,
      many(body.organizers),
      body.allow !== undefined,
    );
    if (decision.kind === 'again') return this.consentPage(req, res, request, decision.view, decision.error);
    res.redirect(302, withQuery(request.redirectUri, { code: decision.code, state: request.state }));
  }

  @Get('login')
  @NoTrailingSlash()
  @Public()
  @ApiOperation({
    summary: 'Login page (HTML)',
    description: 'The login form (`email`, `password`, `next`).',
  })
  @ApiQuery({
    name: 'next',
    required: false,
    type: String,
    description: 'Path of this service to continue to.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The login page (HTML).', content: HTML })
  showOAuthLogin(@Req() req: Request, @Res() res: Response): void {
    this.loginPage(req, res, safeNext(req.query.next), null);
  }

  @Post('login')
  @NoTrailingSlash()
  @Public()
  @ApiOperation({
    summary: 'Log in (HTML form)',
    description:
      'Logs in: 303 to `next` (a path of this service) with a session cookie. Wrong credentials: the form again. ' +
      'Every attempt counts before the password is checked: past 10 attempts for an account or 50 from a client ' +
      'address within 15 minutes, 429 with `Retry-After` (a successful login gives its attempt back).',
  })
  @ApiConsumes(FORM)
  @ApiBody({ type: LoginForm })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The login page again, with an error.', content: HTML })
  async submitOAuthLogin(@Req() req: Request, @Res() res: Response): Promise<void> {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const next = safeNext(body.next);
    if (!this.sessions.valid(req)) return this.csrfFailed(res);
    const email = typeof body.email === 'string' ? body.email.trim() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    if (!email || !password) return this.loginPage(req, res, next, 'Enter your e-mail address and password.');
    const outcome = await this.pages.login(email, password, req.ip ?? 'unknown');
    if (outcome.kind === 'throttled') {
      const wait = outcome.retryAfterSeconds;
      res.setHeader('Retry-After', String(wait));
      return sendMessage(
        res,
        429,
        'Too many failed logins',
        `Too many failed logins. Try again in ${wait} seconds.`,
      );
    }
    if (outcome.kind === 'wrong') return this.loginPage(req, res, next, 'Wrong e-mail address or password.');
    await this.sessions.login(req, outcome.userId);
    res.redirect(303, next);
  }

  @Post('logout')
  @NoTrailingSlash()
  @Public()
  @ApiOperation({ summary: 'Log out (HTML form)', description: 'Ends the session; 303 to the login page.' })
  @ApiConsumes(FORM)
  @ApiBody({ type: CsrfForm })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'Not sent: the answer is a redirect.', content: HTML })
  async submitOAuthLogout(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (!this.sessions.valid(req)) return this.csrfFailed(res);
    await this.sessions.logout(req, res);
    res.redirect(303, LOGIN_PATH);
  }

  /** Checks the request; answers the 400 page or the error redirect itself and returns null then. */
  private async check(params: Record<string, unknown>, res: Response): Promise<AuthorizationRequest | null> {
    const checked = await this.pages.checkRequest(params);
    if (checked.kind === 'ok') return checked.request;
    if (checked.kind === 'page') {
      sendMessage(res, 400, 'Invalid authorization request', checked.message);
      return null;
    }
    res.redirect(
      302,
      withQuery(checked.redirectUri, {
        error: checked.error,
        error_description: checked.description,
        state: checked.state,
      }),
    );
    return null;
  }

  /** The consent page (200), posting back to the service and to the client's redirect origin. */
  private consentPage(
    req: Request,
    res: Response,
    request: AuthorizationRequest,
    view: ConsentView,
    error: string | null,
  ): void {
    sendPage(
      res,
      200,
      `Authorize ${request.client.name}`,
      'consent',
      { ...view, error, csrf: this.sessions.token(req, res) },
      [new URL(request.redirectUri).origin],
    );
  }

  /** The login page (200). */
  private loginPage(req: Request, res: Response, next: string, error: string | null): void {
    sendPage(res, 200, 'Log in', 'login', { next, error, csrf: this.sessions.token(req, res) });
  }

  private csrfFailed(res: Response): void {
    sendMessage(res, 403, 'Form expired', FORM_EXPIRED);
  }
}
