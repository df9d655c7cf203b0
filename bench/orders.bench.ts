/**
 * Benchmark of order creation and of the order list (issue 4 "Done when"; docs/style.md "Tests": benchmarks
 * report figures and are not part of `npm test`).
 *
 * It creates its own database (`ticketing_bench_orders_<pid>` on the server of DATABASE_URL), migrates it, boots
 * the API exactly as production does (`createApiApp`) on a loopback port, loads one event with ten items (one
 * quota each, large enough never to sell out, a tax rule and a text question) by SQL, then times `POST E/orders/`
 * (two positions with answers, a fee, an invoice address): a warm-up, a bounded number sequentially, then with
 * 8 in flight on one quota and on ten quotas. It checks that every position was counted by the quota engine, then
 * counts the SQL statements of `GET E/orders/` for page sizes 1, 10 and 50 and times pages of 50. The database is
 * dropped at the end, also on failure; a deadline stops the run if anything hangs.
 *
 * Run: `npx ts-node --transpile-only bench/orders.bench.ts` (needs PostgreSQL and Redis as for the tests).
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

const ITEMS = 10;
const QUOTA_SIZE = 100_000;
const WARMUP = 30;
const SEQUENTIAL = 300;
const CONCURRENT = 300;
const CONCURRENCY = 8;
const LIST_REQUESTS = 100;
const PAGE_SIZE = 50;
/** Hard stop: the whole run normally takes well under a minute. */
const DEADLINE_MS = 5 * 60_000;

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

