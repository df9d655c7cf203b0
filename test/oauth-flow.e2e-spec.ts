import { runCli } from './cli-harness';
import { agentOf, consent, csrfOf, login, query, redirectParams } from './oauth-helpers';
import { EMAIL, oauthFixture, REDIRECT } from './oauth-fixture';

/**
 * OAuth 2.0 provider (spec "Authentication"; README "OAuth 2.0 applications"), first part: applications (CLI and
 * page) and the authorization step (login and consent forms, their errors, the login throttle). Tokens and their
 * use: oauth-tokens.e2e-spec.ts.
 */
describe('OAuth applications and authorization step', () => {
  // Behind one reverse proxy on the loopback (TRUST_PROXY): its X-Forwarded-Proto marks https requests.
  const f = oauthFixture({ trustProxy: 'loopback' });

  describe('applications', () => {
    it('CLI create-oauth-application prints only client_id and client_secret', async () => {
      const run = await runCli(f.t, [
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
      const rows: { redirect_uris: string[]; client_secret_hash: string }[] = await f.t.db.query(
        'SELECT redirect_uris, client_secret_hash FROM oauth_application WHERE client_id = $1',
        [out.client_id],
      );
      expect(rows[0].redirect_uris).toEqual(['https://a.example/cb', 'http://localhost:8080/cb']);
      expect(rows[0].client_secret_hash).not.toContain(out.client_secret);
      const bad = await runCli(f.t, [
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
      const agent = agentOf(f.t);
      const anon = await agentOf(f.t).get('/api/v1/oauth/applications/');
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
      const [{ id }] = await f.t.db.query<{ id: number }[]>(
        'SELECT id FROM oauth_application WHERE client_id = $1',
        [clientId],
      );
      const revokeWith = (s: string) =>
        f.t
          .http()
          .post('/api/v1/oauth/revoke_token')
          .set('Authorization', f.basic(clientId, s))
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
        const res = await f.t.http().get(`/api/v1/oauth/authorize?${query(f.params(bad))}`);
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
        const res = await f.t.http().get(`/api/v1/oauth/authorize?${query(f.params(extra))}`);
        expect(res.status).toBe(302);
        const back = redirectParams(res.headers.location);
        expect(res.headers.location.startsWith(`${REDIRECT}?`)).toBe(true);
        expect([back.get('error'), back.get('state')]).toEqual([error, 'st4te']);
      }
    });

    it('sends a visitor who is not logged in to the login page with next', async () => {
      const url = `/api/v1/oauth/authorize?${query(f.params())}`;
      const res = await f.t.http().get(url);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(`/api/v1/oauth/login?next=${encodeURIComponent(url)}`);
    });

    it('logs in with a session cookie (HttpOnly, SameSite=Lax) and redirects only to paths of this service', async () => {
      const agent = agentOf(f.t);
      const ok = await login(agent, EMAIL, 'password123', '/api/v1/oauth/authorize?x=1');
      expect(ok.status).toBe(303);
      expect(ok.headers.location).toBe('/api/v1/oauth/authorize?x=1');
      const cookie = (ok.headers['set-cookie'] as unknown as string[]).find((c) =>
        c.startsWith('oauth_session='),
      )!;
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      const evil = await login(agentOf(f.t), EMAIL, 'password123', 'https://evil.example/');
      expect(evil.headers.location).toBe('/api/v1/oauth/authorized/');
      const evil2 = await login(agentOf(f.t), EMAIL, 'password123', '//evil.example/x');
      expect(evil2.headers.location).toBe('/api/v1/oauth/authorized/');
    });

    it('answers wrong credentials with the form and no session; 429 after 10 failures per account', async () => {
      await f.t.app
        .get(await import('../src/auth/users.service').then((m) => m.UsersService))
        .create('bob@example.com', 'password123', null);
      for (let i = 0; i < 10; i++) {
        const res = await login(agentOf(f.t), 'bob@example.com', 'wrong-password');
        expect(res.status).toBe(200);
        expect(res.text).toContain('Wrong e-mail address or password.');
        expect(res.text).toContain('name="password"');
        const cookies = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
        expect(cookies.some((c) => c.startsWith('oauth_session='))).toBe(false);
      }
      const blocked = await login(agentOf(f.t), 'bob@example.com', 'password123');
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // Other accounts are not affected.
      expect((await login(agentOf(f.t), EMAIL, 'password123')).status).toBe(303);
    });

    it('refuses a login POST without the CSRF token', async () => {
      const res = await agentOf(f.t)
        .post('/api/v1/oauth/login')
        .type('form')
        .send({ email: EMAIL, password: 'password123' });
      expect(res.status).toBe(403);
    });

    it('marks the cookies Secure behind an https proxy', async () => {
      const agent = agentOf(f.t);
      const page = await agent.get('/api/v1/oauth/login').set('X-Forwarded-Proto', 'https');
      const csrfCookie = (page.headers['set-cookie'] as unknown as string[]).find((c) =>
        c.startsWith('oauth_csrf='),
      );
      expect(csrfCookie).toMatch(/; Secure/);
      const res = await agent
        .post('/api/v1/oauth/login')
        .set('X-Forwarded-Proto', 'https')
        .set('Cookie', csrfCookie!.split(';')[0])
        .type('form')
        .send({ email: EMAIL, password: 'password123', csrf_token: csrfOf(page.text) });
      expect(res.status).toBe(303);
      const session = (res.headers['set-cookie'] as unknown as string[]).find((c) =>
        c.startsWith('oauth_session='),
      );
      expect(session).toMatch(/; Secure/);
      expect(session).toMatch(/; HttpOnly/);
      expect(session).toMatch(/; Path=\/api\/v1\/oauth/);
    });

    it('shows the consent form with one checkbox per reachable organizer, allow and deny', async () => {
      const agent = agentOf(f.t);
      await login(agent, EMAIL, 'password123');
      const page = await agent.get(`/api/v1/oauth/authorize?${query(f.params())}`);
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
        .send({ ...f.params(), allow: '1', csrf_token: csrfOf(page.text) });
      expect(none.status).toBe(200);
      expect(none.text).toContain('Choose at least one organizer.');
      const denied = await consent(agent, f.params(), ['orga'], 'deny');
      expect(denied.status).toBe(302);
      const back = redirectParams(denied.headers.location);
      expect([back.get('error'), back.get('state'), back.get('code')]).toEqual([
        'access_denied',
        'st4te',
        null,
      ]);
    });
  });
});
