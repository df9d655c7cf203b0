/**
 * Benchmark of quota reservations: cart-position creations per second (`POST E/cartpositions/`) on ONE quota versus
 * spread over TEN quotas of the same event (issue 4 "Done when": the second must not be slower, since reservations
 * lock only the quota rows involved and there is no event-wide lock; architecture.md "Concurrency").
 *
 * It creates its own database (`ticketing_bench_res_<pid>` on the server of DATABASE_URL), migrates it, boots the
 * API exactly as production does (`createApiApp`) on a loopback port, and for each scenario creates a fresh event
 * (so both start with no carts): one item with one quota, or ten items each with its own quota. Quotas are large
 * enough never to sell out, so every request does the full reservation (lock, count, insert). Each scenario gets a
 * warm-up, then the same bounded number of requests with the same concurrency; the scenarios run twice in
 * alternating order (A B A B) to expose noise. Every answer must be 201, and afterwards the positions in the
 * database and the quota engine's `cart_positions` must equal the requests sent. Reported: reservations per second,
 * p50 and p99 latency, SQL statements per request (counted on `PostgresQueryRunner.prototype.query`). The database
 * is dropped at the end, also on failure; a deadline stops the run if anything hangs.
 *
 * Run: `npx ts-node --transpile-only bench/reservations.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import http from 'http';
import type { AddressInfo } from 'net';
import os from 'os';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createApiApp } from '../src/app.factory';
import { Quota } from '../src/catalogue/quotas/quota.entity';
import { loadConfig } from '../src/config/app-config';
import { migrate } from '../src/database/migrate';
import { QuotaEngine } from '../src/orders/quota-engine.service';
import { OrganizersService } from '../src/organizers/organizers.service';
import { TeamsService } from '../src/teams/teams.service';

/** Requests per measured run (the same for both scenarios). */
const REQUESTS = 1500;
const WARMUP = 100;
const CONCURRENCY = 8;
const ROUNDS = 2;
/** Hard stop: the whole run normally takes about a minute. */
const DEADLINE_MS = 10 * 60_000;

/** Statements sent through TypeORM's PostgreSQL query runner (the app's only way to the database). */
let statements = 0;
const originalQuery = PostgresQueryRunner.prototype.query;
PostgresQueryRunner.prototype.query = function (this: PostgresQueryRunner, ...args: unknown[]) {
  statements++;
  return (originalQuery as (...a: unknown[]) => Promise<unknown>).apply(this, args);
} as typeof originalQuery;

function urlWithDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onMaintenanceDb(serverUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: urlWithDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface Timing {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  statementsPerRequest: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** One JSON POST on loopback with a keep-alive agent; resolves to the status, body and duration in ms. */
function post(
  agent: http.Agent,
  port: number,
  path: string,
  token: string,
  body: object,
): Promise<{ status: number; body: string; ms: number }> {
  const payload = JSON.stringify(body);
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        method: 'POST',
        host: '127.0.0.1',
        port,
        path,
        agent,
        headers: {
          Authorization: `Token ${token}`,
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** `total` creations with `concurrency` in flight, request i on `items[i % items.length]`; every answer must be 201. */
async function run(
  agent: http.Agent,
  port: number,
  path: string,
  token: string,
  items: number[],
  total: number,
  concurrency: number,
): Promise<Timing> {
  const durations: number[] = [];
  let next = 0;
  statements = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const res = await post(agent, port, path, token, { item: items[i % items.length], price: '10.00' });
      if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${res.body.slice(0, 200)}`);
      durations.push(res.ms);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  durations.sort((a, b) => a - b);
  return {
    requests: total,
    seconds,
    p50: percentile(durations, 0.5),
    p99: percentile(durations, 0.99),
    statementsPerRequest: statements / total,
  };
}

interface Scenario {
  label: string;
  quotas: number;
}

/** A fresh event with `quotas` items, each with its own quota big enough for every request of a run. */
async function setUp(
  db: DataSource,
  organizerId: number,
  slug: string,
  quotas: number,
): Promise<{ eventId: number; items: number[] }> {
  const events: { id: number }[] = await db.query(
    `INSERT INTO event (organizer_id, name, slug, currency, date_from)
     VALUES ($1, '{"en": "Bench"}', $2, 'EUR', now() + interval '30 days') RETURNING id`,
    [organizerId, slug],
  );
  const eventId = events[0].id;
  const items: { id: number }[] = await db.query(
    `INSERT INTO item (event_id, name, default_price)
     SELECT $1, jsonb_build_object('en', 'Item ' || g), 10 FROM generate_series(1, $2::int) g RETURNING id`,
    [eventId, quotas],
  );
  const itemIds = items.map((r) => r.id).sort((a, b) => a - b);
  const rows: { id: number }[] = await db.query(
    `INSERT INTO quota (event_id, name, size)
     SELECT $1, 'Quota ' || g, $3 FROM generate_series(1, $2::int) g RETURNING id`,
    [eventId, quotas, (REQUESTS + WARMUP) * 2],
  );
  const quotaIds = rows.map((r) => r.id).sort((a, b) => a - b);
  await db.query('INSERT INTO quota_item (quota_id, item_id) SELECT * FROM unnest($1::int[], $2::int[])', [
    quotaIds,
    itemIds,
  ]);
  return { eventId, items: itemIds };
}

async function main(): Promise<void> {
  const serverUrl = loadConfig().databaseUrl;
  const database = `ticketing_bench_res_${process.pid}`;
  const databaseUrl = urlWithDatabase(serverUrl, database);
  let app: NestExpressApplication | null = null;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const deadline = setTimeout(() => {
    process.stderr.write(`Deadline of ${DEADLINE_MS / 1000} s reached; dropping ${database} and stopping.\n`);
    void onMaintenanceDb(serverUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).finally(() =>
      process.exit(2),
    );
  }, DEADLINE_MS);
  deadline.unref();
  try {
    process.stdout.write(`Creating and migrating ${database}...\n`);
    await migrate(databaseUrl);
    app = await createApiApp({ databaseUrl, logLevel: 'error', queuePrefix: `bench-${database}` });
    await app.listen(0, '127.0.0.1');
    const port = (app.getHttpServer().address() as AddressInfo).port;
    const db = app.get<DataSource>(getDataSourceToken());
    const engine = app.get(QuotaEngine);

    const organizer = await app.get(OrganizersService).ensure('bench', 'Bench');
    const teams = app.get(TeamsService);
    const token = await teams.issueToken(await teams.ensureAdministrators(organizer), 'bench');

    const scenarios: Scenario[] = [
      { label: 'one quota', quotas: 1 },
      { label: 'ten quotas', quotas: 10 },
    ];
    const results: { scenario: Scenario; round: number; timing: Timing }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? scenarios : [...scenarios].reverse();
      for (const scenario of order) {
        const slug = `bench-${scenario.quotas}-${round}`;
        const { eventId, items } = await setUp(db, organizer.id, slug, scenario.quotas);
        await db.query('ANALYZE');
        const path = `/api/v1/organizers/bench/events/${slug}/cartpositions/`;
        process.stdout.write(
          `Round ${round}, ${scenario.label}: ${REQUESTS} creations, ${CONCURRENCY} in flight...\n`,
        );
        await run(agent, port, path, token, items, WARMUP, CONCURRENCY);
        const timing = await run(agent, port, path, token, items, REQUESTS, CONCURRENCY);
        // Every request reserved exactly one place: check the rows and what the engine counts.
        const rows: { n: number }[] = await db.query(
          'SELECT count(*)::int AS n FROM cart_position WHERE event_id = $1',
          [eventId],
        );
        const quotas = await db.getRepository(Quota).find({ where: { eventId } });
        const counted = [...(await engine.compute(db.manager, quotas)).values()].reduce(
          (n, a) => n + a.cart_positions,
          0,
        );
        if (rows[0].n !== REQUESTS + WARMUP || counted !== REQUESTS + WARMUP) {
          throw new Error(
            `Expected ${REQUESTS + WARMUP} positions, found ${rows[0].n}, engine counts ${counted}`,
          );
        }
        results.push({ scenario, round, timing });
      }
    }

    const pg: { server_version: string }[] = await db.query('SHOW server_version');
    const fmt = (x: number) => x.toFixed(1);
    const rate = (r: Timing) => r.requests / r.seconds;
    const lines = [
      '',
      `POST cartpositions/ (${REQUESTS} creations per run after ${WARMUP} warm-up, ${CONCURRENCY} in flight, keep-alive)`,
      `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB; ` +
        `Node ${process.version}; PostgreSQL ${pg[0].server_version}; ${new Date().toISOString().slice(0, 10)}`,
      '',
      '| round | scenario | requests | reservations/s | p50 ms | p99 ms | SQL statements / request |',
      '|---|---|---|---|---|---|---|',
      ...results.map(
        ({ scenario, round, timing: r }) =>
          `| ${round} | ${scenario.label} | ${r.requests} | ${fmt(rate(r))} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.statementsPerRequest)} |`,
      ),
      '',
    ];
    const mean = (label: string) => {
      const rs = results.filter((r) => r.scenario.label === label).map((r) => rate(r.timing));
      return rs.reduce((a, b) => a + b, 0) / rs.length;
    };
    const one = mean('one quota');
    const ten = mean('ten quotas');
    lines.push(
      `Mean reservations/s: one quota ${fmt(one)}, ten quotas ${fmt(ten)} (ten/one = ${(ten / one).toFixed(2)})`,
      '',
    );
    process.stdout.write(lines.join('\n'));
  } finally {
    agent.destroy();
    if (app) await app.close();
    await onMaintenanceDb(serverUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    process.stdout.write(`Dropped ${database}.\n`);
    clearTimeout(deadline);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(
      `Benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
