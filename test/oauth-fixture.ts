import type { AppConfig } from '../src/config/app-config';
import { bootstrapOrganizer } from './factories';
import { startTestApp, type TestApp } from './harness';
import { agentOf, consent, login, redirectParams, userWithApp } from './oauth-helpers';

/** The user of the OAuth e2e files: member of teams of `orga` and `orgb`, not of `orgc`. */
export const EMAIL = 'alice@example.com';
/** The application's first redirect URI (a second one is `https://client.example/cb`). */
export const REDIRECT = 'http://127.0.0.1:9/cb';

/** What the OAuth e2e files share: an app on its own database, a user with an application, and helpers. */
export interface OAuthFixture {
  t: TestApp;
  app: Awaited<ReturnType<typeof userWithApp>>;
  /** All-powerful team token of `orga`. */
  adminToken: string;
  /** The `orga` team the user belongs to. */
  orgTeam: number;
  /** `Authorization: Basic` for client credentials (default: the fixture's application). */
  basic(id?: string, secret?: string): string;
  /** Authorization request parameters (`state=st4te`). */
  params(extra?: Record<string, string | undefined>): Record<string, string | undefined>;
  /** Logs in a fresh agent, consents to `organizers`, returns the code. */
  codeFor(organizers?: string[], extra?: Record<string, string | undefined>): Promise<string>;
  exchange(
    code: string,
    extra?: Record<string, string>,
    authorization?: string,
  ): ReturnType<ReturnType<TestApp['http']>['post']>;
  refresh(refreshToken: string, authorization?: string): ReturnType<ReturnType<TestApp['http']>['post']>;
  /** GET with `Authorization: Bearer`. */
  api(token: string, path: string): ReturnType<ReturnType<TestApp['http']>['get']>;
  /** Listens on 127.0.0.1 (once) and returns the port. */
  listen(): Promise<number>;
}

/**
 * Registers `beforeAll`/`afterAll` in the calling `describe` and returns the fixture, filled in before the first
 * test runs. `overrides`: configuration of the app (e.g. `trustProxy`).
 */
export function oauthFixture(overrides: Partial<AppConfig> = {}): OAuthFixture {
  let port: number | undefined;
  const f = {
    basic(id = f.app.clientId, secret = f.app.clientSecret) {
      return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    },
    params(extra: Record<string, string | undefined> = {}) {
      return {
        response_type: 'code',
        client_id: f.app.clientId,
        redirect_uri: REDIRECT,
        state: 'st4te',
        ...extra,
      };
    },
    async codeFor(organizers = ['orga'], extra: Record<string, string | undefined> = {}) {
      const agent = agentOf(f.t);
      expect((await login(agent, EMAIL, 'password123')).status).toBe(303);
      const res = await consent(agent, f.params(extra), organizers);
      expect(res.status).toBe(302);
      const back = redirectParams(res.headers.location);
      expect(back.get('state')).toBe('st4te');
      return back.get('code')!;
    },
    exchange(code: string, extra: Record<string, string> = {}, authorization = f.basic()) {
      return f.t
        .http()
        .post('/api/v1/oauth/token')
        .set('Authorization', authorization)
        .type('form')
        .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, ...extra });
    },
    refresh(refreshToken: string, authorization = f.basic()) {
      return f.t
        .http()
        .post('/api/v1/oauth/token')
        .set('Authorization', authorization)
        .type('form')
        .send({ grant_type: 'refresh_token', refresh_token: refreshToken });
    },
    api(token: string, path: string) {
      return f.t.http().get(path).set('Authorization', `Bearer ${token}`);
    },
    async listen() {
      if (port === undefined) {
        await f.t.app.listen(0, '127.0.0.1');
        port = (f.t.app.getHttpServer().address() as { port: number }).port;
      }
      return port;
    },
  } as unknown as OAuthFixture;

  beforeAll(async () => {
    f.t = await startTestApp(overrides);
    const a = await bootstrapOrganizer(f.t, 'orga');
    f.adminToken = a.token;
    f.orgTeam = a.teamId;
    const b = await bootstrapOrganizer(f.t, 'orgb');
    await bootstrapOrganizer(f.t, 'orgc'); // the user has no team here
    f.app = await userWithApp(f.t, EMAIL, [REDIRECT, 'https://client.example/cb']);
    await f.t.db.query('INSERT INTO team_member (team_id, user_id) VALUES ($1, $2), ($3, $2)', [
      a.teamId,
      f.app.userId,
      b.teamId,
    ]);
  });
  afterAll(() => f.t?.close());
  return f;
}
