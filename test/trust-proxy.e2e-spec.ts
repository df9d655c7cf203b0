import { randomBytes } from 'crypto';
import { loadConfig } from '../src/config/app-config';
import { parseTrustProxy } from '../src/config/trust-proxy';
import { auth } from './factories';
import { startTestApp, type TestApp } from './harness';

const URL = '/api/v1/organizers/org/';

/** `n` requests with a wrong token, each from the given X-Forwarded-For; their statuses. */
async function failures(t: TestApp, forwardedFor: (i: number) => string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t
      .http()
      .get(URL)
      .set('Authorization', auth(`wrong-${i}`))
      .set('X-Forwarded-For', forwardedFor(i));
    statuses.push(res.status);
  }
  return statuses;
}

/**
 * README "Security", "Client addresses and proxies": the failed-authentication limit keys on the real client
 * address (`TRUST_PROXY`, default: no proxy trusted, so `X-Forwarded-For` cannot be forged to evade it) and is
 * counted in Redis, shared by replicas.
 */
describe('TRUST_PROXY and the failed-authentication limit', () => {
  it('parses the setting: false by default, a hop count, or a list of addresses/CIDRs; refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toBe('false');
    expect(parseTrustProxy(loadConfig({}).trustProxy)).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.7,::1,fd00::/8')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
    ]);
    expect(parseTrustProxy('loopback')).toEqual(['loopback']);
    for (const bad of ['true', 'yes', '10.0.0.0/33', 'evil.example', '1.2.3', '99']) {
      expect(parseTrustProxy(bad)).toBeNull();
    }
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      'Configuration error: TRUST_PROXY must be false, a hop count (1-10) or a comma-separated list of proxy IP addresses/CIDRs, got "true"',
    );
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1,10.0.0.2' }).trustProxy).toBe('10.0.0.1,10.0.0.2');
  });

  describe('default (no proxy trusted)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ authFailureLimit: 3, authFailureWindowS: 60 });
    });
    afterAll(() => t?.close());

    it('does not let a new X-Forwarded-For per request evade the limit', async () => {
      const statuses = await failures(t, (i) => `203.0.113.${i + 1}`, 6);
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
      const blocked = await t.http().get(URL).set('Authorization', auth('again'));
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(50);
      expect(blocked.body).toEqual({
        detail: `Request was throttled. Expected available in ${blocked.headers['retry-after']} seconds.`,
      });
    });
  });

  describe('default: forwarded headers of an untrusted peer', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t?.close());

    it('ignores X-Forwarded-Proto: the page cookies are not marked Secure over plain http', async () => {
      const page = await t.http().get('/api/v1/oauth/login').set('X-Forwarded-Proto', 'https');
      const cookie = (page.headers['set-cookie'] as unknown as string[]).find((c) =>
        c.startsWith('oauth_csrf='),
      );
      expect(cookie).toMatch(/^oauth_csrf=[^;]+;.*HttpOnly/i);
      expect(cookie).not.toMatch(/; Secure/);
    });
  });

  describe('TRUST_PROXY=1 (one reverse proxy)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ authFailureLimit: 3, authFailureWindowS: 60, trustProxy: '1' });
    });
    afterAll(() => t?.close());

    it('counts per forwarded client address (the last hop), not per proxy', async () => {
      expect(await failures(t, () => '198.51.100.7', 4)).toEqual([401, 401, 401, 429]);
      // Another client behind the same proxy is not blocked…
      expect(await failures(t, () => '198.51.100.8', 1)).toEqual([401]);
      // …and a forged first hop does not help the blocked one: the proxy appends the real address.
      expect(await failures(t, (i) => `10.9.9.${i}, 198.51.100.7`, 2)).toEqual([429, 429]);
    });
  });

  describe('two API instances on one Redis', () => {
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      const shared = {
        authFailureLimit: 4,
        authFailureWindowS: 60,
        queuePrefix: `test-shared-${randomBytes(4).toString('hex')}`,
      };
      a = await startTestApp(shared);
      b = await startTestApp(shared);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it('shares the count: failures on one instance block the address on the other', async () => {
      expect(await failures(a, () => '1.1.1.1', 2)).toEqual([401, 401]);
      expect(await failures(b, () => '1.1.1.1', 2)).toEqual([401, 401]);
      expect(await failures(a, () => '1.1.1.1', 1)).toEqual([429]);
      expect(await failures(b, () => '1.1.1.1', 1)).toEqual([429]);
    });
  });
});
