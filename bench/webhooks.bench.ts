/**
 * Benchmark of webhooks (bench/README.md "Webhooks"): the latency an order creation gains when ten webhooks listen
 * (the outbox rows are written by the trigger on the audit log, in the order's transaction), and the deliveries
 * per second one worker process sends to a local receiver.
 *
 * It creates its own database, boots the API (`createApiApp`) on a loopback port, loads one event with one item by
 * SQL, and starts an HTTP receiver on a loopback port that answers 200. Phase 1 (no worker running): `POST
 * E/orders/` sequentially, alternating rounds without webhooks and with ten enabled webhooks listening to
 * `pretix.event.order.placed`; p50/p99 per scenario and the difference. Phase 2: a real worker process
 * (`node dist/src/worker.js`; run `npm run build` first) sends the deliveries phase 1 left in the outbox; the rate
 * is deliveries marked `succeeded` per second, checked against the requests the receiver got. The database and the
 * queue keys are removed at the end.
 *
 * Run: `npm run build && npx ts-node --transpile-only bench/webhooks.bench.ts` (PostgreSQL and Redis as for the tests).
 */
import { spawn } from 'child_process';
import { createServer } from 'http';
import type { AddressInfo } from 'net';
import { join } from 'path';
import Redis from 'ioredis';
import { loadConfig } from '../src/config/app-config';
import * as bench from './bench-harness';

const WARMUP = 30;
const PER_ROUND = 150;
const ROUNDS = 2;
const WEBHOOKS = 10;

bench.runBenchmark(
  { database: `ticketing_bench_wh_${process.pid}`, deadlineMs: 15 * 60_000, maxSockets: 1 },
  async ({ db, organizer, post }) => {
    let received = 0;
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received++;
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const eventId = await bench.insertEvent(db, organizer.id, 'shop');
    const [{ id: item }] = await db.query<{ id: number }[]>(
      `INSERT INTO item (event_id, name, default_price) VALUES ($1, '{"en": "Ticket"}', 10) RETURNING id`,
      [eventId],
    );
    const [{ id: quota }] = await db.query<{ id: number }[]>(
      `INSERT INTO quota (event_id, name, size) VALUES ($1, 'Q', 1000000) RETURNING id`,
      [eventId],
    );
    await db.query('INSERT INTO quota_item (quota_id, item_id) VALUES ($1, $2)', [quota, item]);
    const base = '/api/v1/organizers/bench';
    const hooks: number[] = [];
    for (let i = 0; i < WEBHOOKS; i++) {
      const res = bench.expectStatus(
        await post(`${base}/webhooks/`, { target_url: target, action_types: ['pretix.event.order.placed'] }),
        201,
        'webhook',
      );
      hooks.push((JSON.parse(res.body) as { id: number }).id);
    }
    const setHooks = (enabled: boolean) =>
      db.query('UPDATE webhook SET enabled = $1 WHERE id = ANY($2)', [enabled, hooks]);
    const order = async (i: number) =>
      bench.expectStatus(
        await post(`${base}/events/shop/orders/`, { email: `b${i}@example.org`, positions: [{ item }] }),
        201,
        `order ${i}`,
      );

    process.stdout.write('Placing orders without and with ten webhooks listening (no worker running)...\n');
    await setHooks(false);
    await bench.runLoad(WARMUP, 1, order);
    const runs: [string, number, bench.Timing][] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const withHooks of round % 2 ? [false, true] : [true, false]) {
        await setHooks(withHooks);
        runs.push([withHooks ? 'ten webhooks' : 'no webhook', round, await bench.runLoad(PER_ROUND, 1, order)]);
      }
    }
    const [{ n }] = await db.query<{ n: number }[]>(
      "SELECT count(*)::int AS n FROM webhook_delivery WHERE status = 'pending'",
    );
    const expected = ROUNDS * PER_ROUND * WEBHOOKS;
    if (n !== expected) throw new Error(`${n} deliveries in the outbox, expected ${expected}`);
    const p50 = (label: string) => {
      const sel = runs.filter(([s]) => s === label).map(([, , t]) => t.p50);
      return sel.reduce((a, b) => a + b, 0) / sel.length;
    };

    await setHooks(true);
    process.stdout.write(`Starting a worker to send the ${n} deliveries...\n`);
    const config = loadConfig();
    const url = new URL(config.databaseUrl);
    url.pathname = `/ticketing_bench_wh_${process.pid}`;
    const prefix = `bench-wh-${process.pid}`;
    const started = Date.now();
    const worker = spawn('node', [join(__dirname, '..', 'dist', 'src', 'worker.js')], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: url.toString(),
        REDIS_URL: config.redisUrl,
        QUEUE_PREFIX: prefix,
        LOG_LEVEL: 'warn',
        SCHEDULER_INTERVAL_MS: '1000',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let workerErr = '';
    worker.stderr?.on('data', (c: Buffer) => (workerErr += c.toString()));
    let firstAt = 0;
    try {
      for (;;) {
        const [{ done }] = await db.query<{ done: number }[]>(
          "SELECT count(*)::int AS done FROM webhook_delivery WHERE status = 'succeeded'",
        );
        if (done > 0 && firstAt === 0) firstAt = Date.now();
        if (done >= n) break;
        if (Date.now() - started > 3 * 60_000)
          throw new Error(`only ${done} of ${n} delivered; worker: ${workerErr.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      worker.kill('SIGKILL');
      receiver.close();
      const redis = new Redis(config.redisUrl);
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) await redis.del(...keys);
      } while (cursor !== '0');
      redis.disconnect();
    }
    const seconds = (Date.now() - firstAt) / 1000;
    if (received < n) throw new Error(`receiver got ${received} requests for ${n} deliveries`);

    const lines = [
      '',
      'POST E/orders/ (one position), sequential; webhooks listening to pretix.event.order.placed',
      await bench.machineLine(db),
      '',
      ...bench.timingHead(['scenario', 'round'], 'orders/s'),
      ...runs.map(([scenario, round, timing]) => bench.timingRow([scenario, round], timing)),
      '',
      `added latency of ten webhooks at p50: ${bench.fmt(p50('ten webhooks') - p50('no webhook'))} ms`,
      '',
      `deliveries sent by one worker (WEBHOOK_CONCURRENCY default) to a local receiver: ${n} in ` +
        `${bench.fmt(seconds)} s from the first success = ${bench.fmt(n / seconds)} deliveries/s ` +
        `(receiver got ${received} requests)`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  },
);
