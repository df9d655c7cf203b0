import { request as httpRequest } from 'http';
import type { AddressInfo } from 'net';
import { hashToken } from '../src/auth/credentials.service';
import { idempotentRequest } from '../src/common/http/idempotency';
import { OrderCreator } from '../src/orders/create/order-creator.service';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Idempotency under faults (compat §1.8; README "Idempotent writes"): a client that aborts, a 5xx,
 * unauthenticated requests, OAuth paths, and records left running by a request whose process or database died.
 */
describe('idempotency keys under faults', () => {
  let t: TestApp;
  let token: string;
  let port: number;
  let quota: number;
  let item: number;
  const E = '/api/v1/organizers/org/events/sample';
  const order = (email: string) => ({
    email,
    positions: [{ item, attendee_name: 'A' }],
  });
  const orders = async (email: string): Promise<{ code: string }[]> =>
    t.db.query('SELECT code FROM orders WHERE email = $1', [email]);
  const records = async (): Promise<number> =>
    Number((await t.db.query('SELECT count(*) AS n FROM idempotency_record'))[0].n);
  const post = (path: string, body: object, key: string, credential: string | null = token) => {
    const req = t.http().post(path).set('X-Idempotency-Key', key);
    if (credential !== null) req.set('Authorization', auth(credential));
    return req.send(body);
  };

  /** Sends a request over a raw socket and destroys it after `ms` (the client gives up). */
  function sendAndAbort(path: string, body: object, key: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const payload = JSON.stringify(body);
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(payload),
          Authorization: auth(token),
          'X-Idempotency-Key': key,
        },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(payload);
      req.end();
      setTimeout(() => req.destroy(), ms);
    });
  }

  /** Holds the quota row's lock from another session while `fn` runs: reservations wait for it. */
  async function withQuotaLocked(fn: () => Promise<void>): Promise<void> {
    const runner = t.db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await runner.query('SELECT id FROM quota WHERE id = $1 FOR UPDATE', [quota]);
      await fn();
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  beforeAll(async () => {
    t = await startTestApp({ lockTimeoutMs: 20000 });
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    item = (
      await t
        .http()
        .post(`${E}/items/`)
        .set('Authorization', auth(token))
        .send({
          name: { en: 'Ticket' },
          default_price: '10.00',
        })
    ).body.id;
    quota = (
      await t
        .http()
        .post(`${E}/quotas/`)
        .set('Authorization', auth(token))
        .send({
          name: 'All',
          size: 100,
          items: [item],
        })
    ).body.id;
  });
  afterAll(() => t.close());

  it('a client aborts an order creation mid-request and retries with the same key: one order, named by both', async () => {
    await withQuotaLocked(async () => {
      await sendAndAbort(`${E}/orders/`, order('abort@example.org'), 'abort-1', 300);
      // The first request still waits for the quota lock: the retry is told so, and nothing is created twice.
      const meanwhile = await post(`${E}/orders/`, order('abort@example.org'), 'abort-1');
      expect(meanwhile.status).toBe(409);
      expect(meanwhile.body).toEqual({ detail: 'Concurrent request with idempotency key.' });
      expect(meanwhile.headers['retry-after']).toBe('5');
    });
    let retry = await post(`${E}/orders/`, order('abort@example.org'), 'abort-1');
    for (let i = 0; i < 50 && retry.status === 409; i++) {
      await new Promise((r) => setTimeout(r, 100));
      retry = await post(`${E}/orders/`, order('abort@example.org'), 'abort-1');
    }
    expect(retry.status).toBe(201);
    const created = await orders('abort@example.org');
    expect(created).toHaveLength(1);
    expect(retry.body.code).toBe(created[0].code);
    const stored: { status: number; body: string }[] = await t.db.query(
      "SELECT status, body FROM idempotency_record WHERE key = 'abort-1'",
    );
    expect(stored[0].status).toBe(201);
    expect(JSON.parse(Buffer.from(stored[0].body, 'base64').toString()).code).toBe(created[0].code);
  });

  it('does not store a 5xx: the retry with the same key runs again', async () => {
    const spy = jest
      .spyOn(OrderCreator.prototype, 'create')
      .mockRejectedValueOnce(new Error('simulated crash'));
    try {
      const failed = await post(`${E}/orders/`, order('five@example.org'), 'five-1');
      expect(failed.status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(await t.db.query("SELECT 1 FROM idempotency_record WHERE key = 'five-1'")).toHaveLength(0);
    const retried = await post(`${E}/orders/`, order('five@example.org'), 'five-1');
    expect(retried.status).toBe(201);
    expect(await orders('five@example.org')).toHaveLength(1);
  });

  it('stores nothing for requests that fail authentication', async () => {
    const before = await records();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        post(`${E}/orders/`, order('anon@example.org'), `anon-${i}`, null),
      ),
    );
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([401]));
    const wrong = await post(`${E}/orders/`, order('anon@example.org'), 'bad-token', 'not-a-token');
    expect([401, 429]).toContain(wrong.status);
    expect(await records()).toBe(before);
  });

  it('never stores answers under /api/v1/oauth/ (token responses would sit in clear in the table)', () => {
    expect(idempotentRequest('POST', '/api/v1/oauth/token')).toBe(false);
    expect(idempotentRequest('POST', '/api/v1/oauth/revoke_token')).toBe(false);
    expect(idempotentRequest('POST', `${E}/orders/`)).toBe(true);
    expect(idempotentRequest('GET', `${E}/orders/`)).toBe(false);
  });

  it('takes over at once a key left running by a request that died with its process or database', async () => {
    // A running record nobody holds the lock of: its process (or the database session) is gone.
    await t.db.query(
      `INSERT INTO idempotency_record (credential_hash, key, fingerprint, status, expires)
       VALUES ($1, 'dead-1', repeat('0', 64), NULL, now() + interval '1 hour')`,
      [hashToken(`Token ${token}`)],
    );
    const res = await post(`${E}/orders/`, order('dead@example.org'), 'dead-1');
    expect(res.status).toBe(201);
    expect(await orders('dead@example.org')).toHaveLength(1);
    expect((await post(`${E}/orders/`, order('dead@example.org'), 'dead-1')).body.code).toBe(res.body.code);
  });

  it('a request whose lock session dies with the database can be retried at once after it failed', async () => {
    await withQuotaLocked(async () => {
      const first = post(`${E}/orders/`, order('crash@example.org'), 'crash-1').then((r) => r);
      await new Promise((r) => setTimeout(r, 300));
      // The database "restarts" for this application: every session of it is terminated.
      await t.db.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND (application_name = 'idempotency' OR state = 'active')`,
      );
      const answer = await first;
      expect(answer.status).toBeGreaterThanOrEqual(409);
    });
    let retry = await post(`${E}/orders/`, order('crash@example.org'), 'crash-1');
    for (let i = 0; i < 20 && retry.status >= 500; i++) {
      await new Promise((r) => setTimeout(r, 100));
      retry = await post(`${E}/orders/`, order('crash@example.org'), 'crash-1');
    }
    expect(retry.status).toBe(201);
    expect(await orders('crash@example.org')).toHaveLength(1);
  });
});
