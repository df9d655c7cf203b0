import { request as httpRequest, Agent } from 'http';
import { Client } from 'pg';
import { ApiProcess, startApiProcess, stopAllApis } from './api-process';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/** One GET on a fresh connection; resolves with the status and whole body, rejects on a reset. */
function get(
  baseUrl: string,
  path: string,
  token: string,
  agent: Agent,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${baseUrl}${path}`,
      { headers: { Authorization: auth(token) }, agent },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Graceful shutdown of the real API process (README "Security", "Faults and shutdown"): 200 requests held in
 * flight by a table lock from a side connection, SIGTERM, then the lock goes: every request gets its complete
 * answer, new connections are refused, the process exits 0.
 */
describe('Graceful shutdown of the API', () => {
  let t: TestApp;
  let api: ApiProcess;
  let token: string;
  let side: Client;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'stop'));
    await createEvent(t, token, 'stop', { slug: 'conf' });
    api = await startApiProcess({
      DATABASE_URL: (t.db.options as { url: string }).url,
      SHUTDOWN_GRACE_SECONDS: '20',
    });
    side = new Client({ connectionString: (t.db.options as { url: string }).url });
    await side.connect();
  });
  afterAll(async () => {
    await side?.end().catch(() => undefined);
    await stopAllApis();
    await t?.close();
  });

  it('answers all 200 in-flight requests after SIGTERM and exits 0', async () => {
    const path = '/api/v1/organizers/stop/events/conf/';
    expect((await get(api.baseUrl, path, token, new Agent())).status).toBe(200);

    // Every statement that reads `event` now waits for this transaction.
    await side.query('BEGIN');
    await side.query('LOCK TABLE event IN ACCESS EXCLUSIVE MODE');
    const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
    const settled = Array.from({ length: 200 }, () =>
      get(api.baseUrl, path, token, agent).then(
        (res) => ({ ok: true as const, ...res }),
        (err: Error) => ({ ok: false as const, error: err.message }),
      ),
    );
    // The API's pool (20 connections) is busy waiting for the lock; the other requests wait for the pool.
    for (let i = 0; i < 100; i++) {
      const [{ n }] = await t.db.query<{ n: number }[]>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
      );
      if (n >= 20) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1000));

    api.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    // No new connections once the signal is handled.
    await expect(get(api.baseUrl, path, token, new Agent())).rejects.toThrow(/ECONNREFUSED/);
    await side.query('ROLLBACK');

    const results = await Promise.all(settled);
    const failed = results.filter((r) => !r.ok);
    expect(failed).toEqual([]);
    expect(results.map((r) => (r.ok ? r.status : 0))).toEqual(Array(200).fill(200));
    for (const r of results) if (r.ok) expect(JSON.parse(r.body)).toMatchObject({ slug: 'conf' });
    expect(await api.exited).toEqual({ code: 0, signal: null });
    agent.destroy();
  });
});
