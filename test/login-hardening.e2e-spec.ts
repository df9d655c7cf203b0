import { randomBytes } from 'crypto';
import type TestAgent from 'supertest/lib/agent';
import { UsersService } from '../src/auth/users.service';
import { LOGIN_ADDRESS_LIMIT, LOGIN_FAILURE_LIMIT } from '../src/oauth/login-throttle';
import { startTestApp, type TestApp } from './harness';
import { agentOf, csrfOf, userWithApp } from './oauth-helpers';

const HOME = '/api/v1/oauth/authorized/';
const LOGIN = '/api/v1/oauth/login';

/** The `next` value the login page carries in its form. */
function nextOf(html: string): string {
  const m = /name="next" value="([^"]*)"/.exec(html);
  if (!m) throw new Error('no next input');
  return m[1]
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

/**
 * Login page hardening (README "Security", "Logging in"): `next` never leaves this site, and the login throttle
 * counts every attempt in Redis before the password is checked.
 */
describe('login page hardening', () => {
  let t: TestApp;

  beforeAll(async () => {
    // One trusted proxy, so each test can come from its own client address (X-Forwarded-For).
    t = await startTestApp({ trustProxy: '1' });
    await userWithApp(t, 'next@example.com');
    await userWithApp(t, 'known@example.com');
    await userWithApp(t, 'timing@example.com');
  });
  afterAll(() => t?.close());

  describe('next after login (item 4: open redirect)', () => {
    const EVIL = [
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/..//evil.example/x',
      '/%2F%2Fevil.example',
      '/%5Cevil.example',
      'https://evil.example',
      '/./\\/evil.example',
      '%2F%2Fevil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
      '/\n/evil.example',
      '/%2e%2e//evil.example/x',
      '/api/..//evil.example',
    ];

    it.each(EVIL)('sends %j to the default page (login form and redirect)', async (next) => {
      const agent = agentOf(t);
      const page = await agent.get(LOGIN).query({ next });
      expect(page.status).toBe(200);
      expect(nextOf(page.text)).toBe(HOME);
      const res = await agent
        .post(LOGIN)
        .type('form')
        .send({ email: 'next@example.com', password: 'password123', next, csrf_token: csrfOf(page.text) });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(HOME);
    });

    it('keeps a legitimate next (the authorization request) with its query', async () => {
      const next =
        '/api/v1/oauth/authorize?response_type=code&client_id=abc&redirect_uri=https%3A%2F%2Fx.example%2Fcb&scope=read+write';
      const agent = agentOf(t);
      const page = await agent.get(LOGIN).query({ next });
      expect(nextOf(page.text)).toBe(next);
      const res = await agent
        .post(LOGIN)
        .type('form')
        .send({ email: 'next@example.com', password: 'password123', next, csrf_token: csrfOf(page.text) });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(next);
      // The session is real: the account page answers without a redirect to the login page.
      expect((await agent.get(HOME)).status).toBe(200);
    });
  });

  describe('login throttle (item 6: counted before the password check)', () => {
    /** An agent with the login page's CSRF token, posting logins from `address`. */
    async function loginClient(app: TestApp, address: string) {
      const agent: TestAgent = agentOf(app);
      const page = await agent.get(LOGIN).set('X-Forwarded-For', address);
      const csrf = csrfOf(page.text);
      return (email: string, password: string) =>
        agent
          .post(LOGIN)
          .set('X-Forwarded-For', address)
          .type('form')
          .send({ email, password, next: HOME, csrf_token: csrf });
    }

    afterEach(() => jest.restoreAllMocks());

    it('lets at most the account limit of 40 parallel wrong passwords reach the password check; the rest 429', async () => {
      const verify = jest.spyOn(t.app.get(UsersService), 'verify');
      const post = await loginClient(t, '192.0.2.10');
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => post('known@example.com', `wrong-${i}`)),
      );
      const statuses = answers.map((r) => r.status);
      expect(verify.mock.calls.length).toBeLessThanOrEqual(LOGIN_FAILURE_LIMIT);
      expect(statuses.filter((s) => s === 200)).toHaveLength(verify.mock.calls.length);
      expect(statuses.filter((s) => s === 429)).toHaveLength(40 - verify.mock.calls.length);
      const blocked = answers.find((r) => r.status === 429)!;
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
      expect(blocked.text).toContain('Too many failed logins');
      // Afterwards even the right password is refused for this account (from another address too)…
      verify.mockClear();
      const other = await loginClient(t, '192.0.2.11');
      expect((await other('known@example.com', 'password123')).status).toBe(429);
      expect(verify).not.toHaveBeenCalled();
      // …while another account still logs in.
      expect((await other('next@example.com', 'password123')).status).toBe(303);
    });

    it('limits one client address over many accounts (unknown ones included)', async () => {
      const verify = jest.spyOn(t.app.get(UsersService), 'verify');
      const post = await loginClient(t, '192.0.2.20');
      const n = LOGIN_ADDRESS_LIMIT + 10;
      const answers = await Promise.all(
        Array.from({ length: n }, (_, i) => post(`nobody${i}@example.com`, 'whatever-password')),
      );
      expect(verify.mock.calls.length).toBeLessThanOrEqual(LOGIN_ADDRESS_LIMIT);
      expect(answers.filter((r) => r.status === 429)).toHaveLength(n - verify.mock.calls.length);
      // The address is blocked even for a right password; another address is not.
      expect((await post('next@example.com', 'password123')).status).toBe(429);
      expect((await (await loginClient(t, '192.0.2.21'))('next@example.com', 'password123')).status).toBe(
        303,
      );
    });

    it('takes as long for an unknown account as for a known one (bcrypt against a dummy hash)', async () => {
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 7; i++) {
        // A fresh address per attempt: only the account counters (7 < the limit) are touched.
        const post = await loginClient(t, `192.0.2.${100 + i}`);
        let start = process.hrtime.bigint();
        expect((await post('timing@example.com', `wrong-${i}`)).status).toBe(200);
        known.push(Number(process.hrtime.bigint() - start) / 1e6);
        start = process.hrtime.bigint();
        expect((await post(`ghost-${i}@example.com`, `wrong-${i}`)).status).toBe(200);
        unknown.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      expect(median(unknown)).toBeGreaterThanOrEqual(median(known) / 2);
    });
  });

  describe('login throttle across two API instances on one Redis', () => {
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      const shared = { trustProxy: '1', queuePrefix: `test-login-${randomBytes(4).toString('hex')}` };
      [a, b] = await Promise.all([startTestApp(shared), startTestApp(shared)]);
      // The same account on both (each test app has its own database; the counters are keyed by e-mail).
      await a.app.get(UsersService).create('shared@example.com', 'password123', null);
      await b.app.get(UsersService).create('shared@example.com', 'password123', null);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it('shares the account limit: 40 parallel wrong passwords spread over both reach the check at most 10 times', async () => {
      const verifyA = jest.spyOn(a.app.get(UsersService), 'verify');
      const verifyB = jest.spyOn(b.app.get(UsersService), 'verify');
      const posts = await Promise.all(
        [a, b].map(async (app, k) => {
          const agent = agentOf(app);
          const page = await agent.get(LOGIN).set('X-Forwarded-For', `198.51.100.${k}`);
          const csrf = csrfOf(page.text);
          return (i: number) =>
            agent
              .post(LOGIN)
              .set('X-Forwarded-For', `198.51.100.${k}`)
              .type('form')
              .send({ email: 'shared@example.com', password: `bad-${i}`, next: HOME, csrf_token: csrf });
        }),
      );
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => posts[i % 2](i)));
      const checked = verifyA.mock.calls.length + verifyB.mock.calls.length;
      expect(checked).toBeLessThanOrEqual(LOGIN_FAILURE_LIMIT);
      expect(answers.filter((r) => r.status === 429)).toHaveLength(40 - checked);
    });
  });
});
