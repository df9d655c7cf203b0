import { startTestApp, type TestApp } from './harness';
import { agentOf, csrfOf, userWithApp } from './oauth-helpers';

const HOME = '/api/v1/oauth/authorized/';
const LOGIN = '/api/v1/oauth/login';

/** The `next` value the login page carries in its form. */
function nextOf(html: string): string {
  const m = /name="next" value="([^"]*)"/.exec(html);
  if (!m) throw new Error('no next input');
  return m[1].replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}

/**
 * Login page hardening (issue 22 items 4 and 6): `next` never leaves this site, and the login throttle counts
 * every attempt in Redis before the password is checked.
 */
describe('login page hardening', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await userWithApp(t, 'next@example.com');
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
      const next = '/api/v1/oauth/authorize?response_type=code&client_id=abc&redirect_uri=https%3A%2F%2Fx.example%2Fcb&scope=read+write';
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
});
