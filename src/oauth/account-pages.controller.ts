import { Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import { CsrfForm, RegisterApplicationForm } from './page-forms.dto';
import type { Request, Response } from 'express';
import { Public } from '../auth/access.decorators';
import { CREDENTIAL_RESOLVER, CredentialResolver } from '../auth/credential-resolver';
import { NotFound, ValidationFailed } from '../common/errors';
import { esc, hidden, HTML, sendPage } from './html';
import { ApplicationWithSecret, OAuthApplicationsService } from './oauth-applications.service';
import { CSRF_FIELD, OAuthSessions } from './oauth-sessions';
import { OAuthTokensService } from './oauth-tokens.service';

const FORM = 'application/x-www-form-urlencoded';
const APPS_PATH = '/api/v1/oauth/applications/';
const AUTHORIZED_PATH = '/api/v1/oauth/authorized/';

/**
 * The user's account pages (issue 12): own applications (`applications/`: list, register, regenerate secret,
 * delete) and authorized applications (`authorized/`: granted organizers and scopes; revoke). HTML forms, no
 * JavaScript; a visitor who is not logged in is sent to the login page.
 */
@ApiTags('oauth')
@Controller('oauth')
export class AccountPagesController {
  constructor(
    private readonly apps: OAuthApplicationsService,
    private readonly tokens: OAuthTokensService,
    private readonly sessions: OAuthSessions,
    @Inject(CREDENTIAL_RESOLVER) private readonly teams: CredentialResolver,
  ) {}

  @Get('applications')
  @Public()
  @ApiOperation({
    summary: 'Own applications page (HTML)',
    description: 'The applications the user registered, and the form to register one.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The page (HTML).', content: HTML })
  async showOAuthApplications(@Req() req: Request, @Res() res: Response): Promise<void> {
    const userId = this.userOrLogin(req, res, APPS_PATH);
    if (userId !== null) await this.applicationsPage(req, res, userId, 200);
  }

  @Post('applications')
  @Public()
  @ApiConsumes(FORM)
  @ApiBody({ type: RegisterApplicationForm })
  @ApiOperation({
    summary: 'Register an application (HTML form)',
    description:
      'Registers an application: `name`, `redirect_uris` (one per line). The page shows the secret once.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({
    description: 'The page with the new client id and secret, or with the errors.',
    content: HTML,
  })
  async registerOAuthApplication(@Req() req: Request, @Res() res: Response): Promise<void> {
    const userId = this.userOrLogin(req, res, APPS_PATH);
    if (userId === null || !this.csrfOk(req, res)) return;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const name = typeof body.name === 'string' ? body.name : '';
    const uris = typeof body.redirect_uris === 'string' ? body.redirect_uris.split(/\s+/) : [];
    try {
      const created = await this.apps.register(userId, name, uris);
      await this.applicationsPage(req, res, userId, 201, { created });
    } catch (err) {
      if (!(err instanceof ValidationFailed)) throw err;
      const messages = Object.values(err.errors as Record<string, string[]>).flat();
      await this.applicationsPage(req, res, userId, 400, { errors: messages });
    }
  }

  @Post('applications/:id/secret')
  @Public()
  @ApiConsumes(FORM)
  @ApiBody({ type: CsrfForm })
  @ApiParam({ name: 'id', type: 'integer' })
  @ApiOperation({
    summary: 'Generate a new client secret (HTML form)',
    description: 'A new client secret, shown once; the old one stops working at once.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The page with the new secret.', content: HTML })
  async regenerateOAuthApplicationSecret(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const userId = this.userOrLogin(req, res, APPS_PATH);
    if (userId === null || !this.csrfOk(req, res)) return;
    try {
      const created = await this.apps.regenerateSecret(userId, Number.parseInt(id, 10) || 0);
      await this.applicationsPage(req, res, userId, 200, { created });
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
      sendPage(res, 404, 'Not found', '<p class="error">No such application.</p>');
    }
  }

  @Post('applications/:id/delete')
  @Public()
  @ApiConsumes(FORM)
  @ApiBody({ type: CsrfForm })
  @ApiParam({ name: 'id', type: 'integer' })
  @ApiOperation({
    summary: 'Delete an application (HTML form)',
    description: 'Deletes the application with all its tokens; 303 to the list.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'Not sent: the answer is a redirect.', content: HTML })
  async deleteOAuthApplication(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const userId = this.userOrLogin(req, res, APPS_PATH);
    if (userId === null || !this.csrfOk(req, res)) return;
    try {
      await this.apps.delete(userId, Number.parseInt(id, 10) || 0);
      res.redirect(303, APPS_PATH);
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
      sendPage(res, 404, 'Not found', '<p class="error">No such application.</p>');
    }
  }

  @Get('authorized')
  @Public()
  @ApiOperation({
    summary: 'Authorized applications page (HTML)',
    description: 'The applications the user authorized, with the organizers and scopes granted.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The page (HTML).', content: HTML })
  async showOAuthAuthorized(@Req() req: Request, @Res() res: Response): Promise<void> {
    const userId = this.userOrLogin(req, res, AUTHORIZED_PATH);
    if (userId === null) return;
    const granted = await this.tokens.authorizedBy(userId);
    const names = await this.apps.namesOf(granted.map((g) => g.applicationId));
    const slugs = new Map(
      (await this.teams.grantsOfUser(userId)).map((g) => [g.organizerId, g.organizerSlug]),
    );
    const csrf = this.sessions.token(req, res);
    const rows = granted
      .map(
        (g) =>
          `<tr><td>${esc(names.get(g.applicationId) ?? g.applicationId)}</td>` +
          `<td>${g.organizerIds.map((o) => esc(slugs.get(o) ?? `#${o}`)).join(', ')}</td>` +
          `<td>${g.scopes.map(esc).join(' ')}</td>` +
          `<td><form class="inline" method="post" action="${AUTHORIZED_PATH}${g.applicationId}/revoke/">` +
          `${hidden(CSRF_FIELD, csrf)}<button type="submit">Revoke</button></form></td></tr>`,
      )
      .join('');
    const body = granted.length
      ? `<table><tr><th>Application</th><th>Organizers</th><th>Scopes</th><th></th></tr>${rows}</table>`
      : '<p>You have not authorized any application.</p>';
    sendPage(
      res,
      200,
      'Authorized applications',
      body + `<p><a href="${APPS_PATH}">Your own applications</a></p>`,
    );
  }

  @Post('authorized/:id/revoke')
  @Public()
  @ApiConsumes(FORM)
  @ApiBody({ type: CsrfForm })
  @ApiParam({ name: 'id', type: 'integer', description: 'The application id.' })
  @ApiOperation({
    summary: 'Revoke an application and all its tokens (HTML form)',
    description: 'Revokes every token the user granted to the application; 303 to the list.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'Not sent: the answer is a redirect.', content: HTML })
  async revokeOAuthAuthorization(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
  ): Promise<void> {
    const userId = this.userOrLogin(req, res, AUTHORIZED_PATH);
    if (userId === null || !this.csrfOk(req, res)) return;
    await this.tokens.revokeAuthorization(userId, Number.parseInt(id, 10) || 0);
    res.redirect(303, AUTHORIZED_PATH);
  }

  /** The logged-in user, or null after redirecting to the login page. */
  private userOrLogin(req: Request, res: Response, back: string): number | null {
    const userId = this.sessions.userOf(req);
    if (userId === null)
      res.redirect(req.method === 'GET' ? 302 : 303, `/api/v1/oauth/login?next=${encodeURIComponent(back)}`);
    return userId;
  }

  private csrfOk(req: Request, res: Response): boolean {
    if (this.sessions.valid(req)) return true;
    sendPage(
      res,
      403,
      'Form expired',
      '<p class="error">The form has expired. Reload the page and try again.</p>',
    );
    return false;
  }

  private async applicationsPage(
    req: Request,
    res: Response,
    userId: number,
    status: number,
    extra: { created?: ApplicationWithSecret; errors?: string[] } = {},
  ): Promise<void> {
    const list = await this.apps.listOf(userId);
    const csrf = this.sessions.token(req, res);
    const shown = extra.created
      ? `<p>Client id: <code id="client-id">${esc(extra.created.clientId)}</code><br>` +
        `Client secret: <code id="client-secret">${esc(extra.created.clientSecret)}</code><br>` +
        'Copy the secret now: it is not shown again.</p>'
      : '';
    const errors = (extra.errors ?? []).map((e) => `<p class="error">${esc(e)}</p>`).join('');
    const rows = list
      .map(
        (a) =>
          `<tr><td>${esc(a.name)}</td><td><code>${esc(a.clientId)}</code></td>` +
          `<td>${a.redirectUris.map(esc).join('<br>')}</td><td>` +
          `<form class="inline" method="post" action="${APPS_PATH}${a.id}/secret/">${hidden(CSRF_FIELD, csrf)}` +
          '<button type="submit">New secret</button></form> ' +
          `<form class="inline" method="post" action="${APPS_PATH}${a.id}/delete/">${hidden(CSRF_FIELD, csrf)}` +
          '<button type="submit">Delete</button></form></td></tr>',
      )
      .join('');
    const body =
      shown +
      errors +
      (list.length
        ? `<table><tr><th>Name</th><th>Client id</th><th>Redirect URIs</th><th></th></tr>${rows}</table>`
        : '<p>You have not registered any application.</p>') +
      `<h2>Register an application</h2><form method="post" action="${APPS_PATH}">${hidden(CSRF_FIELD, csrf)}` +
      '<label>Name <input type="text" name="name" required maxlength="255"></label>' +
      '<label>Redirect URIs (one per line; https, or http for 127.0.0.1/localhost) ' +
      '<textarea name="redirect_uris" rows="3" required></textarea></label>' +
      '<p><button type="submit">Register</button></p></form>' +
      `<p><a href="${AUTHORIZED_PATH}">Authorized applications</a></p>`;
    sendPage(res, status, 'Your applications', body);
  }
}
