import { OAuthHousekeeping } from '../src/oauth/oauth-housekeeping';
import { agentOf, consent, csrfOf, login, oauthClient, userWithApp } from './oauth-helpers';
import { EMAIL, oauthFixture, REDIRECT } from './oauth-fixture';
import { countStatements } from './sql-count';

/**
 * OAuth 2.0 provider (spec "Authentication" 4-6; README "OAuth 2.0 applications"), second part: the token and
 * revoke endpoints (every grant and error, code reuse, PKCE, refresh, revocation), access tokens on the API
 * (organizer restriction, scopes, expiry, membership changes) and pruning. The code exchange with PKCE, the
 * refresh and the revocation also run through the third-party client `oauth4webapi` (test/oauth-client.mjs).
 */
describe('OAuth tokens', () => {
  const f = oauthFixture();

  describe('token endpoint', () => {
    it('exchanges a code (Basic auth) for tokens: expires_in 86400, Bearer, read write, no-store', async () => {
      const res = await f.exchange(await f.codeFor());
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
      const stored: unknown[] = await f.t.db.query('SELECT 1 FROM oauth_token WHERE access_token_hash = $1', [
        body.access_token,
      ]);
      expect(stored).toHaveLength(0);
    });

    it('accepts client_id and client_secret in the form body', async () => {
      const res = await f.t
        .http()
        .post('/api/v1/oauth/token')
        .type('form')
        .send({
          grant_type: 'authorization_code',
          code: await f.codeFor(),
          redirect_uri: REDIRECT,
          client_id: f.app.clientId,
          client_secret: f.app.clientSecret,
        });
      expect(res.status).toBe(200);
    });

    it('answers 401 invalid_client for bad or missing client credentials', async () => {
      const code = await f.codeFor();
      expect((await f.exchange(code, {}, f.basic(f.app.clientId, 'wrong'))).status).toBe(401);
      const wrong = await f.exchange(code, {}, f.basic(f.app.clientId, 'wrong'));
      expect(wrong.body).toMatchObject({ error: 'invalid_client' });
      const none = await f.t
        .http()
        .post('/api/v1/oauth/token')
        .type('form')
        .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
      expect([none.status, (none.body as { error: string }).error]).toEqual([401, 'invalid_client']);
      const idOnly = await f.t
        .http()
        .post('/api/v1/oauth/token')
        .type('form')
        .send({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          client_id: f.app.clientId,
          code_verifier: 'a'.repeat(43),
        });
      expect([idOnly.status, (idOnly.body as { error: string }).error]).toEqual([401, 'invalid_client']);
      // The code survived the refused attempts.
      expect((await f.exchange(code)).status).toBe(200);
    });

    it('answers invalid_grant for a bad, foreign, expired code, a wrong redirect_uri; unsupported_grant_type', async () => {
      expect((await f.exchange('nonsense')).body).toMatchObject({ error: 'invalid_grant' });
      const other = await userWithApp(f.t, 'carol@example.com', [REDIRECT]);
      const foreign = await f.exchange(await f.codeFor(), {}, f.basic(other.clientId, other.clientSecret));
      expect([foreign.status, (foreign.body as { error: string }).error]).toEqual([400, 'invalid_grant']);
      const expired = await f.codeFor();
      await f.t.db.query(
        `UPDATE oauth_authorization_code SET expires = now() - interval '1 second' WHERE NOT used`,
      );
      expect((await f.exchange(expired)).body).toMatchObject({ error: 'invalid_grant' });
      const redirect = await f.exchange(await f.codeFor(), { redirect_uri: 'https://client.example/cb' });
      expect([redirect.status, (redirect.body as { error: string }).error]).toEqual([400, 'invalid_grant']);
      const grant = await f.t
        .http()
        .post('/api/v1/oauth/token')
        .set('Authorization', f.basic())
        .type('form')
        .send({ grant_type: 'password', username: 'a', password: 'b' });
      expect([grant.status, (grant.body as { error: string }).error]).toEqual([
        400,
        'unsupported_grant_type',
      ]);
      const json = await f.t
        .http()
        .post('/api/v1/oauth/token')
        .set('Authorization', f.basic())
        .send({ grant_type: 'authorization_code' });
      expect([json.status, (json.body as { error: string }).error]).toEqual([400, 'invalid_request']);
    });

    it('answers invalid_grant to a second use of a code and revokes the tokens issued with it', async () => {
      const code = await f.codeFor();
      const first = await f.exchange(code);
      expect(first.status).toBe(200);
      const { access_token: access, refresh_token: refreshToken } = first.body as Record<string, string>;
      expect((await f.api(access, '/api/v1/me')).status).toBe(200);
      const second = await f.exchange(code);
      expect([second.status, second.body]).toEqual([
        400,
        expect.objectContaining({ error: 'invalid_grant' }),
      ]);
      expect((await f.api(access, '/api/v1/me')).status).toBe(401);
      expect((await f.refresh(refreshToken)).body).toMatchObject({ error: 'invalid_grant' });
    });

    it('never stores token answers for idempotency replay', async () => {
      const code = await f.codeFor();
      const send = () => f.exchange(code).set('X-Idempotency-Key', 'oauth-key-1');
      expect((await send()).status).toBe(200);
      const again = await send();
      expect([again.status, (again.body as { error: string }).error]).toEqual([400, 'invalid_grant']);
      expect(await f.t.db.query('SELECT 1 FROM idempotency_record')).toHaveLength(0);
    });

    it('gives one winner to parallel exchanges of one code', async () => {
      const code = await f.codeFor();
      const answers = await Promise.all([1, 2, 3, 4].map(() => f.exchange(code)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400]);
    });

    it('checks PKCE: S256 verifier required and must match', async () => {
      const pkce = await oauthClient<{ verifier: string; challenge: string }>({ op: 'pkce' });
      const withPkce = { code_challenge: pkce.challenge, code_challenge_method: 'S256' };
      const missing = await f.exchange(await f.codeFor(['orga'], withPkce));
      expect([missing.status, (missing.body as { error: string }).error]).toEqual([400, 'invalid_grant']);
      const wrong = await f.exchange(await f.codeFor(['orga'], withPkce), { code_verifier: 'b'.repeat(43) });
      expect([wrong.status, (wrong.body as { error: string }).error]).toEqual([400, 'invalid_grant']);
      const short = await f.exchange(await f.codeFor(['orga'], withPkce), { code_verifier: 'short' });
      expect([short.status, (short.body as { error: string }).error]).toEqual([400, 'invalid_grant']);
      const ok = await f.exchange(await f.codeFor(['orga'], withPkce), { code_verifier: pkce.verifier });
      expect(ok.status).toBe(200);
    });
  });

  describe('with oauth4webapi', () => {
    it('exchanges with PKCE, refreshes and revokes', async () => {
      const base = `http://127.0.0.1:${await f.listen()}`;
      const pkce = await oauthClient<{ verifier: string; challenge: string; state: string }>({ op: 'pkce' });
      const agent = agentOf(f.t);
      await login(agent, EMAIL, 'password123');
      const res = await consent(
        agent,
        f.params({ state: pkce.state, code_challenge: pkce.challenge, code_challenge_method: 'S256' }),
        ['orga'],
      );
      const common = { base, clientId: f.app.clientId, clientSecret: f.app.clientSecret };
      const tokens = await oauthClient<Record<string, string | number>>({
        op: 'exchange',
        ...common,
        callback: res.headers.location,
        redirectUri: REDIRECT,
        verifier: pkce.verifier,
        state: pkce.state,
      });
      expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 86400, scope: 'read write' });
      expect((await f.api(String(tokens.access_token), '/api/v1/organizers/orga/')).status).toBe(200);
      const renewed = await oauthClient<Record<string, string>>({
        op: 'refresh',
        ...common,
        refreshToken: tokens.refresh_token,
      });
      expect(renewed.access_token).not.toBe(tokens.access_token);
      expect((await f.api(String(tokens.access_token), '/api/v1/organizers/orga/')).status).toBe(401);
      expect((await f.api(renewed.access_token, '/api/v1/organizers/orga/')).status).toBe(200);
      const reused = await oauthClient<{ error: string }>({
        op: 'refresh',
        ...common,
        refreshToken: tokens.refresh_token,
      });
      expect(reused.error).toBe('invalid_grant');
      expect(await oauthClient({ op: 'revoke', ...common, token: renewed.refresh_token })).toEqual({
        revoked: true,
      });
      expect((await f.api(renewed.access_token, '/api/v1/organizers/orga/')).status).toBe(401);
    });
  });

  describe('refresh and revoke', () => {
    it('refresh: new pair, old access token invalid at once, used refresh token refused; scope may narrow', async () => {
      const first = (await f.exchange(await f.codeFor())).body as Record<string, string>;
      const second = await f.refresh(first.refresh_token);
      expect(second.status).toBe(200);
      expect(second.headers['cache-control']).toBe('no-store');
      const body = second.body as Record<string, string>;
      expect(body.refresh_token).not.toBe(first.refresh_token);
      expect((await f.api(first.access_token, '/api/v1/me')).status).toBe(401);
      expect((await f.api(body.access_token, '/api/v1/me')).status).toBe(200);
      const other = await userWithApp(f.t, 'dave@example.com', [REDIRECT]);
      expect(
        (await f.refresh(body.refresh_token, f.basic(other.clientId, other.clientSecret))).body,
      ).toMatchObject({ error: 'invalid_grant' });
      const narrow = await f.t
        .http()
        .post('/api/v1/oauth/token')
        .set('Authorization', f.basic())
        .type('form')
        .send({ grant_type: 'refresh_token', refresh_token: body.refresh_token, scope: 'read' });
      expect([narrow.status, (narrow.body as { scope: string }).scope]).toEqual([200, 'read']);
      // Reusing the used refresh token is refused, and revokes its whole family (oauth-hardening.e2e-spec.ts).
      expect((await f.refresh(first.refresh_token)).body).toMatchObject({ error: 'invalid_grant' });
      const narrowed = narrow.body as Record<string, string>;
      expect((await f.api(narrowed.access_token, '/api/v1/me')).status).toBe(401);
    });

    const revoke = (token: string, authorization = f.basic()) =>
      f.t
        .http()
        .post('/api/v1/oauth/revoke_token')
        .set('Authorization', authorization)
        .type('form')
        .send({ token });

    it('revoking an access token leaves the refresh token usable', async () => {
      const pair = (await f.exchange(await f.codeFor())).body as Record<string, string>;
      const res = await revoke(pair.access_token);
      expect([res.status, res.text]).toEqual([200, '']);
      expect((await f.api(pair.access_token, '/api/v1/me')).status).toBe(401);
      expect((await f.refresh(pair.refresh_token)).status).toBe(200);
    });

    it('revoking a refresh token revokes its access token; GET with the query string works too', async () => {
      const pair = (await f.exchange(await f.codeFor())).body as Record<string, string>;
      const res = await f.t
        .http()
        .get(`/api/v1/oauth/revoke_token?token=${pair.refresh_token}`)
        .set('Authorization', f.basic());
      expect(res.status).toBe(200);
      expect((await f.api(pair.access_token, '/api/v1/me')).status).toBe(401);
      expect((await f.refresh(pair.refresh_token)).body).toMatchObject({ error: 'invalid_grant' });
    });

    it('a token of another client: 200 and nothing revoked; bad client 401; no token 400', async () => {
      const pair = (await f.exchange(await f.codeFor())).body as Record<string, string>;
      const other = await userWithApp(f.t, 'erin@example.com', [REDIRECT]);
      expect((await revoke(pair.access_token, f.basic(other.clientId, other.clientSecret))).status).toBe(200);
      expect((await f.api(pair.access_token, '/api/v1/me')).status).toBe(200);
      const bad = await revoke(pair.access_token, f.basic(f.app.clientId, 'nope'));
      expect([bad.status, (bad.body as { error: string }).error]).toEqual([401, 'invalid_client']);
      const none = await f.t
        .http()
        .post('/api/v1/oauth/revoke_token')
        .set('Authorization', f.basic())
        .type('form')
        .send({});
      expect([none.status, (none.body as { error: string }).error]).toEqual([400, 'invalid_request']);
    });

    it('revoking on the authorized/ page revokes every token of the application', async () => {
      const pair = (await f.exchange(await f.codeFor(['orga', 'orgb']))).body as Record<string, string>;
      const agent = agentOf(f.t);
      await login(agent, EMAIL, 'password123');
      const page = await agent.get('/api/v1/oauth/authorized/');
      expect(page.status).toBe(200);
      expect(page.text).toContain(`app of ${EMAIL}`);
      expect(page.text).toContain('orga, orgb');
      const res = await agent
        .post(`/api/v1/oauth/authorized/${f.app.applicationId}/revoke/`)
        .type('form')
        .send({ csrf_token: csrfOf(page.text) });
      expect(res.status).toBe(303);
      expect((await f.api(pair.access_token, '/api/v1/me')).status).toBe(401);
      expect((await f.refresh(pair.refresh_token)).body).toMatchObject({ error: 'invalid_grant' });
      expect((await agent.get('/api/v1/oauth/authorized/')).text).not.toContain(`app of ${EMAIL}`);
    });
  });

  describe('the API with an access token', () => {
    it('acts as the user on granted organizers only; lists show only those', async () => {
      const { access_token: token } = (await f.exchange(await f.codeFor(['orga']))).body as Record<
        string,
        string
      >;
      expect((await f.api(token, '/api/v1/organizers/orga/')).status).toBe(200);
      const other = await f.api(token, '/api/v1/organizers/orgb/');
      expect([other.status, other.body]).toEqual([
        403,
        { detail: 'You do not have permission to perform this action.' },
      ]);
      expect((await f.api(token, '/api/v1/organizers/orgc/')).status).toBe(403);
      const list = await f.api(token, '/api/v1/organizers/');
      expect((list.body as { results: { slug: string }[] }).results.map((o) => o.slug)).toEqual(['orga']);
      const me = await f.api(token, '/api/v1/me');
      expect(me.body).toMatchObject({
        email: EMAIL,
        fullname: EMAIL,
        locale: 'en',
        is_staff: false,
        timezone: 'UTC',
      });
    });

    it('needs read for GET, write for writes, profile or read for /me: else 403 naming the scope', async () => {
      const { access_token: readOnly } = (await f.exchange(await f.codeFor(['orga'], { scope: 'read' })))
        .body as Record<string, string>;
      const write = await f.t
        .http()
        .post('/api/v1/organizers/orga/events/')
        .set('Authorization', `Bearer ${readOnly}`)
        .send({});
      expect(write.status).toBe(403);
      expect((write.body as { detail: string }).detail).toMatch(/scope/);
      const { access_token: profile } = (await f.exchange(await f.codeFor(['orga'], { scope: 'profile' })))
        .body as Record<string, string>;
      expect((await f.api(profile, '/api/v1/me')).status).toBe(200);
      const denied = await f.api(profile, '/api/v1/organizers/orga/');
      expect([denied.status, (denied.body as { detail: string }).detail]).toEqual([
        403,
        expect.stringMatching(/scope/),
      ]);
      expect((await f.api(profile, '/api/v1/organizers/')).status).toBe(403);
      const { access_token: rw } = (await f.exchange(await f.codeFor(['orga']))).body as Record<
        string,
        string
      >;
      const created = await f.t
        .http()
        .post('/api/v1/organizers/orga/events/')
        .set('Authorization', `Bearer ${rw}`)
        .send({ name: { en: 'E' }, slug: 'oauth-ev', date_from: '2030-01-01T10:00:00Z', currency: 'EUR' });
      expect(created.status).toBe(201);
    });

    it("costs two statements more than a team token: the access token and the user's teams", async () => {
      const { access_token: token } = (await f.exchange(await f.codeFor(['orga']))).body as Record<
        string,
        string
      >;
      const path = '/api/v1/organizers/orga/';
      const team = await countStatements(() =>
        f.t.http().get(path).set('Authorization', `Token ${f.adminToken}`),
      );
      const user = await countStatements(() => f.api(token, path));
      expect(user.statements).toBe(team.statements + 2);
    });

    it('answers 401 to an expired or unknown token', async () => {
      const { access_token: token } = (await f.exchange(await f.codeFor(['orga']))).body as Record<
        string,
        string
      >;
      await f.t.db.query(
        `UPDATE oauth_token SET access_expires = now() - interval '1 second' WHERE access_token_hash = encode(sha256($1::bytea), 'hex')`,
        [token],
      );
      expect((await f.api(token, '/api/v1/me')).status).toBe(401);
      expect((await f.api('x'.repeat(64), '/api/v1/me')).status).toBe(401);
    });

    it('answers 401 once the user is deactivated, and 200 again once reactivated', async () => {
      const { access_token: token } = (await f.exchange(await f.codeFor(['orga']))).body as Record<
        string,
        string
      >;
      expect((await f.api(token, '/api/v1/me')).status).toBe(200);
      await f.t.db.query('UPDATE user_account SET is_active = false WHERE id = $1', [f.app.userId]);
      try {
        const res = await f.api(token, '/api/v1/me');
        expect([res.status, res.body]).toEqual([401, { detail: 'Token expired or revoked.' }]);
      } finally {
        await f.t.db.query('UPDATE user_account SET is_active = true WHERE id = $1', [f.app.userId]);
      }
      expect((await f.api(token, '/api/v1/me')).status).toBe(200);
    });

    it('takes a removed team membership into account on the next request', async () => {
      const { access_token: token } = (await f.exchange(await f.codeFor(['orga']))).body as Record<
        string,
        string
      >;
      expect((await f.api(token, '/api/v1/organizers/orga/')).status).toBe(200);
      await f.t.db.query('DELETE FROM team_member WHERE team_id = $1 AND user_id = $2', [
        f.orgTeam,
        f.app.userId,
      ]);
      expect((await f.api(token, '/api/v1/organizers/orga/')).status).toBe(403);
      await f.t.db.query('INSERT INTO team_member (team_id, user_id) VALUES ($1, $2)', [
        f.orgTeam,
        f.app.userId,
      ]);
    });
  });

  describe('pruning (worker scheduler)', () => {
    it('deletes old codes, dead token pairs and expired sessions; keeps live ones', async () => {
      const live = (await f.exchange(await f.codeFor())).body as Record<string, string>;
      const dead = (await f.exchange(await f.codeFor())).body as Record<string, string>;
      await f.t
        .http()
        .post('/api/v1/oauth/revoke_token')
        .set('Authorization', f.basic())
        .type('form')
        .send({ token: dead.refresh_token });
      await f.t.db.query(
        `UPDATE oauth_token SET access_expires = now() - interval '1 second' WHERE refresh_revoked`,
      );
      await f.t.db.query(`UPDATE oauth_authorization_code SET expires = now() - interval '2 days'`);
      await f.t.db.query(
        `INSERT INTO oauth_session (sid, sess, expire) VALUES ('old', '{}', now() - interval '1 hour')`,
      );
      const pruned = await f.t.app.get(OAuthHousekeeping).prune();
      expect(pruned.codes).toBeGreaterThan(0);
      expect(pruned.tokens).toBeGreaterThan(0);
      expect(pruned.sessions).toBe(1);
      expect(await f.t.db.query('SELECT 1 FROM oauth_authorization_code')).toHaveLength(0);
      expect(await f.t.db.query('SELECT 1 FROM oauth_token WHERE refresh_revoked')).toHaveLength(0);
      expect((await f.api(live.access_token, '/api/v1/me')).status).toBe(200);
      expect((await f.refresh(live.refresh_token)).status).toBe(200);
    });
  });
});