/** One request on loopback with a keep-alive agent; resolves to the status, body and duration in ms. */
function request(
  agent: http.Agent,
  port: number,
  method: 'GET' | 'POST',
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: string; ms: number }> {
  const started = process.hrtime.bigint();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        agent,
        headers: {
          Authorization: `Token ${token}`,
          Accept: 'application/json',
          ...(payload
            ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
            : {}),
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

/** `total` requests with `concurrency` in flight; every answer must have `expected` status. */
async function run(
  total: number,
  concurrency: number,
  expected: number,
  send: (i: number) => Promise<{ status: number; body: string; ms: number }>,
): Promise<Timing> {
  const durations: number[] = [];
  let next = 0;
  statements = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const res = await send(i);
      if (res.status !== expected) throw new Error(`request ${i}: ${res.status} ${res.body.slice(0, 300)}`);
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

interface Catalogue {
  items: number[];
  quotas: number[];
  questions: number[];
  taxRule: number;
}

/** Ten items (19 % VAT included), each with its own quota and a text question. */
async function load(db: DataSource, eventId: number): Promise<Catalogue> {
  const rules: { id: number }[] = await db.query(
    `INSERT INTO tax_rule (event_id, name, rate, is_default) VALUES ($1, '{"en": "VAT"}', 19, true) RETURNING id`,
    [eventId],
  );
  const items: { id: number }[] = await db.query(
    `INSERT INTO item (event_id, name, default_price, tax_rule_id)
     SELECT $1, jsonb_build_object('en', 'Item ' || g), 10 + g, $3 FROM generate_series(1, $2::int) g RETURNING id`,
    [eventId, ITEMS, rules[0].id],
  );
  const itemIds = items.map((r) => r.id).sort((a, b) => a - b);
  const quotas: { id: number }[] = await db.query(
    `INSERT INTO quota (event_id, name, size) SELECT $1, 'Quota ' || g, $3 FROM generate_series(1, $2::int) g
     RETURNING id`,
    [eventId, ITEMS, QUOTA_SIZE],
  );
  const quotaIds = quotas.map((r) => r.id).sort((a, b) => a - b);
  await db.query('INSERT INTO quota_item (quota_id, item_id) SELECT * FROM unnest($1::int[], $2::int[])', [
    quotaIds,
    itemIds,
  ]);
  const questions: { id: number }[] = await db.query(
    `INSERT INTO question (event_id, question, type, identifier)
     SELECT $1, jsonb_build_object('en', 'Question ' || g), 'S', 'BENCHQ' || g FROM generate_series(1, $2::int) g
     RETURNING id`,
    [eventId, ITEMS],
  );
  const questionIds = questions.map((r) => r.id).sort((a, b) => a - b);
  await db.query(
    'INSERT INTO question_item (question_id, item_id) SELECT * FROM unnest($1::int[], $2::int[])',
    [questionIds, itemIds],
  );
  await db.query('ANALYZE');
  return { items: itemIds, quotas: quotaIds, questions: questionIds, taxRule: rules[0].id };
}

/** An order of two positions of product `k` (and `k+1` when `spread`), with answers, a fee and an address. */
function orderBody(c: Catalogue, k: number, spread: boolean, i: number): Record<string, unknown> {
  const a = k % ITEMS;
  const b = spread ? (k + 1) % ITEMS : a;
  return {
    email: `buyer${i}@example.org`,
    positions: [
      {
        item: c.items[a],
        attendee_name: `Guest ${i}`,
        answers: [{ question: c.questions[a], answer: 'first' }],
      },
      { item: c.items[b], answers: [{ question: c.questions[b], answer: 'second' }] },
    ],
    fees: [{ fee_type: 'service', value: '1.50', tax_rule: c.taxRule }],
    invoice_address: { name: `Buyer ${i}`, city: 'Berlin', country: 'DE' },
  };
}

async function main(): Promise<void> {
  const serverUrl = loadConfig().databaseUrl;
  const database = `ticketing_bench_orders_${process.pid}`;
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

    const organizer = await app.get(OrganizersService).ensure('bench', 'Bench');
    const teams = app.get(TeamsService);
    const token = await teams.issueToken(await teams.ensureAdministrators(organizer), 'bench');
    const events: { id: number }[] = await db.query(
      `INSERT INTO event (organizer_id, name, slug, currency, date_from)
       VALUES ($1, '{"en": "Bench"}', 'bench', 'EUR', now() + interval '30 days') RETURNING id`,
      [organizer.id],
    );
    const eventId = events[0].id;
    const catalogue = await load(db, eventId);
    const ordersPath = '/api/v1/organizers/bench/events/bench/orders/';
    const create = (k: number, spread: boolean) => (i: number) =>
      request(agent, port, 'POST', ordersPath, token, orderBody(catalogue, k, spread, i));

    process.stdout.write(`Creating orders (${ITEMS} items, one quota each)...\n`);
    await run(WARMUP, 1, 201, (i) => create(i, true)(i));
    const sequential = await run(SEQUENTIAL, 1, 201, (i) => create(i, true)(i));
    const oneQuota = await run(CONCURRENT, CONCURRENCY, 201, (i) => create(0, false)(i));
    const tenQuotas = await run(CONCURRENT, CONCURRENCY, 201, (i) => create(i, false)(i));

    // Every position created is counted by the engine, on the quota of its item.
    const quotas = await db.getRepository(Quota).find({ where: { eventId } });
    const counted = await app.get(QuotaEngine).compute(db.manager, quotas);
    const pending = [...counted.values()].reduce((n, a) => n + a.pending_orders, 0);
    const created = 2 * (WARMUP + SEQUENTIAL + 2 * CONCURRENT);
    if (pending !== created)
      throw new Error(`engine counts ${pending} pending positions, expected ${created}`);
    const onFirst = counted.get(catalogue.quotas[0])!;
    process.stdout.write(
      `Checked: ${created} positions counted (${onFirst.pending_orders} on the first quota).\n`,
    );

    const perPage: Record<number, number> = {};
    for (const size of [1, 10, 50]) {
      statements = 0;
      const res = await request(agent, port, 'GET', `${ordersPath}?page_size=${size}`, token);
      if (res.status !== 200) throw new Error(`page_size=${size}: ${res.status}`);
      const page = JSON.parse(res.body) as { results: { positions: unknown[]; fees: unknown[] }[] };
      if (
        page.results.length !== size ||
        page.results.some((o) => o.positions.length !== 2 || o.fees.length !== 1)
      )
        throw new Error(`page_size=${size}: unexpected page`);
      perPage[size] = statements;
    }
    const listPath = `${ordersPath}?page_size=${PAGE_SIZE}&page=3`;
    await run(10, 1, 200, () => request(agent, port, 'GET', listPath, token));
    const listing = await run(LIST_REQUESTS, 1, 200, () => request(agent, port, 'GET', listPath, token));

    const pg: { server_version: string }[] = await db.query('SHOW server_version');
    const fmt = (x: number) => x.toFixed(1);
    const row = (label: string, r: Timing) =>
      `| ${label} | ${r.requests} | ${fmt(r.requests / r.seconds)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.statementsPerRequest)} |`;
    const lines = [
      '',
      `POST orders/ (2 positions with answers, a fee, an invoice address) and GET orders/`,
      `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB; ` +
        `Node ${process.version}; PostgreSQL ${pg[0].server_version}; ${new Date().toISOString().slice(0, 10)}`,
      '',
      '| run | requests | req/s | p50 ms | p99 ms | SQL statements / request |',
      '|---|---|---|---|---|---|',
      row('create, sequential (2 quotas per order)', sequential),
      row(`create, concurrency ${CONCURRENCY}, all on one quota`, oneQuota),
      row(`create, concurrency ${CONCURRENCY}, over ten quotas`, tenQuotas),
      row(`list, page size ${PAGE_SIZE}, sequential`, listing),
      '',
      `SQL statements of GET orders/ by page size: ${Object.entries(perPage)
        .map(([size, n]) => `${size} -> ${n}`)
        .join(', ')}`,
      '',
    ];
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
