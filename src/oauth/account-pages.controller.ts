import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
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
import { HTML, sendMessage, sendPage } from './html';
import { ApplicationsView, OAuthPages } from './oauth-pages.service';
import { OAuthSessions } from './oauth-sessions';

const FORM = 'application/x-www-form-urlencoded';
const APPS_PATH = '/api/v1/oauth/applications/';
const AUTHORIZED_PATH = '/api/v1/oauth/authorized/';
const NO_SUCH_APPLICATION = 'No such application.';

/**
 * The user's account pages (spec "Authentication" 3): own applications (`applications/`: list, register,
 * regenerate secret, delete) and authorized applications (`authorized/`: granted organizers and scopes; revoke).
 * HTML forms, no JavaScript; a visitor who is not logged in is sent to the login page.
 */
@ApiTags('oauth')
@Controller('oauth')
export class AccountPagesController {
  constructor(
    private readonly pages: OAuthPages,
    private readonly sessions: OAuthSessions,
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
    if (userId !== null) this.applicationsPage(req, res, 200, await this.pages.applications(userId));
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
    const registered = await this.pages.register(userId, name, uris);
    this.applicationsPage(req, res, registered.ok ? 201 : 400, registered.view);
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
    const view = await this.pages.regenerateSecret(userId, Number.parseInt(id, 10) || 0);
    if (view) this.applicationsPage(req, res, 200, view);
    else sendMessage(res, 404, 'Not found', NO_SUCH_APPLICATION);
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
    if (await this.pages.deleteApplication(userId, Number.parseInt(id, 10) || 0))
      res.redirect(303, APPS_PATH);
    else sendMessage(res, 404, 'Not found', NO_SUCH_APPLICATION);
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
    const view = await this.pages.authorized(userId);
    sendPage(res, 200, 'Authorized applications', 'authorized', {
      ...view,
      csrf: this.sessions.token(req, res),
    });
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
    await this.pages.revoke(userId, Number.parseInt(id, 10) || 0);
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
    sendMessage(res, 403, 'Form expired', 'The form has expired. Reload the page and try again.');
    return false;
  }

  /** The user's applications page with status `status`. */
  private applicationsPage(req: Request, res: Response, status: number, view: ApplicationsView): void {
    sendPage(res, status, 'Your applications', 'applications', {
      ...view,
      csrf: this.sessions.token(req, res),
    });
  }
}
