/**
 * Benchmark of `GET E/quotas/?with_availability=true` (issue 3 "Done when"; docs/style.md "Tests": benchmarks
 * report figures and are not part of `npm test`).
 *
 * It creates its own database (`ticketing_bench_<pid>` on the server of DATABASE_URL), migrates it, boots the API
 * exactly as production does (`createApiApp`) on a loopback port, loads one event with 50 quotas over 50 items
 * and 10,000 vouchers (blocking and not, item- and quota-level, some expired or used up) by SQL, checks the
 * answers against a naive per-quota SQL count, then times a warm-up and a bounded number of requests (sequential,
 * then with a fixed concurrency) and reports req/s, p50, p99 and the SQL statements per request (counted on
 * `PostgresQueryRunner.prototype.query`). The database is dropped at the end, also on failure; a deadline stops
 * the run if anything hangs.
 *
 * Run: `npx ts-node bench/quota-availability.bench.ts` (needs PostgreSQL and Redis as for the tests).
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

const QUOTAS = 50;
const ITEMS = 50;
const VOUCHERS = 10_000;
const PAGE_SIZE = 50;
const WARMUP = 50;
const SEQUENTIAL = 300;
const CONCURRENT = 300;
const CONCURRENCY = 8;
const ENGINE_CALLS = 200;
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

/** One GET on loopback with a keep-alive agent; resolves to the status, body and duration in ms. */
function request(
  agent: http.Agent,
  port: number,
  path: string,
  token: string,
): Promise<{ status: number; body: string; ms: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path,
        agent,
        headers: { Authorization: `Token ${token}`, Accept: 'application/json' },
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
  });
}

