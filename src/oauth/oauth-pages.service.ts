import { Inject, Injectable } from '@nestjs/common';
import { CREDENTIAL_RESOLVER, CredentialResolver } from '../auth/credential-resolver';
import { UsersService } from '../auth/users.service';
import { NotFound, ValidationFailed } from '../common/errors';
import {
  AuthorizationParams,
  AuthorizationRequest,
  Checked,
  checkAuthorization,
  requestParams,
} from './authorization-request';
import { LoginThrottle } from './login-throttle';
import {
  ApplicationView,
  ApplicationWithSecret,
  OAuthApplicationsService,
} from './oauth-applications.service';
import { OAuthTokensService } from './oauth-tokens.service';

const SCOPE_TEXT: Record<string, string> = {
  read: 'read the data of the organizers you choose',
  write: 'change the data of the organizers you choose',
  profile: 'read your profile (name, e-mail address)',
};

/**
 * The consent page (spec "Authentication" 4; README "OAuth 2.0 applications"): who asks for what, and the
 * organizers the user may grant.
 */
export interface ConsentView {
  clientName: string;
  /** The requested scopes with their explanation, in request order. */
  scopes: { scope: string; text: string }[];
  /** The authorization request as the form's hidden fields. */
  params: { name: string; value: string }[];
  /** Slugs of the organizers the user reaches through a team, ascending. */
  organizers: string[];
}

/** The result of the consent form: a code for the client, or the consent page again with an error. */
export type ConsentDecision =
  { kind: 'code'; code: string } | { kind: 'again'; view: ConsentView; error: string };

/** The result of the login form. */
export type LoginOutcome =
  { kind: 'throttled'; retryAfterSeconds: number } | { kind: 'wrong' } | { kind: 'ok'; userId: number };

/** The user's own applications page, with a secret to show once or the errors of a registration. */
export interface ApplicationsView {
  applications: ApplicationView[];
  created: ApplicationWithSecret | null;
  errors: string[];
}

/** One row of the authorized-applications page. */
export interface AuthorizedRow {
  applicationId: number;
  /** The application's name (its id when it is gone). */
  name: string;
  /** Slugs of the organizers granted (`#<id>` for one the user no longer reaches). */
  organizers: string[];
  scopes: string[];
}

/** The authorized-applications page. */
export interface AuthorizedView {
  rows: AuthorizedRow[];
}

/**
 * What the OAuth pages show and do (spec "OAuth and profile"; README "OAuth 2.0 applications"): one call per page
 * handler, returning a typed view model that the controller renders with its template. Sessions, CSRF and HTTP
 * stay in the controllers.
 */
@Injectable()
export class OAuthPages {
  constructor(
    private readonly apps: OAuthApplicationsService,
    private readonly tokens: OAuthTokensService,
    private readonly users: UsersService,
    private readonly throttle: LoginThrottle,
    @Inject(CREDENTIAL_RESOLVER) private readonly teams: CredentialResolver,
  ) {}

  /** Checks an authorization request against its client (RFC 6749 §4.1.1; see {@link checkAuthorization}). */
  async checkRequest(params: AuthorizationParams): Promise<Checked> {
    const clientId = typeof params.client_id === 'string' ? params.client_id : '';
    const client = clientId ? await this.apps.findClient(clientId) : null;
    return checkAuthorization(params, client);
  }

  /** The consent page of a checked request for the logged-in user. */
  async consent(userId: number, request: AuthorizationRequest): Promise<ConsentView> {
    return this.consentView(request, await this.organizersOf(userId));
  }

  /**
   * The consent form's decision to allow: the organizers chosen among those the user reaches (slugs; others are
   * ignored) get a code bound to the request (spec "Authentication" 4). Without `allow` or without any reachable
   * organizer chosen: the page again with "Choose at least one organizer.".
   */
  async decide(
    userId: number,
    request: AuthorizationRequest,
    chosen: string[],
    allow: boolean,
  ): Promise<ConsentDecision> {
    const reachable = await this.organizersOf(userId);
    const organizerIds = [...reachable.entries()]
      .filter(([slug]) => chosen.includes(slug))
      .map(([, id]) => id);
    if (!allow || organizerIds.length === 0) {
      return {
        kind: 'again',
        view: this.consentView(request, reachable),
        error: 'Choose at least one organizer.',
      };
    }
    const code = await this.tokens.createCode({
      applicationId: request.client.id,
      userId,
      redirectUri: request.redirectUri,
      scopes: request.scopes,
      organizerIds,
      codeChallenge: request.codeChallenge,
    });
    return { kind: 'code', code };
  }

