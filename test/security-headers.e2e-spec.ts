import { auth, bootstrapOrganizer } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Security headers with helmet (README "Configuration"): no sniffing, no framing, no referrer, on every answer.
 */
describe('Security headers', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'sec'));
  });
  afterAll(() => t?.close());

  const expectHeaders = (headers: Record<string, string>) => {
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(headers['x-powered-by']).toBeUndefined();
  };

  it('on a successful answer, an error answer, a 404 and a refused body', async () => {
    const ok = await t.http().get('/api/v1/organizers/sec/').set('Authorization', auth(token));
    expect(ok.status).toBe(200);
    expectHeaders(ok.headers);
    const unauthenticated = await t.http().get('/api/v1/organizers/sec/');
    expect(unauthenticated.status).toBe(401);
    expectHeaders(unauthenticated.headers);
    const missing = await t.http().get('/api/v1/nothing-here/');
    expect(missing.status).toBe(404);
    expectHeaders(missing.headers);
    const badJson = await t
      .http()
      .post('/api/v1/organizers/sec/events/')
      .set('Authorization', auth(token))
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expect(badJson.status).toBe(400);
    expectHeaders(badJson.headers);
  });
});
