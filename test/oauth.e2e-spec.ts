import { bootstrapOrganizer } from './factories';
import { startTestApp, type TestApp } from './harness';
import {
  agentOf,
  consent,
  csrfOf,
  login,
  oauthClient,
  query,
  redirectParams,
  userWithApp,
} from './oauth-helpers';
import { runCli } from './cli-harness';
import { countStatements } from './sql-count';
import { OAuthHousekeeping } from '../src/oauth/oauth-housekeeping';

/**
 * OAuth 2.0 provider (issue 12): applications, the authorization step (login and consent forms), the token and
 * revoke endpoints, and access tokens on the API (organizer restriction, scopes, expiry, revocation). The code
 * exchange with PKCE, the refresh and the revocation also run through `oauth4webapi` (test/oauth-client.mjs).
 */
describe('OAuth provider', () => {
  let t: TestApp;
  let app: Awaited<ReturnType<typeof userWithApp>>;
  const EMAIL = 'alice@example.com';
  const REDIRECT = 'http://127.0.0.1:9/cb';
  let orgTeam: number;
  let adminToken: string;

  beforeAll(async () => {
    t = await startTestApp();
    const a = await bootstrapOrganizer(t, 'orga');
    adminToken = a.token;
    await bootstrapOrganizer(t, 'orgb');
    await bootstrapOrganizer(t, 'orgc'); // the user has no team here
    app = await userWithApp(t, EMAIL, [REDIRECT, 'https://client.example/cb']);
    orgTeam = a.teamId;
    const b = await t.db.query(
      `SELECT id FROM team WHERE organizer_id = (SELECT id FROM organizer WHERE slug = 'orgb')`,
    );
    await t.db.query('INSERT INTO team_member (team_id, user_id) VALUES ($1, $2), ($3, $2)', [
      a.teamId,
      app.userId,
      (b as { id: number }[])[0].id,
    ]);
  });
  afterAll(() => t.close());

  const basic = (id = app.clientId, secret = app.clientSecret) =>
    `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const params = (extra: Record<string, string | undefined> = {}) => ({
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: REDIRECT,
    state: 'st4te',
    ...extra,
  });

  /** Logs in a fresh agent and returns a code for `organizers`. */
  async function codeFor(organizers = ['orga'], extra: Record<string, string | undefined> = {}) {
    const agent = agentOf(t);
    expect((await login(agent, EMAIL, 'password123')).status).toBe(303);
    const res = await consent(agent, params(extra), organizers);
    expect(res.status).toBe(302);
    const back = redirectParams(res.headers.location);
    expect(back.get('state')).toBe('st4te');
    return back.get('code')!;
  }

  const exchange = (code: string, extra: Record<string, string> = {}, authorization = basic()) =>
    t
      .http()
      .post('/api/v1/oauth/token')
      .set('Authorization', authorization)
      .type('form')
      .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, ...extra });

  const refresh = (refreshToken: string, authorization = basic()) =>
    t
      .http()
      .post('/api/v1/oauth/token')
      .set('Authorization', authorization)
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: refreshToken });

  const api = (token: string, path: string) => t.http().get(path).set('Authorization', `Bearer ${token}`);

  describe('applications', () => {
    it('CLI create-oauth-application prints only client_id and client_secret', async () => {
      const run = await runCli(t, [
        'create-oauth-application',
        '--user',
        EMAIL,
        '--name',
        'CLI app',
        '--redirect-uri',
        'https://a.example/cb',
        '--redirect-uri',
        'http://localhost:8080/cb',
      ]);
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout) as Record<string, string>;
      expect(Object.keys(out).sort()).toEqual(['client_id', 'client_secret']);
      const rows: { redirect_uris: string[]; client_secret_hash: string }[] = await t.db.query(
        'SELECT redirect_uris, client_secret_hash FROM oauth_application WHERE client_id = $1',
        [out.client_id],
      );
      expect(rows[0].redirect_uris).toEqual(['https://a.example/cb', 'http://localhost:8080/cb']);
      expect(rows[0].client_secret_hash).not.toContain(out.client_secret);
      const bad = await runCli(t, [
        'create-oauth-application',
        '--user',
        EMAIL,
        '--name',
        'x',
        '--redirect-uri',
        'http://evil.example/cb',
      ]);
      expect(bad.code).not.toBe(0);
      expect(bad.stdout).toBe('');
    });

    it('registers, regenerates the secret (old one stops at once) and deletes on the applications/ page', async () => {
      const agent = agentOf(t);
      const anon = await agentOf(t).get('/api/v1/oauth/applications/');
      expect(anon.status).toBe(302);
      expect(anon.headers.location).toBe('/api/v1/oauth/login?next=%2Fapi%2Fv1%2Foauth%2Fapplications%2F');
      await login(agent, EMAIL, 'password123');
      const page = await agent.get('/api/v1/oauth/applications/');
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
      const bad = await agent
        .post('/api/v1/oauth/applications/')
        .type('form')
        .send({ name: 'Bad', redirect_uris: 'http://example.com/cb', csrf_token: csrfOf(page.text) });
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('must use https');
      const noCsrf = await agent
        .post('/api/v1/oauth/applications/')
        .type('form')
        .send({ name: 'X', redirect_uris: 'https://x.example/' });
      expect(noCsrf.status).toBe(403);
      const made = await agent
        .post('/api/v1/oauth/applications/')
        .type('form')
        .send({ name: 'Page app', redirect_uris: 'https://p.example/cb', csrf_token: csrfOf(page.text) });
      expect(made.status).toBe(201);
      const clientId = /id="client-id">([^<]+)</.exec(made.text)![1];
      const secret = /id="client-secret">([^<]+)</.exec(made.text)![1];
      const [{ id }] = await t.db.query<{ id: number }[]>(
        'SELECT id FROM oauth_application WHERE client_id = $1',
        [clientId],
      );
      const revokeWith = (s: string) =>
        t
          .http()
          .post('/api/v1/oauth/revoke_token')
          .set('Authorization', basic(clientId, s))
          .type('form')
          .send({ token: 'x' });
      expect((await revokeWith(secret)).status).toBe(200);
      const again = await agent
        .post(`/api/v1/oauth/applications/${id}/secret/`)
        .type('form')
        .send({ csrf_token: csrfOf(made.text) });
      expect(again.status).toBe(200);
      const secret2 = /id="client-secret">([^<]+)</.exec(again.text)![1];
      expect(secret2).not.toBe(secret);
      expect((await revokeWith(secret)).status).toBe(401);
      expect((await revokeWith(secret2)).status).toBe(200);
      const del = await agent
        .post(`/api/v1/oauth/applications/${id}/delete/`)
        .type('form')
        .send({ csrf_token: csrfOf(again.text) });
      expect(del.status).toBe(303);
      expect((await revokeWith(secret2)).status).toBe(401);
    });
  });

  describe('authorization step', () => {
    it('answers 400 pages (never a redirect) for an unknown client or an unregistered redirect URI', async () => {
      for (const bad of [
        { client_id: 'nope' },
        { redirect_uri: `${REDIRECT}/` },
        { redirect_uri: `${REDIRECT}?x=1` },
        { redirect_uri: 'https://evil.example/cb' },
      ]) {
        const res = await t.http().get(`/api/v1/oauth/authorize?${query(params(bad))}`);
        expect(res.status).toBe(400);
        expect(res.headers.location).toBeUndefined();
        expect(res.headers['content-type']).toMatch(/text\/html/);
      }
    });

    it('redirects other errors to the client with error and state', async () => {
      const cases: [Record<string, string>, string][] = [
        [{ response_type: 'token' }, 'unsupported_response_type'],
        [{ scope: 'read admin' }, 'invalid_scope'],
        [{ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request'],
        [{ code_challenge: 'a'.repeat(43), code_challenge_method: 'S512' }, 'invalid_request'],
        [{ code_challenge: 'a'.repeat(43) }, 'invalid_request'],
      ];
      for (const [extra, error] of cases) {
        const res = await t.http().get(`/api/v1/oauth/authorize?${query(params(extra))}`);
        expect(res.status).toBe(302);
        const back = redirectParams(res.headers.location);
        expect(res.headers.location.startsWith(`${REDIRECT}?`)).toBe(true);
        expect([back.get('error'), back.get('state')]).toEqual([error, 'st4te']);
      }
    });

    it('sends a visitor who is not logged in to the login page with next', async () => {
      const url = `/api/v1/oauth/authorize?${query(params())}`;
      const res = await t.http().get(url);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(`/api/v1/oauth/login?next=${encodeURIComponent(url)}`);
    });

    it('logs in with a session cookie (HttpOnly, SameSite=Lax) and redirects only to paths of this service', async () => {
      const agent = agentOf(t);
      const ok = await login(agent, EMAIL, 'password123', '/api/v1/oauth/authorize?x=1');
      expect(ok.status).toBe(303);
      expect(ok.headers.location).toBe('/api/v1/oauth/authorize?x=1');
      const cookie = (ok.headers['set-cookie'] as unknown as string[]).find((c) =>
        c.startsWith('oauth_session='),
      )!;
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      const evil = await login(agentOf(t), EMAIL, 'password123', 'https://evil.example/');
      expect(evil.headers.location).toBe('/api/v1/oauth/authorized/');
      const evil2 = await login(agentOf(t), EMAIL, 'password123', '//evil.example/x');
      expect(evil2.headers.location).toBe('/api/v1/oauth/authorized/');
    });

    it('answers wrong credentials with the form and no session; 429 after 10 failures per address', async () => {
      await t.app
        .get(await import('../src/auth/users.service').then((m) => m.UsersService))
        .create('bob@example.com', 'password123', null);
      for (let i = 0; i < 10; i++) {
        const res = await login(agentOf(t), 'bob@example.com', 'wrong-password');
        expect(res.status).toBe(200);
        expect(res.text).toContain('Wrong e-mail address or password.');
        expect(res.text).toContain('name="password"');
        const cookies = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
        expect(cookies.some((c) => c.startsWith('oauth_session='))).toBe(false);
      }
      const blocked = await login(agentOf(t), 'bob@example.com', 'password123');
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // Other addresses are not affected.
      expect((await login(agentOf(t), EMAIL, 'password123')).status).toBe(303);
    });

    it('refuses a login POST without the CSRF token', async () => {
      const res = await agentOf(t)
        .post('/api/v1/oauth/login')
        .type('form')
        .send({ email: EMAIL, password: 'password123' });
      expect(res.status).toBe(403);
    });

    it('shows the consent form with one checkbox per reachable organizer, allow and deny', async () => {
      const agent = agentOf(t);
      await login(agent, EMAIL, 'password123');
      const page = await agent.get(`/api/v1/oauth/authorize?${query(params())}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<form method="post"');
      expect(page.text).toContain(`app of ${EMAIL}`);
      expect(page.text).toContain('<input type="checkbox" name="organizers" value="orga">');
      expect(page.text).toContain('<input type="checkbox" name="organizers" value="orgb">');
      expect(page.text).not.toContain('value="orgc"');
      expect(page.text).toContain('<button type="submit" name="allow" value="1">');
      expect(page.text).toContain('<button type="submit" name="deny" value="1">');
      expect(page.headers['content-security-policy']).toContain("form-action 'self' http://127.0.0.1:9");
      const none = await agent
        .post('/api/v1/oauth/authorize')
        .type('form')
        .send({ ...params(), allow: '1', csrf_token: csrfOf(page.text) });
      expect(none.status).toBe(200);
      expect(none.text).toContain('Choose at least one organizer.');
      const denied = await consent(agent, params(), ['orga'], 'deny');
      expect(denied.status).toBe(302);
      const back = redirectParams(denied.headers.location);
      expect([back.get('error'), back.get('state'), back.get('code')]).toEqual([
        'access_denied',
        'st4te',
        null,
      ]);
    });
  });

  describe('token endpoint', () => {
    it('exchanges a code (Basic auth) for tokens: expires_in 86400, Bearer, read write, no-store', async () => {
      const res = await exchange(await codeFor());
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        access_token: expect.stringMatching(/^[a-z0-9]{64}$/),
        expires_in: 86400,
        token_type: 'Bearer',
        scope: 'read write',
        refresh_token: expect.stringMatching(/^[a-z0-9]{64}$/),
      });
      const body = res.body as { access_token: string };
      const stored: unknown[] = await t.db.query('SELECT 1 FROM oauth_token WHERE access_token_hash = $1', [
        body.access_token,
      ]);
      expect(stored).toHaveLength(0);
    });

    it('accepts client_id and client_secret in the form body', async () => {
      const res = await t
        .http()
        .post('/api/v1/oauth/token')
        .type('form')
        .send({
          grant_type: 'authorization_code',
          code: await codeFor(),
          redirect_uri: REDIRECT,
          client_id: app.clientId,
          client_secret: app.clientSecret,
        });
      expect(res.status).toBe(200);
    });

    it('answers 401 invalid_client for bad or missing client credentials', async () => {
      const code = await codeFor();
      expect((await exchange(code, {}, basic(app.clientId, 'wrong'))).status).toBe(401);
      const wrong = await exchange(code, {}, basic(app.clientId, 'wrong'));
      expect(wrong.body).toMatchObject({ error: 'invalid_client' });
      const none = await t
        .http()
        .post('/api/v1/oauth/token')
        .type('form')
        .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
      expect([none.status, (none.body as { error: string }).error]).toEqual([401, 'invalid_client']);
      const idOnly = await t
        .http()
        .post('/api/v1/oauth/token')
        .type('form')
        .send({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          client_id: app.clientId,
          code_verifier: 'a'.repeat(43),
        });
      expect([idOnly.status, (idOnly.body as { error: string }).error]).toEqual([401, 'invalid_client']);
      // The code survived the refused attempts.
      expect((await exchange(code)).status).toBe(200);
    });

    it('answers invalid_grant for a bad, foreign, expired code, a wrong redirect_uri; unsupported_grant_type', async () => {
      expect((await exchange('nonsense')).body).toMatchObject({ error: 'invalid_grant' });
      const other = await userWithApp(t, 'carol@example.com', [REDIRECT]);
      const foreign = await exchange(await codeFor(), {}, basic(other.clientId, other.clientSecret));
      expect([foreign.status, (foreign.body as { error: string }).error]).toEqual([400, 'invalid_grant']);
      const expired = await codeFor();
      await t.db.query(
        `UPDATE oauth_authorization_code SET expires = now() - interval '1 second' WHERE NOT used`,
      );
      expect((await exchange(expired)).body).toMatchObject({ error: 'invalid_grant' });
      const redirect = await exchange(await codeFor(), { redirect_uri: 'https://client.example/cb' });
      expect([redirect.status, (redirect.body as { error: string }).error]).toEqual([400, 'invalid_grant']);
      const grant = await t
        .http()
        .post('/api/v1/oauth/token')
        .set('Authorization', basic())
        .type('form')
        .send({ grant_type: 'password', username: 'a', password: 'b' });
      expect([grant.status, (grant.body as { error: string }).error]).toEqual([
        400,
        'unsupported_grant_type',
      ]);
      const json = await t
        .http()
        .post('/api/v1/oauth/token')
        .set('Authorization', basic())
        .send({ grant_type: 'authorization_code' });
      expect([json.status, (json.body as { error: string }).error]).toEqual([400, 'invalid_request']);
    });

    it('answers invalid_grant to a second use of a code and revokes the tokens issued with it', async () => {
      const code = await codeFor();
      const first = await exchange(code);
      expect(first.status).toBe(200);
      const { access_token: access, refresh_token: refreshToken } = first.body as Record<string, string>;
      expect((await api(access, '/api/v1/me')).status).toBe(200);
      const second = await exchange(code);
      expect([second.status, second.body]).toEqual([
        400,
        expect.objectContaining({ error: 'invalid_grant' }),
      ]);
      expect((await api(access, '/api/v1/me')).status).toBe(401);
      expect((await refresh(refreshToken)).body).toMatchObject({ error: 'invalid_grant' });
    });

    it('never stores token answers for idempotency replay', async () => {
      const code = await codeFor();
      const send = () => exchange(code).set('X-Idempotency-Key', 'oauth-key-1');
      expect((await send()).status).toBe(200);
      const again = await send();
      expect([again.status, (again.body as { error: string }).error]).toEqual([400, 'invalid_grant']);
      expect(await t.db.query('SELECT 1 FROM idempotency_record')).toHaveLength(0);
    });

    it('gives one winner to parallel exchanges of one code', async () => {
      const code = await codeFor();
      const answers = await Promise.all([1, 2, 3, 4].map(() => exchange(code)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400]);
    });

    it('checks PKCE: S256 verifier required and must match', async () => {
      const pkce = await oauthClient<{ verifier: string; challenge: string }>({ op: 'pkce' });
      const withPkce = { code_challenge: pkce.challenge, code_challenge_method: 'S256' };
      const missing = await exchange(await codeFor(['orga'], withPkce));
      expect([missing.status, (missing.body as { error: string }).error]).toEqual([400, 'invalid_grant']);
      const wrong = await exchange(await codeFor(['orga'], withPkce), { code_verifier: 'b'.repeat(43) });
      expect([wrong.status, (wrong.body as { error: string }).error]).toEqual([400, 'invalid_grant']);
      const short = await exchange(await codeFor(['orga'], withPkce), { code_verifier: 'short' });
      expect([short.status, (short.body as { error: string }).error]).toEqual([400, 'invalid_grant']);
      const ok = await exchange(await codeFor(['orga'], withPkce), { code_verifier: pkce.verifier });
      expect(ok.status).toBe(200);
    });
  });

  describe('with oauth4webapi', () => {
    it('exchanges with PKCE, refreshes and revokes', async () => {
      const base = `http://127.0.0.1:${await listen()}`;
      const pkce = await oauthClient<{ verifier: string; challenge: string; state: string }>({ op: 'pkce' });
      const agent = agentOf(t);
      await login(agent, EMAIL, 'password123');
      const res = await consent(
        agent,
        params({ state: pkce.state, code_challenge: pkce.challenge, code_challenge_method: 'S256' }),
        ['orga'],
      );
      const common = { base, clientId: app.clientId, clientSecret: app.clientSecret };
      const tokens = await oauthClient<Record<string, string | number>>({
        op: 'exchange',
        ...common,
        callback: res.headers.location,
        redirectUri: REDIRECT,
        verifier: pkce.verifier,
        state: pkce.state,
      });
      expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 86400, scope: 'read write' });
      expect((await api(String(tokens.access_token), '/api/v1/organizers/orga/')).status).toBe(200);
      const renewed = await oauthClient<Record<string, string>>({
        op: 'refresh',
        ...common,
        refreshToken: tokens.refresh_token,
      });
      expect(renewed.access_token).not.toBe(tokens.access_token);
      expect((await api(String(tokens.access_token), '/api/v1/organizers/orga/')).status).toBe(401);
      expect((await api(renewed.access_token, '/api/v1/organizers/orga/')).status).toBe(200);
      const reused = await oauthClient<{ error: string }>({
        op: 'refresh',
        ...common,
        refreshToken: tokens.refresh_token,
      });
      expect(reused.error).toBe('invalid_grant');
      expect(await oauthClient({ op: 'revoke', ...common, token: renewed.refresh_token })).toEqual({
        revoked: true,
      });
      expect((await api(renewed.access_token, '/api/v1/organizers/orga/')).status).toBe(401);
    });
  });

  describe('refresh and revoke', () => {
    it('refresh: new pair, old access token invalid at once, used refresh token refused; scope may narrow', async () => {
      const first = (await exchange(await codeFor())).body as Record<string, string>;
      const second = await refresh(first.refresh_token);
      expect(second.status).toBe(200);
      expect(second.headers['cache-control']).toBe('no-store');
      const body = second.body as Record<string, string>;
      expect(body.refresh_token).not.toBe(first.refresh_token);
      expect((await api(first.access_token, '/api/v1/me')).status).toBe(401);
      expect((await api(body.access_token, '/api/v1/me')).status).toBe(200);
      expect((await refresh(first.refresh_token)).body).toMatchObject({ error: 'invalid_grant' });
      const other = await userWithApp(t, 'dave@example.com', [REDIRECT]);
      expect(
        (await refresh(body.refresh_token, basic(other.clientId, other.clientSecret))).body,
      ).toMatchObject({ error: 'invalid_grant' });
      const narrow = await t
        .http()
        .post('/api/v1/oauth/token')
        .set('Authorization', basic())
        .type('form')
        .send({ grant_type: 'refresh_token', refresh_token: body.refresh_token, scope: 'read' });
      expect([narrow.status, (narrow.body as { scope: string }).scope]).toEqual([200, 'read']);
    });

    const revoke = (token: string, authorization = basic()) =>
      t
        .http()
        .post('/api/v1/oauth/revoke_token')
        .set('Authorization', authorization)
        .type('form')
        .send({ token });

    it('revoking an access token leaves the refresh token usable', async () => {
      const pair = (await exchange(await codeFor())).body as Record<string, string>;
      const res = await revoke(pair.access_token);
      expect([res.status, res.text]).toEqual([200, '']);
      expect((await api(pair.access_token, '/api/v1/me')).status).toBe(401);
      expect((await refresh(pair.refresh_token)).status).toBe(200);
    });

    it('revoking a refresh token revokes its access token; GET with the query string works too', async () => {
      const pair = (await exchange(await codeFor())).body as Record<string, string>;
      const res = await t
        .http()
        .get(`/api/v1/oauth/revoke_token?token=${pair.refresh_token}`)
        .set('Authorization', basic());
      expect(res.status).toBe(200);
      expect((await api(pair.access_token, '/api/v1/me')).status).toBe(401);
      expect((await refresh(pair.refresh_token)).body).toMatchObject({ error: 'invalid_grant' });
    });

    it('a token of another client: 200 and nothing revoked; bad client 401; no token 400', async () => {
      const pair = (await exchange(await codeFor())).body as Record<string, string>;
      const other = await userWithApp(t, 'erin@example.com', [REDIRECT]);
      expect((await revoke(pair.access_token, basic(other.clientId, other.clientSecret))).status).toBe(200);
      expect((await api(pair.access_token, '/api/v1/me')).status).toBe(200);
      const bad = await revoke(pair.access_token, basic(app.clientId, 'nope'));
      expect([bad.status, (bad.body as { error: string }).error]).toEqual([401, 'invalid_client']);
      const none = await t
        .http()
        .post('/api/v1/oauth/revoke_token')
        .set('Authorization', basic())
        .type('form')
        .send({});
      expect([none.status, (none.body as { error: string }).error]).toEqual([400, 'invalid_request']);
    });

    it('revoking on the authorized/ page revokes every token of the application', async () => {
      const pair = (await exchange(await codeFor(['orga', 'orgb']))).body as Record<string, string>;
      const agent = agentOf(t);
      await login(agent, EMAIL, 'password123');
      const page = await agent.get('/api/v1/oauth/authorized/');
      expect(page.status).toBe(200);
      expect(page.text).toContain(`app of ${EMAIL}`);
      expect(page.text).toContain('orga, orgb');
      const res = await agent
        .post(`/api/v1/oauth/authorized/${app.applicationId}/revoke/`)
        .type('form')
        .send({ csrf_token: csrfOf(page.text) });
      expect(res.status).toBe(303);
      expect((await api(pair.access_token, '/api/v1/me')).status).toBe(401);
      expect((await refresh(pair.refresh_token)).body).toMatchObject({ error: 'invalid_grant' });
      expect((await agent.get('/api/v1/oauth/authorized/')).text).not.toContain(`app of ${EMAIL}`);
    });
  });

  describe('the API with an access token', () => {
    it('acts as the user on granted organizers only; lists show only those', async () => {
      const { access_token: token } = (await exchange(await codeFor(['orga']))).body as Record<
        string,
        string
      >;
      expect((await api(token, '/api/v1/organizers/orga/')).status).toBe(200);
      const other = await api(token, '/api/v1/organizers/orgb/');
      expect([other.status, other.body]).toEqual([
        403,
        { detail: 'You do not have permission to perform this action.' },
      ]);
      expect((await api(token, '/api/v1/organizers/orgc/')).status).toBe(403);
      const list = await api(token, '/api/v1/organizers/');
      expect((list.body as { results: { slug: string }[] }).results.map((o) => o.slug)).toEqual(['orga']);
      const me = await api(token, '/api/v1/me');
      expect(me.body).toMatchObject({
        email: EMAIL,
        fullname: EMAIL,
        locale: 'en',
        is_staff: false,
        timezone: 'UTC',
      });
    });

    it('needs read for GET, write for writes, profile or read for /me: else 403 naming the scope', async () => {
      const { access_token: readOnly } = (await exchange(await codeFor(['orga'], { scope: 'read' })))
        .body as Record<string, string>;
      const write = await t
        .http()
        .post('/api/v1/organizers/orga/events/')
        .set('Authorization', `Bearer ${readOnly}`)
        .send({});
      expect(write.status).toBe(403);
      expect((write.body as { detail: string }).detail).toMatch(/scope/);
      const { access_token: profile } = (await exchange(await codeFor(['orga'], { scope: 'profile' })))
        .body as Record<string, string>;
      expect((await api(profile, '/api/v1/me')).status).toBe(200);
      const denied = await api(profile, '/api/v1/organizers/orga/');
      expect([denied.status, (denied.body as { detail: string }).detail]).toEqual([
        403,
        expect.stringMatching(/scope/),
      ]);
      expect((await api(profile, '/api/v1/organizers/')).status).toBe(403);
      const { access_token: rw } = (await exchange(await codeFor(['orga']))).body as Record<string, string>;
      const created = await t
        .http()
        .post('/api/v1/organizers/orga/events/')
        .set('Authorization', `Bearer ${rw}`)
        .send({ name: { en: 'E' }, slug: 'oauth-ev', date_from: '2030-01-01T10:00:00Z', currency: 'EUR' });
      expect(created.status).toBe(201);
    });

    it("costs two statements more than a team token: the access token and the user's teams", async () => {
      const { access_token: token } = (await exchange(await codeFor(['orga']))).body as Record<
        string,
        string
      >;
      const path = '/api/v1/organizers/orga/';
      const team = await countStatements(() =>
        t.http().get(path).set('Authorization', `Token ${adminToken}`),
      );
      const user = await countStatements(() => api(token, path));
      expect(user.statements).toBe(team.statements + 2);
    });

    it('answers 401 to an expired or unknown token', async () => {
      const { access_token: token } = (await exchange(await codeFor(['orga']))).body as Record<
        string,
        string
      >;
      await t.db.query(
        `UPDATE oauth_token SET access_expires = now() - interval '1 second' WHERE access_token_hash = encode(sha256($1::bytea), 'hex')`,
        [token],
      );
      expect((await api(token, '/api/v1/me')).status).toBe(401);
      expect((await api('x'.repeat(64), '/api/v1/me')).status).toBe(401);
    });

    it('takes a removed team membership into account on the next request', async () => {
      const { access_token: token } = (await exchange(await codeFor(['orga']))).body as Record<
        string,
        string
      >;
      expect((await api(token, '/api/v1/organizers/orga/')).status).toBe(200);
      await t.db.query('DELETE FROM team_member WHERE team_id = $1 AND user_id = $2', [orgTeam, app.userId]);
      expect((await api(token, '/api/v1/organizers/orga/')).status).toBe(403);
      await t.db.query('INSERT INTO team_member (team_id, user_id) VALUES ($1, $2)', [orgTeam, app.userId]);
    });
  });

  describe('pruning (worker scheduler)', () => {
    it('deletes old codes, dead token pairs, expired sessions and old login failures; keeps live ones', async () => {
      const live = (await exchange(await codeFor())).body as Record<string, string>;
      const dead = (await exchange(await codeFor())).body as Record<string, string>;
      await t
        .http()
        .post('/api/v1/oauth/revoke_token')
        .set('Authorization', basic())
        .type('form')
        .send({ token: dead.refresh_token });
      await t.db.query(
        `UPDATE oauth_token SET access_expires = now() - interval '1 second' WHERE refresh_revoked`,
      );
      await t.db.query(`UPDATE oauth_authorization_code SET expires = now() - interval '2 days'`);
      await t.db.query(
        `INSERT INTO oauth_session (sid, sess, expire) VALUES ('old', '{}', now() - interval '1 hour')`,
      );
      await t.db.query(
        `INSERT INTO oauth_login_failure (email, created) VALUES ('x@example.com', now() - interval '1 day')`,
      );
      const pruned = await t.app.get(OAuthHousekeeping).prune();
      expect(pruned.codes).toBeGreaterThan(0);
      expect(pruned.tokens).toBeGreaterThan(0);
      expect([pruned.sessions, pruned.loginFailures]).toEqual([1, 1]);
      expect(await t.db.query('SELECT 1 FROM oauth_authorization_code')).toHaveLength(0);
      expect(await t.db.query('SELECT 1 FROM oauth_token WHERE refresh_revoked')).toHaveLength(0);
      expect((await api(live.access_token, '/api/v1/me')).status).toBe(200);
      expect((await refresh(live.refresh_token)).status).toBe(200);
    });
  });

  let port: number | undefined;
  async function listen(): Promise<number> {
    if (port === undefined) {
      await t.app.listen(0, '127.0.0.1');
      port = (t.app.getHttpServer().address() as { port: number }).port;
    }
    return port;
  }
});