/** `total` requests with `concurrency` in flight; every answer must be 200. */
async function run(
  agent: http.Agent,
  port: number,
  path: string,
  token: string,
  total: number,
  concurrency: number,
): Promise<Timing> {
  const durations: number[] = [];
  let next = 0;
  statements = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < total) {
      next++;
      const res = await request(agent, port, path, token);
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body.slice(0, 200)}`);
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

/** 50 items, 50 quotas (every tenth unlimited) of two items each, 10,000 vouchers (mixed as described inline). */
async function load(db: DataSource, eventId: number): Promise<void> {
  const items: { id: number }[] = await db.query(
    `INSERT INTO item (event_id, name, default_price)
     SELECT $1, jsonb_build_object('en', 'Item ' || g), 10 FROM generate_series(1, $2::int) g RETURNING id`,
    [eventId, ITEMS],
  );
  const quotas: { id: number }[] = await db.query(
    `INSERT INTO quota (event_id, name, size)
     SELECT $1, 'Quota ' || g, CASE WHEN g % 10 = 0 THEN NULL ELSE 400 END FROM generate_series(1, $2::int) g
     RETURNING id`,
    [eventId, QUOTAS],
  );
  const itemIds = items.map((r) => r.id).sort((a, b) => a - b);
  const quotaIds = quotas.map((r) => r.id).sort((a, b) => a - b);
  // Quota i holds item i and item i+1 (wrapping), so each item-level voucher counts in two quotas.
  await db.query(
    `INSERT INTO quota_item (quota_id, item_id)
     SELECT q, i FROM unnest($1::int[], $2::int[]) AS t(q, i)
     UNION SELECT q, i FROM unnest($1::int[], $3::int[]) AS t(q, i)`,
    [quotaIds, itemIds, [...itemIds.slice(1), itemIds[0]]],
  );
  // Every 4th voucher is quota-level, the rest item-level; half block quota; every 10th (offset 3) expired;
  // every 7th used up; max_usages 1 or 2.
  await db.query(
    `INSERT INTO voucher (event_id, code, max_usages, redeemed, valid_until, block_quota, item_id, quota_id)
     SELECT $1,
            'BENCH' || lpad(g::text, 6, '0'),
            1 + g % 2,
            CASE WHEN g % 7 = 0 THEN 1 + g % 2 ELSE 0 END,
            CASE WHEN g % 10 = 3 THEN now() - interval '1 day'
                 WHEN g % 10 = 5 THEN now() + interval '30 days' END,
            g % 2 = 0,
            CASE WHEN g % 4 = 0 THEN NULL ELSE ($2::int[])[1 + g % $4] END,
            CASE WHEN g % 4 = 0 THEN ($3::int[])[1 + g % $5] END
       FROM generate_series(1, $6::int) g`,
    [eventId, itemIds, quotaIds, ITEMS, QUOTAS, VOUCHERS],
  );
  await db.query('ANALYZE');
}

/** Free places per quota counted naively, one subquery per quota (the reference the engine must match). */
async function reference(db: DataSource, eventId: number): Promise<Map<number, number | null>> {
  const rows: { id: number; size: number | null; blocked: number }[] = await db.query(
    `SELECT q.id, q.size,
            (SELECT COALESCE(SUM(v.max_usages - v.redeemed), 0)::int FROM voucher v
              WHERE v.event_id = q.event_id AND v.block_quota AND v.redeemed < v.max_usages
                AND (v.valid_until IS NULL OR v.valid_until >= now())
                AND (v.quota_id = q.id
                  OR (v.quota_id IS NULL AND v.item_id IN (SELECT item_id FROM quota_item WHERE quota_id = q.id))))
              AS blocked
       FROM quota q WHERE q.event_id = $1`,
    [eventId],
  );
  return new Map(rows.map((r) => [r.id, r.size === null ? null : Math.max(r.size - r.blocked, 0)]));
}

async function main(): Promise<void> {
  const serverUrl = loadConfig().databaseUrl;
  const database = `ticketing_bench_${process.pid}`;
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
    process.stdout.write(`Loading ${QUOTAS} quotas, ${ITEMS} items, ${VOUCHERS} vouchers...\n`);
    await load(db, eventId);

    const path = `/api/v1/organizers/bench/events/bench/quotas/?with_availability=true&page_size=${PAGE_SIZE}`;
    const first = await request(agent, port, path, token);
    if (first.status !== 200) throw new Error(`GET ${path}: ${first.status} ${first.body}`);
    const page = JSON.parse(first.body) as {
      count: number;
      results: { id: number; available_number: number | null }[];
    };
    const want = await reference(db, eventId);
    const wrong = page.results.filter((q) => want.get(q.id) !== q.available_number);
    if (page.count !== QUOTAS || page.results.length !== QUOTAS || wrong.length > 0) {
      throw new Error(
        `Unexpected answer: count ${page.count}, ${wrong.length} quotas differ from the reference`,
      );
    }
    const blocked = page.results.reduce(
      (n, q) => n + (q.available_number === null ? 0 : 400 - q.available_number),
      0,
    );
    process.stdout.write(
      `Checked ${page.results.length} quotas against the reference (${blocked} places blocked).\n`,
    );

    // Statement count does not depend on the page size.
    const perPage: Record<number, number> = {};
    for (const size of [1, 10, 50]) {
      statements = 0;
      const res = await request(agent, port, path.replace(/page_size=\d+/, `page_size=${size}`), token);
      if (res.status !== 200) throw new Error(`page_size=${size}: ${res.status}`);
      perPage[size] = statements;
    }

    await run(agent, port, path, token, WARMUP, 1);
    const sequential = await run(agent, port, path, token, SEQUENTIAL, 1);
    const concurrent = await run(agent, port, path, token, CONCURRENT, CONCURRENCY);

    // The engine alone: one compute() for the 50 quotas, through the app's data source.
    const engine = app.get(QuotaEngine);
    const quotas = await db.getRepository(Quota).find({ where: { eventId } });
    const engineMs: number[] = [];
    statements = 0;
    for (let i = 0; i < ENGINE_CALLS; i++) {
      const started = process.hrtime.bigint();
      await engine.compute(db.manager, quotas);
      engineMs.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    const engineStatements = statements / ENGINE_CALLS;
    engineMs.sort((a, b) => a - b);

    const pg: { server_version: string }[] = await db.query('SHOW server_version');
    const fmt = (x: number) => x.toFixed(1);
    const row = (label: string, r: Timing) =>
      `| ${label} | ${r.requests} | ${fmt(r.requests / r.seconds)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.statementsPerRequest)} |`;
    const lines = [
      '',
      `GET quotas/?with_availability=true (page size ${PAGE_SIZE}; ${QUOTAS} quotas, ${ITEMS} items, ${VOUCHERS} vouchers)`,
      `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB; ` +
        `Node ${process.version}; PostgreSQL ${pg[0].server_version}; ${new Date().toISOString().slice(0, 10)}`,
      '',
      '| run | requests | req/s | p50 ms | p99 ms | SQL statements / request |',
      '|---|---|---|---|---|---|',
      row('sequential', sequential),
      row(`concurrency ${CONCURRENCY}`, concurrent),
      '',
      `SQL statements per request by page size: ${Object.entries(perPage)
        .map(([size, n]) => `${size} -> ${n}`)
        .join(', ')}`,
      `Engine compute() for ${QUOTAS} quotas: ${fmt(engineStatements)} statement(s), p50 ${fmt(percentile(engineMs, 0.5))} ms, ` +
        `p99 ${fmt(percentile(engineMs, 0.99))} ms (${ENGINE_CALLS} calls)`,
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
