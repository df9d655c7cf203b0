import { Agent, request as httpRequest } from 'http';
import type { AddressInfo } from 'net';
import { Client } from 'pg';
import * as idempotentCommit from '../src/common/http/idempotent-commit';
import { ANSWER_LOST_DETAIL } from '../src/common/http/idempotency';
import { OrderPresentation } from '../src/orders/presentation/order-presentation.service';
import { ApiProcess, startApiProcess, stopAllApis } from './api-process';
import { urlFor } from './db';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { pooled, range } from './pooled';

/** One answer, or the error of a connection that was refused or cut. */
type Answer =
  | { ok: true; status: number; headers: Record<string, string | string[] | undefined>; body: string }
  | { ok: false; error: string };

/** POSTs JSON with an idempotency key over `agent`; never rejects (a cut connection is an answer too). */
function post(baseUrl: string, path: string, token: string, key: string, body: object, agent: Agent) {
  return new Promise<Answer>((resolve) => {
    const payload = JSON.stringify(body);
    const req = httpRequest(
      `${baseUrl}${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(payload),
          Authorization: auth(token),
          'X-Idempotency-Key': key,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ ok: true, status: res.statusCode!, headers: res.headers, body: text }));
        res.on('error', (err) => resolve({ ok: false, error: err.message }));
      },
    );
    req.on('error', (err) => resolve({ ok: false, error: err.message }));
    req.end(payload);
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A committed write keeps its idempotency key bound to its result whatever happens after the commit (README
 * "Idempotent writes", "Security"): PostgreSQL backends terminated mid-load, the API stopped by SIGTERM with
 * requests in flight. A client that retries every non-2xx answer and every cut connection with the same key gets
 * exactly one order per key, and every key's final answer names that order.
 */
describe('committed writes under database and process faults', () => {
  let t: TestApp;
  let token: string;
  let item: number;
  let dbUrl: string;
  let check: Client;
  const E = '/api/v1/organizers/org/events/sample';
  const order = (email: string) => ({ email, positions: [{ item, attendee_name: 'A' }] });

  /** Orders per e-mail for the e-mails starting with `prefix`, read over a connection no fault touches. */
  async function ordersByEmail(prefix: string): Promise<Map<string, string[]>> {
    const rows = await check.query<{ email: string; code: string }>(
      'SELECT email, code FROM orders WHERE email LIKE $1 ORDER BY id',
      [`${prefix}%`],
    );
    const byEmail = new Map<string, string[]>();
    for (const r of rows.rows) byEmail.set(r.email, [...(byEmail.get(r.email) ?? []), r.code]);
    return byEmail;
  }

  beforeAll(async () => {
    t = await startTestApp({ lockTimeoutMs: 20000 });
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    dbUrl = (t.db.options as { url: string }).url;
    const res = await t
      .http()
      .post(`${E}/items/`)
      .set('Authorization', auth(token))
      .send({ name: { en: 'Ticket' }, default_price: '10.00' });
    item = (res.body as { id: number }).id;
    await t
      .http()
      .post(`${E}/quotas/`)
      .set('Authorization', auth(token))
      .send({ name: 'All', size: 10000, items: [item] });
    check = new Client({ connectionString: dbUrl, application_name: 'fault-check' });
    await check.connect();
  });
  afterAll(async () => {
    await check?.end().catch(() => undefined);
    await stopAllApis();
    await t?.close();
  });

  const keyed = (key: string, email: string) =>
    t
      .http()
      .post(`${E}/orders/`)
      .set('Authorization', auth(token))
      .set('X-Idempotency-Key', key)
      .send(order(email));

  it('an order committed but answered 503 (connection lost after the commit): the retry answers that order', async () => {
    const spy = jest
      .spyOn(OrderPresentation.prototype, 'orders')
      .mockRejectedValueOnce(new Error('Connection terminated unexpectedly'));
    let first;
    try {
      first = await keyed('lost-1', 'lost@faults.example');
    } finally {
      spy.mockRestore();
    }
    expect([first.status, first.headers['retry-after'], first.body]).toEqual([
      503,
      '10',
      { detail: 'The database is unavailable. Please try again later.' },
    ]);
    const [created] = [...(await ordersByEmail('lost@')).values()];
    expect(created).toHaveLength(1);
    const record = await check.query<{ status: number | null; committed: boolean }>(
      "SELECT status, committed FROM idempotency_record WHERE key = 'lost-1'",
    );
    expect(record.rows).toEqual([{ status: null, committed: true }]);
    const retry = await keyed('lost-1', 'lost@faults.example');
    expect([retry.status, (retry.body as { code: string }).code]).toEqual([201, created[0]]);
    const again = await keyed('lost-1', 'lost@faults.example');
    expect([again.status, again.text]).toEqual([201, retry.text]);
    expect([...(await ordersByEmail('lost@')).values()]).toEqual([created]);
  });

  it('a committed write that bound no reference is never run twice: the retry answers 409 without Retry-After', async () => {
    const bind = jest.spyOn(idempotentCommit, 'bindWriteResult').mockImplementation(() => undefined);
    const spy = jest
      .spyOn(OrderPresentation.prototype, 'orders')
      .mockRejectedValueOnce(new Error('Connection terminated unexpectedly'));
    try {
      expect((await keyed('noref-1', 'noref@faults.example')).status).toBe(503);
    } finally {
      spy.mockRestore();
      bind.mockRestore();
    }
    const retry = await keyed('noref-1', 'noref@faults.example');
    expect([retry.status, retry.headers['retry-after'], retry.body]).toEqual([
      409,
      undefined,
      { detail: ANSWER_LOST_DETAIL },
    ]);
    expect([...(await ordersByEmail('noref@')).values()].map((codes) => codes.length)).toEqual([1]);
  });

  it('200 keyed order creations while PostgreSQL backends are terminated again and again: one order per key', async () => {
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dbName = new URL(dbUrl).pathname.slice(1);
    // The admin connection is on another database: it is never one of the terminated backends.
    const admin = new Client({ connectionString: urlFor('postgres') });
    await admin.connect();
    // Terminations every 0.3-0.9 s for at most 25 s (the retries then finish undisturbed).
    let killing = true;
    let kills = 0;
    const killUntil = Date.now() + 25_000;
    const killer = (async () => {
      while (killing && Date.now() < killUntil) {
        await pause(300 + Math.random() * 600);
        const r = await admin.query<{ pid: number }>(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name <> 'fault-check'`,
          [dbName],
        );
        kills += r.rowCount ?? 0;
      }
    })();
    const agent = new Agent({ keepAlive: true });
    const failures: Record<string, number> = {};
    const unexpected: string[] = [];
    let finals: Answer[];
    try {
      finals = await pooled(range(200), 10, async (i) => {
        let answer: Answer = { ok: false, error: 'not sent' };
        for (let attempt = 0; attempt < 200; attempt++) {
          answer = await post(
            baseUrl,
            `${E}/orders/`,
            token,
            `fault-${i}`,
            order(`f${i}@faults.example`),
            agent,
          );
          if (answer.ok && answer.status < 300) return answer;
          const what = answer.ok ? String(answer.status) : 'cut';
          failures[what] = (failures[what] ?? 0) + 1;
          if (answer.ok && answer.status >= 500 && !answer.headers['retry-after'])
            unexpected.push(answer.body);
          await pause(20 + Math.random() * 80);
        }
        return answer;
      });
    } finally {
      killing = false;
      await killer;
      await admin.end();
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
    // The faults really hit requests (else this proves nothing).
    expect(kills).toBeGreaterThan(20);
    expect(Object.keys(failures).length).toBeGreaterThan(0);
    expect(finals.map((a) => (a.ok ? a.status : a.error))).toEqual(Array(200).fill(201));

    const byEmail = await ordersByEmail('f');
    const codes = finals.map((a) => (JSON.parse((a as { body: string }).body) as { code: string }).code);
    // Keys whose orders in the database are not exactly the one their final answer names.
    const wrong = codes.flatMap((code, i) => {
      const stored = byEmail.get(`f${i}@faults.example`);
      return stored?.length === 1 && stored[0] === code
        ? []
        : [{ key: `fault-${i}`, answered: code, stored }];
    });
    expect(wrong).toEqual([]);
    expect(new Set(codes).size).toBe(200);
    // Every 5xx said when to retry (a lost connection is 503 with Retry-After, never a bare 500).
    expect(unexpected).toEqual([]);
    // Every key is bound to its order for good: a repeat replays the same answer.
    const again = await pooled(range(200), 10, (i) =>
      t
        .http()
        .post(`${E}/orders/`)
        .set('Authorization', auth(token))
        .set('X-Idempotency-Key', `fault-${i}`)
        .send(order(`f${i}@faults.example`)),
    );
    expect(again.map((r) => [r.status, (r.body as { code: string }).code])).toEqual(
      codes.map((c) => [201, c]),
    );
  });

  it('SIGTERM with keyed order creations in flight past the grace period, restart and retry: one order per key', async () => {
    const env = { DATABASE_URL: dbUrl, SHUTDOWN_GRACE_SECONDS: '1' };
    let api: ApiProcess = await startApiProcess(env);
    const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
    const side = new Client({ connectionString: dbUrl, application_name: 'fault-check-side' });
    await side.connect();
    const keys = 20;
    const send = (i: number, base: string) =>
      post(base, `${E}/orders/`, token, `stop-${i}`, order(`s${i}@stop.example`), agent);
    try {
      // The first ten are answered before the stop. The other ten commit their orders, then wait to present
      // them (the presentation reads the questions, locked here).
      const early = await pooled(range(10), 10, (i) => send(i, api.baseUrl));
      expect(early.map((a) => (a.ok ? a.status : a.error))).toEqual(Array(10).fill(201));
      await side.query('BEGIN');
      await side.query('LOCK TABLE question IN ACCESS EXCLUSIVE MODE');
      const inFlight = Array.from({ length: keys - 10 }, (_, j) => send(10 + j, api.baseUrl));
      for (let i = 0; i < 100; i++) {
        const r = await check.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
        );
        if (r.rows[0].n >= keys - 10) break;
        await pause(100);
      }
      api.kill('SIGTERM');
      // The grace period ends while they still wait: their connections are cut and the application closes.
      await pause(1800);
      await side.query('ROLLBACK');
      const cut = await Promise.all(inFlight);
      expect(cut.filter((a) => a.ok && a.status < 300)).toEqual([]);
      expect(await api.exited).toMatchObject({ signal: null });
      // Their orders were created, their answers lost.
      expect((await ordersByEmail('s')).size).toBe(keys);
      api = await startApiProcess(env);
      const finals = await pooled(range(keys), 10, async (i) => {
        let answer: Answer = { ok: false, error: 'not sent' };
        for (let attempt = 0; attempt < 100; attempt++) {
          answer = await send(i, api.baseUrl);
          if (answer.ok && answer.status < 300) return answer;
          await pause(50);
        }
        return answer;
      });
      expect(finals.map((a) => (a.ok ? a.status : a.error))).toEqual(Array(keys).fill(201));
      const byEmail = await ordersByEmail('s');
      const codeOf = (a: Answer) => (JSON.parse((a as { body: string }).body) as { code: string }).code;
      // Keys whose orders in the database are not exactly the one their final answer names.
      const wrong = finals.flatMap((a, i) => {
        const stored = byEmail.get(`s${i}@stop.example`);
        return stored?.length === 1 && stored[0] === codeOf(a) ? [] : [{ key: `stop-${i}`, stored }];
      });
      expect(wrong).toEqual([]);
      expect(finals.slice(0, 10).map(codeOf)).toEqual(early.map(codeOf));
    } finally {
      await side.query('ROLLBACK').catch(() => undefined);
      await side.end().catch(() => undefined);
      agent.destroy();
    }
  });

  it('SIGTERM closes idle keep-alive connections at once and answers in-flight requests with Connection: close', async () => {
    const api = await startApiProcess({ DATABASE_URL: dbUrl, SHUTDOWN_GRACE_SECONDS: '20' });
    const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
    const side = new Client({ connectionString: dbUrl, application_name: 'fault-check-side' });
    await side.connect();
    try {
      // An idle keep-alive connection (its own agent, so no other request reuses it): answered once, kept open.
      const idleAgent = new Agent({ keepAlive: true });
      const idle = await post(
        api.baseUrl,
        `${E}/orders/`,
        token,
        'idle-1',
        order('idle@stop.example'),
        idleAgent,
      );
      expect(idle.ok && idle.status).toBe(201);
      const idleSocket = Object.values(idleAgent.freeSockets).flat()[0]!;
      const idleClosed = new Promise<number>((resolve) =>
        idleSocket.once('close', () => resolve(Date.now())),
      );

      await side.query('BEGIN');
      await side.query('SELECT id FROM quota FOR UPDATE');
      const inFlight = Array.from({ length: 5 }, (_, i) =>
        post(api.baseUrl, `${E}/orders/`, token, `drain-${i}`, order(`d${i}@stop.example`), agent),
      );
      for (let i = 0; i < 100; i++) {
        const r = await check.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
        );
        if (r.rows[0].n >= 5) break;
        await pause(100);
      }
      const signalled = Date.now();
      api.kill('SIGTERM');
      expect((await idleClosed) - signalled).toBeLessThan(1000);
      await pause(300);
      await side.query('ROLLBACK');
      const answers = await Promise.all(inFlight);
      for (const a of answers) {
        expect(a.ok && [a.status, a.headers.connection]).toEqual([201, 'close']);
      }
      expect(await api.exited).toEqual({ code: 0, signal: null });
    } finally {
      await side.query('ROLLBACK').catch(() => undefined);
      await side.end().catch(() => undefined);
      agent.destroy();
    }
  });
});
