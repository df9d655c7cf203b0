import { startTestApp, TestApp } from './harness';

/**
 * Health probes (README "Configuration"): `/api/v1/healthz` answers while the process lives, `/api/v1/readyz` only
 * while PostgreSQL and Redis answer, both without credentials.
 */
describe('Health probes', () => {
  let up: TestApp;
  let noRedis: TestApp;

  beforeAll(async () => {
    up = await startTestApp();
    // Nothing listens on port 1: this app's Redis is unreachable from the start.
    noRedis = await startTestApp({ redisUrl: 'redis://127.0.0.1:1' });
  });
  afterAll(async () => {
    await up?.close();
    await noRedis?.close();
  });

  it('healthz answers 200 without credentials', async () => {
    for (const t of [up, noRedis]) {
      const res = await t.http().get('/api/v1/healthz');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
    }
  });

  it('readyz answers 200 when PostgreSQL and Redis are reachable', async () => {
    const res = await up.http().get('/api/v1/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      info: { database: { status: 'up' }, redis: { status: 'up' } },
    });
  });

  it('readyz answers 503 with Retry-After and names Redis when Redis is unreachable', async () => {
    const t0 = Date.now();
    const res = await noRedis.http().get('/api/v1/readyz');
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({
      status: 'error',
      info: { database: { status: 'up' } },
      error: { redis: { status: 'down' } },
    });
  });
});