  /**
   * A login attempt (README "Security", "Logging in"): counted before the password is checked (per account and per
   * client address); a successful login gives its attempt back.
   */
  async login(email: string, password: string, address: string): Promise<LoginOutcome> {
    const wait = await this.throttle.attempt(email, address);
    if (wait !== null) return { kind: 'throttled', retryAfterSeconds: wait };
    const user = await this.users.verify(email, password);
    if (!user) return { kind: 'wrong' };
    await this.throttle.succeeded(email, address);
    return { kind: 'ok', userId: user.id };
  }

  /** The user's own applications. */
  async applications(userId: number): Promise<ApplicationsView> {
    return { applications: await this.apps.listOf(userId), created: null, errors: [] };
  }

  /**
   * Registers an application for the user (`redirect_uris`: one per line or whitespace separated).
   * @returns the page with the new client id and secret, or with the validation messages (`ok: false`)
   */
  async register(
    userId: number,
    name: string,
    redirectUris: string[],
  ): Promise<{ ok: boolean; view: ApplicationsView }> {
    try {
      const created = await this.apps.register(userId, name, redirectUris);
      return { ok: true, view: { applications: await this.apps.listOf(userId), created, errors: [] } };
    } catch (err) {
      if (!(err instanceof ValidationFailed)) throw err;
      const errors = Object.values(err.errors as Record<string, string[]>).flat();
      return { ok: false, view: { applications: await this.apps.listOf(userId), created: null, errors } };
    }
  }

  /** A new secret for the user's application `id`, shown once. @returns null when the user has no such application */
  async regenerateSecret(userId: number, id: number): Promise<ApplicationsView | null> {
    try {
      const created = await this.apps.regenerateSecret(userId, id);
      return { applications: await this.apps.listOf(userId), created, errors: [] };
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
      return null;
    }
  }

  /** Deletes the user's application `id` with its tokens. @returns false when the user has no such application */
  async deleteApplication(userId: number, id: number): Promise<boolean> {
    try {
      await this.apps.delete(userId, id);
      return true;
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
      return false;
    }
  }

  /** The applications the user authorized, with the organizers and scopes granted. */
  async authorized(userId: number): Promise<AuthorizedView> {
    const granted = await this.tokens.authorizedBy(userId);
    const names = await this.apps.namesOf(granted.map((g) => g.applicationId));
    const slugs = new Map(
      (await this.teams.grantsOfUser(userId)).map((g) => [g.organizerId, g.organizerSlug]),
    );
    return {
      rows: granted.map((g) => ({
        applicationId: g.applicationId,
        name: names.get(g.applicationId) ?? String(g.applicationId),
        organizers: g.organizerIds.map((o) => slugs.get(o) ?? `#${o}`),
        scopes: g.scopes,
      })),
    };
  }

  /** Revokes every token the user granted to the application (none: nothing happens). */
  async revoke(userId: number, applicationId: number): Promise<void> {
    await this.tokens.revokeAuthorization(userId, applicationId);
  }

  /** Organizers the user reaches through a team: slug -> id, by slug. */
  private async organizersOf(userId: number): Promise<Map<string, number>> {
    const grants = await this.teams.grantsOfUser(userId);
    return new Map(
      grants
        .map((g) => [g.organizerSlug, g.organizerId] as [string, number])
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  }

  private consentView(request: AuthorizationRequest, organizers: Map<string, number>): ConsentView {
    return {
      clientName: request.client.name,
      scopes: request.scopes.map((scope) => ({ scope, text: SCOPE_TEXT[scope] })),
      params: Object.entries(requestParams(request)).map(([name, value]) => ({ name, value })),
      organizers: [...organizers.keys()],
    };
  }
}
