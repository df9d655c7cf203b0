import { createHash, randomBytes } from 'crypto';
import { OAuthApplicationsService } from '../src/oauth/oauth-applications.service';
import { agentOf, csrfOf, login, query, redirectParams } from './oauth-helpers';
import { EMAIL, oauthFixture, REDIRECT } from './oauth-fixture';

type Pair = Record<string, string>;

/**
 * OAuth hardening (README "Security", "Logging in"): refresh token reuse revokes the whole token family (RFC 9700
 * §4.14.2), a refresh asking for a wider scope is refused without using anything up, PKCE for public clients, and
 * constant-time CSRF checks on the pages.
 */
describe('OAuth hardening', () => {
  const f = oauthFixture();

  /** Rows of the token family of `accessToken`'s authorization code: [id, access_revoked, refresh_revoked]. */
  const familyState = async (codeOf: string): Promise<boolean[][]> => {
    const rows: { access_revoked: boolean; refresh_revoked: boolean }[] = await f.t.db.query(
      `SELECT access_revoked, refresh_revoked FROM oauth_token
        WHERE authorization_code_id = (SELECT authorization_code_id FROM oauth_token WHERE access_token_hash = $1)
        ORDER BY id`,
      [createHash('sha256').update(codeOf).digest('hex')],
    );
    return rows.map((r) => [r.access_revoked, r.refresh_revoked]);
  };

  describe('refresh token reuse (RFC 9700 §4.14.2)', () => {
    it('revokes every access and refresh token of the family when a rotated refresh token comes back', async () => {
      const first = (await f.exchange(await f.codeFor())).body as Pair;
      const second = (await f.refresh(first.refresh_token)).body as Pair;
      const third = (await f.refresh(second.refresh_token)).body as Pair;
      expect((await f.api(third.access_token, '/api/v1/me')).status).toBe(200);
      // Another authorization of the same user and client: a different family.
      const unrelated = (await f.exchange(await f.codeFor())).body as Pair;

      const reuse = await f.refresh(first.refresh_token);
      expect(reuse.status).toBe(400);
      expect(reuse.body).toMatchObject({ error: 'invalid_grant' });

      expect((await f.api(third.access_token, '/api/v1/me')).status).toBe(401);
      const again = await f.refresh(third.refresh_token);
      expect([again.status, (again.body as Pair).error]).toEqual([400, 'invalid_grant']);
      expect(await familyState(first.access_token)).toEqual([
        [true, true],
        [true, true],
        [true, true],
      ]);
      expect((await f.api(unrelated.access_token, '/api/v1/me')).status).toBe(200);
      expect((await f.refresh(unrelated.refresh_token)).status).toBe(200);
    });

    it('treats the loser of two parallel refreshes with one token as a reuse too', async () => {
      const pair = (await f.exchange(await f.codeFor())).body as Pair;
      const answers = await Promise.all([1, 2, 3].map(() => f.refresh(pair.refresh_token)));
      expect(answers.filter((a) => a.status === 400)).not.toHaveLength(0);
      for (const a of answers.filter((x) => x.status === 200)) {
        expect((await f.api((a.body as Pair).access_token, '/api/v1/me')).status).toBe(401);
      }
      expect((await familyState(pair.access_token)).every(([a, r]) => a && r)).toBe(true);
    });
  });

  describe('refresh with a wider scope', () => {
    it('answers invalid_scope and revokes nothing', async () => {
      const pair = (await f.exchange(await f.codeFor(['orga'], { scope: 'read' }))).body as Pair;
      const wider = await f.t
        .http()
        .post('/api/v1/oauth/token')
        .set('Authorization', f.basic())
        .type('form')
        .send({ grant_type: 'refresh_token', refresh_token: pair.refresh_token, scope: 'read write' });
      expect(wider.status).toBe(400);
      expect(wider.body).toMatchObject({ error: 'invalid_scope' });
      expect(await familyState(pair.access_token)).toEqual([[false, false]]);
      expect((await f.api(pair.access_token, '/api/v1/me')).status).toBe(200);
      const same = await f.refresh(pair.refresh_token);
      expect([same.status, (same.body as Pair).scope]).toEqual([200, 'read']);
    });
  });

  describe('CSRF tokens of the pages', () => {
    afterEach(() => jest.restoreAllMocks());

    it('are compared in constant time (crypto.timingSafeEqual), and a wrong one is still refused', async () => {
      // The module object itself (what the compiled code calls through), not an import namespace.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const nodeCrypto = require('crypto') as typeof import('crypto');
      const safeEqual = jest.spyOn(nodeCrypto, 'timingSafeEqual');
      const agent = agentOf(f.t);
      const page = await agent.get('/api/v1/oauth/login');
      const token = csrfOf(page.text);
      const post = (csrf: string) =>
        agent
          .post('/api/v1/oauth/login')
          .type('form')
          .send({ email: EMAIL, password: 'password123', csrf_token: csrf });
      expect((await post(`${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`)).status).toBe(403);
      expect((await post('')).status).toBe(403);
      expect(safeEqual).toHaveBeenCalled();
      safeEqual.mockClear();
      expect((await post(token)).status).toBe(303);
      expect(safeEqual).toHaveBeenCalled();

      // A cookie and form pair made up by an attacker (same value, wrong HMAC) is refused.
      const forged = `${'0'.repeat(64)}.${'1'.repeat(64)}`;
      const res = await f.t
        .http()
        .post('/api/v1/oauth/login')
        .set('Cookie', `oauth_csrf=${forged}`)
        .type('form')
        .send({ email: EMAIL, password: 'password123', csrf_token: forged });
      expect(res.status).toBe(403);
    });
  });

  describe('PKCE for public clients', () => {
    let publicId: string;
    const pkce = () => {
      const verifier = randomBytes(32).toString('base64url');
      return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
    };
    const token = (form: Record<string, string>) =>
      f.t.http().post('/api/v1/oauth/token').type('form').send(form);

    beforeAll(async () => {
      const app = await f.t.app
        .get(OAuthApplicationsService)
        .register(f.app.userId, 'native app', [REDIRECT], false);
      expect(app.clientSecret).toBe('');
      publicId = app.clientId;
    });

    it('redirects an authorization request without code_challenge with error=invalid_request', async () => {
      const agent = agentOf(f.t);
      expect((await login(agent, EMAIL, 'password123')).status).toBe(303);
      const res = await agent.get(`/api/v1/oauth/authorize?${query(f.params({ client_id: publicId }))}`);
      expect(res.status).toBe(302);
      const back = redirectParams(res.headers.location);
      expect(back.get('error')).toBe('invalid_request');
      expect(back.get('state')).toBe('st4te');
      expect(back.get('code')).toBeNull();
      // A confidential client may still go without PKCE.
      expect((await agent.get(`/api/v1/oauth/authorize?${query(f.params())}`)).status).toBe(200);
    });

    it('exchanges a code only with its code_verifier (no secret), and refreshes with client_id alone', async () => {
      const { verifier, challenge } = pkce();
      const extra = { client_id: publicId, code_challenge: challenge, code_challenge_method: 'S256' };
      const code = await f.codeFor(['orga'], extra);
      const base = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: publicId };
      const without = await token(base);
      expect(without.status).toBe(401);
      expect(without.body).toMatchObject({ error: 'invalid_client' });
      const wrong = await token({ ...base, code_verifier: pkce().verifier });
      expect([wrong.status, (wrong.body as Pair).error]).toEqual([400, 'invalid_grant']);

      const fresh = await f.codeFor(['orga'], extra);
      const ok = await token({ ...base, code: fresh, code_verifier: verifier });
      expect(ok.status).toBe(200);
      const pair = ok.body as Pair;
      expect((await f.api(pair.access_token, '/api/v1/me')).status).toBe(200);
      const refreshed = await token({
        grant_type: 'refresh_token',
        refresh_token: pair.refresh_token,
        client_id: publicId,
      });
      expect(refreshed.status).toBe(200);

      // A confidential client still needs its secret to refresh.
      const confidential = (await f.exchange(await f.codeFor())).body as Pair;
      const noSecret = await token({
        grant_type: 'refresh_token',
        refresh_token: confidential.refresh_token,
        client_id: f.app.clientId,
      });
      expect([noSecret.status, (noSecret.body as Pair).error]).toEqual([401, 'invalid_client']);
      expect((await f.refresh(confidential.refresh_token)).status).toBe(200);
    });

    it("refuses a public client's code that has no challenge (stored before PKCE was required)", async () => {
      const { verifier } = pkce();
      const app = await f.t.db.query('SELECT id FROM oauth_application WHERE client_id = $1', [publicId]);
      const code = await f.t.app
        .get((await import('../src/oauth/oauth-tokens.service')).OAuthTokensService)
        .createCode({
          applicationId: (app as { id: number }[])[0].id,
          userId: f.app.userId,
          redirectUri: REDIRECT,
          scopes: ['read'],
          organizerIds: [],
          codeChallenge: null,
        });
      const res = await token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: publicId,
        code_verifier: verifier,
      });
      expect([res.status, (res.body as Pair).error]).toEqual([400, 'invalid_grant']);
    });
  });
});
