/**
 * Shared infrastructure of the benchmarks in this folder (bench/README.md): a scratch database on the server of
 * DATABASE_URL, the API booted on it as production does (`createApiApp`) on a loopback port, an organizer with an
 * API token, HTTP requests on a keep-alive agent, bounded load loops and their figures, SQL statement counting, the
 * table lines of the report, and a hard deadline that drops the database if anything hangs.
 *
 * Importing this module patches `PostgresQueryRunner.prototype.query` (the app's only way to the database) to count
 * the statements sent; import it before the API is booted (the benchmarks import it first).
 *
 * A benchmark is one call of `runBenchmark(options, body)`: it sets everything up, runs `body` with a
 * `BenchContext`, drops the database (also on failure) and exits the process (0, or 1 after printing the error).
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
import { loadConfig } from '../src/config/app-config';
import { migrate } from '../src/database/migrate';
import type { Organizer } from '../src/organizers/organizer.entity';
import { OrganizersService } from '../src/organizers/organizers.service';
import { TeamsService } from '../src/teams/teams.service';

// ---------------------------------------------------------------------------------------------------------------
// SQL statement counting

/** Statements sent through TypeORM's PostgreSQL query runner since the last `resetStatementCount()`. */
let statements = 0;
/** When set, the statements (SQL and parameters) are also recorded here ({@link recordStatements}). */
let recorded: { sql: string; params: unknown[] }[] | null = null;
const originalQuery = PostgresQueryRunner.prototype.query;
PostgresQueryRunner.prototype.query = function (this: PostgresQueryRunner, ...args: unknown[]) {
  statements++;
  if (recorded) {
    // Prepared statements arrive as `{text, values, name}`.
    const first = args[0] as string | { text: string; values?: unknown[] };
    recorded.push(
      typeof first === 'string'
        ? { sql: first, params: (args[1] as unknown[] | undefined) ?? [] }
        : { sql: first.text, params: first.values ?? (args[1] as unknown[] | undefined) ?? [] },
    );
  }
  return (originalQuery as (...a: unknown[]) => Promise<unknown>).apply(this, args);
} as typeof originalQuery;

/**
 * Number of SQL statements the app sent while `work` ran (the counter is global: nothing else should use the
 * database meanwhile). Resolves to that count, a whole number.
 */
export async function countStatements(work: () => Promise<unknown>): Promise<number> {
  statements = 0;
  await work();
  return statements;
}

/** The statements (SQL text and parameters) the app sent while `work` ran, in order (for profiling). */
export async function recordStatements(
  work: () => Promise<unknown>,
): Promise<{ sql: string; params: unknown[] }[]> {
  const out: { sql: string; params: unknown[] }[] = [];
  recorded = out;
  try {
    await work();
  } finally {
    recorded = null;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Scratch database

/** `serverUrl` (a `postgres://` URL) with its database name replaced by `database`. */
export function urlWithDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs one SQL statement (e.g. `DROP DATABASE`) on the `postgres` maintenance database of `serverUrl`'s server. */
export async function onMaintenanceDb(serverUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: urlWithDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Drops `database` on `serverUrl`'s server if it exists, terminating its connections. */
export function dropDatabase(serverUrl: string, database: string): Promise<void> {
  return onMaintenanceDb(serverUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
}

// ---------------------------------------------------------------------------------------------------------------
// Timing

/** Figures of one bounded load run. */
export interface Timing {
  /** Requests (or calls) made. */
  requests: number;
  /** Wall-clock duration of the whole run, in seconds. */
  seconds: number;
  /** Median latency of one request, in milliseconds. */
  p50: number;
  /** 99th-percentile latency of one request, in milliseconds. */
  p99: number;
  /** SQL statements sent during the run divided by `requests` (a mean, may be fractional). */
  statementsPerRequest: number;
}

/** The `p`-quantile (0 ≤ p ≤ 1, nearest rank) of `sorted`, which must be sorted ascending and non-empty. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** Milliseconds elapsed since `started` (a `process.hrtime.bigint()` reading). */
function msSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Runs `work` once; resolves to its duration in milliseconds (for `runLoad` on calls that are not HTTP). */
export async function timed(work: () => Promise<unknown>): Promise<{ ms: number }> {
  const started = process.hrtime.bigint();
  await work();
  return { ms: msSince(started) };
}

/**
 * `total` calls of `send(i)` (i = 0 … total-1, in order of start) with `concurrency` of them in flight; each must
 * resolve to its own duration `ms` (milliseconds) and reject on a wrong answer, which fails the run. Resolves to the
 * run's figures; SQL statements are counted from the start of the run.
 */
export async function runLoad(
  total: number,
  concurrency: number,
  send: (i: number) => Promise<{ ms: number }>,
): Promise<Timing> {
  const durations: number[] = [];
  let next = 0;
  statements = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < total) {
      const res = await send(next++);
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

/** Requests (or calls) per second of a run. */
export function rate(t: Timing): number {
  return t.requests / t.seconds;
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP on loopback

/** An HTTP answer: status code (0 if none), body as UTF-8 text, and duration from send to last byte in ms. */
export interface HttpResult {
  status: number;
  body: string;
  ms: number;
}

/**
 * One request to `127.0.0.1:port` on `agent` with `Authorization: Token <token>` and `Accept: application/json`;
 * `body`, if given, is sent as JSON. Rejects on a network error or after 30 s.
 */
export function request(
  agent: http.Agent,
  port: number,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<HttpResult> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const started = process.hrtime.bigint();
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
            ms: msSince(started),
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

/**
 * `res` itself if its status is `status`; otherwise throws `<what>: <status> <first bodyChars characters of the
 * body>`.
 */
export function expectStatus(res: HttpResult, status: number, what: string, bodyChars = 200): HttpResult {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.body.slice(0, bodyChars)}`);
  return res;
}

// ---------------------------------------------------------------------------------------------------------------
// The benchmark run

/** What a benchmark body gets: the booted API, its database and an authenticated client. */
export interface BenchContext {
  app: NestExpressApplication;
  /** The app's own data source (its statements are counted). */
  db: DataSource;
  /** The organizer `bench` (slug and name), its administrators team holding `token`. */
  organizer: Organizer;
  /** An API token of the organizer's administrators. */
  token: string;
  /** `GET path` as the organizer (see `request`). */
  get(path: string): Promise<HttpResult>;
  /** `POST path` with the JSON `body` as the organizer (see `request`). */
  post(path: string, body: unknown): Promise<HttpResult>;
}

export interface BenchOptions {
  /** Name of the scratch database, created on the server of DATABASE_URL and dropped at the end. */
  database: string;
  /** Hard stop in milliseconds: drops the database and exits with code 2. */
  deadlineMs: number;
  /** Sockets of the keep-alive agent (the highest concurrency used). */
  maxSockets: number;
}

/**
 * Creates and migrates `options.database`, boots the API on a loopback port, ensures the organizer `bench` and a
 * token, runs `body`, then closes everything and drops the database, also on failure. Exits the process: 0 on
 * success, 1 after printing the error, 2 if the deadline is reached first.
 */
export function runBenchmark(options: BenchOptions, body: (ctx: BenchContext) => Promise<void>): void {
  const { database, deadlineMs, maxSockets } = options;
  const main = async () => {
    const serverUrl = loadConfig().databaseUrl;
    const databaseUrl = urlWithDatabase(serverUrl, database);
    let app: NestExpressApplication | null = null;
    const agent = new http.Agent({ keepAlive: true, maxSockets });
    const deadline = setTimeout(() => {
      process.stderr.write(
        `Deadline of ${deadlineMs / 1000} s reached; dropping ${database} and stopping.\n`,
      );
      void dropDatabase(serverUrl, database).finally(() => process.exit(2));
    }, deadlineMs);
    deadline.unref();
    try {
      process.stdout.write(`Creating and migrating ${database}...\n`);
      await migrate(databaseUrl);
      app = await createApiApp({
        databaseUrl,
        logLevel: 'error',
        queuePrefix: `bench-${database}`,
        // Receivers of the webhook benchmark listen on 127.0.0.1.
        webhookAllowPrivateTargets: true,
      });
      await app.listen(0, '127.0.0.1');
      const port = (app.getHttpServer().address() as AddressInfo).port;
      const db = app.get<DataSource>(getDataSourceToken());

      const organizer = await app.get(OrganizersService).ensure('bench', 'Bench');
      const teams = app.get(TeamsService);
      const token = await teams.issueToken(await teams.ensureAdministrators(organizer), 'bench');
      await body({
        app,
        db,
        organizer,
        token,
        get: (path) => request(agent, port, token, 'GET', path),
        post: (path, json) => request(agent, port, token, 'POST', path, json),
      });
    } finally {
      agent.destroy();
      if (app) await app.close();
      await dropDatabase(serverUrl, database);
      process.stdout.write(`Dropped ${database}.\n`);
      clearTimeout(deadline);
    }
  };
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(
        `Benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
}

/** Inserts an event of `organizerId` with `slug` (EUR, starting in 30 days); resolves to its id. */
export async function insertEvent(db: DataSource, organizerId: number, slug: string): Promise<number> {
  const events: { id: number }[] = await db.query(
    `INSERT INTO event (organizer_id, name, slug, currency, date_from)
     VALUES ($1, '{"en": "Bench"}', $2, 'EUR', now() + interval '30 days') RETURNING id`,
    [organizerId, slug],
  );
  return events[0].id;
}

/** The columns of `table` a copy by SQL writes: all but `id` and the trigger-kept `changed_xid`. */
async function copiedColumns(db: DataSource, table: string): Promise<string[]> {
  const rows = await db.query<{ column_name: string }[]>(
    `SELECT column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = $1 AND column_name NOT IN ('id', 'changed_xid')
      ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r) => r.column_name);
}

/**
 * Clones the template order `templateId` (its positions numbered 1..`positionsPerOrder`) into `orders` orders by
 * SQL, through the triggers that keep the counts: codes `B0000001`..., three quarters paid and the rest pending,
 * `orderOverrides` replacing more order columns (SQL over the template `t` and the series number `g`); position
 * `k` of each order is product `items[(order id + k) % items.length]`, every 20th position canceled. Used by the
 * benches of quota cost and live figures at 1,000,000 positions.
 */
export async function cloneSpreadOrders(
  db: DataSource,
  templateId: number,
  items: number[],
  load: { orders: number; positionsPerOrder: number; orderOverrides?: Record<string, string> },
): Promise<void> {
  const pick = (cols: string[], overrides: Record<string, string>) =>
    cols.map((c) => overrides[c] ?? `t.${c}`).join(', ');
  const orderCols = await copiedColumns(db, 'orders');
  await db.query(
    `INSERT INTO orders (${orderCols.join(', ')})
     SELECT ${pick(orderCols, {
       code: `'B' || lpad(g::text, 7, '0')`,
       status: `CASE WHEN g % 4 = 0 THEN 'n' ELSE 'p' END`,
       secret: `md5(g::text)`,
       ...load.orderOverrides,
     })}
       FROM orders t, generate_series(1, $2::int) g WHERE t.id = $1`,
    [templateId, load.orders],
  );
  const positionCols = (await copiedColumns(db, 'order_position')).filter((c) => c !== 'exited');
  for (let chunk = 0; chunk < load.positionsPerOrder; chunk++) {
    // One statement per position number: `orders` rows each, through the statement triggers.
    await db.query(
      `INSERT INTO order_position (${positionCols.join(', ')})
       SELECT ${pick(positionCols, {
         order_id: 'o.id',
         positionid: String(chunk + 1),
         item_id: `($2::int[])[1 + (o.id + ${chunk}) % ${items.length}]`,
         secret: `md5(o.id::text || '-' || ${chunk})`,
         pseudonymization_id: `substr(md5(o.id::text || 'p' || ${chunk}), 1, 10)`,
         canceled: `(o.id + ${chunk}) % 20 = 0`,
         addon_to_id: 'NULL',
       })}
         FROM order_position t, orders o
        WHERE t.order_id = $1 AND t.positionid = 1 AND o.code LIKE 'B%' AND o.event_id = t.event_id`,
      [templateId, items],
    );
  }
}

/**
 * Runs a bulk SQL load of orders with the live figures' order totals trigger switched off, then counts every
 * event's totals once (README "Live figures"). That trigger is a deferred row trigger per order at COMMIT: a million
 * orders in one statement would update the 16 stripe rows of their event a million times in one transaction, each
 * update walking the row's growing chain of versions. The count check repairs the same way.
 */
export async function bulkOrders<T>(db: DataSource, load: () => Promise<T>): Promise<T> {
  await db.query('ALTER TABLE orders DISABLE TRIGGER order_totals_orders_insert');
  let result: T;
  try {
    result = await load();
  } finally {
    await db.query('ALTER TABLE orders ENABLE TRIGGER order_totals_orders_insert');
  }
  await db.query('TRUNCATE order_totals');
  await db.query(
    `INSERT INTO order_totals (event_id, status, slot, count, total)
     SELECT event_id, status, (id % 16)::smallint, count(*), sum(total) FROM orders GROUP BY 1, 2, 3`,
  );
  return result;
}

/**
 * Event `E` (a path) gets a product `Ticket` (10.00) with a quota of 1,000,000 and one paid order through the API,
 * then `copies` more paid one-ticket orders copied from it by SQL (codes `C0000001`…, secrets `S` + code), and the
 * tables are analysed. Resolves to the product's id and the first order's id.
 */
export async function loadPaidTickets(
  ctx: Pick<BenchContext, 'db' | 'post'>,
  E: string,
  copies: number,
): Promise<{ item: number; template: number }> {
  const { db, post } = ctx;
  const item = (
    JSON.parse(
      expectStatus(await post(`${E}/items/`, { name: { en: 'Ticket' }, default_price: '10.00' }), 201, 'item')
        .body,
    ) as { id: number }
  ).id;
  expectStatus(await post(`${E}/quotas/`, { name: 'Q', size: 1_000_000, items: [item] }), 201, 'quota');
  const order = JSON.parse(
    expectStatus(await post(`${E}/orders/`, { status: 'p', positions: [{ item }] }), 201, 'order').body,
  ) as { code: string };
  const template = (
    await db.query<{ id: number }[]>('SELECT id FROM orders WHERE code = $1', [order.code])
  )[0].id;
  const pick = (cols: string[], overrides: Record<string, string>) =>
    cols.map((c) => overrides[c] ?? `t.${c}`).join(', ');
  process.stdout.write(`Loading ${copies} tickets by SQL...\n`);
  const orderCols = await copiedColumns(db, 'orders');
  await bulkOrders(db, () =>
    db.query(
      `INSERT INTO orders (${orderCols.join(', ')})
       SELECT ${pick(orderCols, { code: `'C' || lpad(g::text, 7, '0')`, secret: 'md5(g::text)' })}
         FROM orders t, generate_series(1, $2::int) g WHERE t.id = $1`,
      [template, copies],
    ),
  );
  const positionCols = (await copiedColumns(db, 'order_position')).filter((c) => c !== 'exited');
  await db.query(
    `INSERT INTO order_position (${positionCols.join(', ')})
     SELECT ${pick(positionCols, {
       order_id: 'o.id',
       secret: `'S' || o.code`,
       pseudonymization_id: 'substr(md5(o.code), 1, 10)',
     })}
       FROM order_position t, orders o
      WHERE t.order_id = $1 AND o.code LIKE 'C%' AND o.id <> t.order_id AND o.event_id = t.event_id`,
    [template],
  );
  await db.query('ANALYZE');
  return { item, template };
}

// ---------------------------------------------------------------------------------------------------------------
// Report

/** `x` with one decimal (figures of the tables: req/s, ms, statements). */
export function fmt(x: number): string {
  return x.toFixed(1);
}

/**
 * `Machine: <cores> (<model>), <GiB>; Node <v>; PostgreSQL <v>; <date>; load <1, 5, 15 min>` (queries the server
 * version; the load average is read at the end of the run, so figures can be compared with what else ran).
 */
export async function machineLine(db: DataSource): Promise<string> {
  const pg: { server_version: string }[] = await db.query('SHOW server_version');
  return (
    `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB; ` +
    `Node ${process.version}; PostgreSQL ${pg[0].server_version}; ${new Date().toISOString().slice(0, 10)}; ` +
    `load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}`
  );
}

/** A Markdown table row: `| a | b | … |`. */
function tableRow(cells: (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

/**
 * Head of a Markdown table of runs (two lines): the `leading` titles (e.g. `['run']`), then requests, the rate
 * (titled `rateTitle`), p50 ms, p99 ms and SQL statements / request; its rows come from `timingRow`.
 */
export function timingHead(leading: string[], rateTitle = 'req/s'): string[] {
  const titles = [...leading, 'requests', rateTitle, 'p50 ms', 'p99 ms', 'SQL statements / request'];
  return [tableRow(titles), `|${'---|'.repeat(titles.length)}`];
}

/** A row of the `timingHead` table: the `leading` cells, then the run's figures (one decimal each but requests). */
export function timingRow(leading: (string | number)[], t: Timing): string {
  return tableRow([
    ...leading,
    t.requests,
    fmt(rate(t)),
    fmt(t.p50),
    fmt(t.p99),
    fmt(t.statementsPerRequest),
  ]);
}

/** `1 -> 9, 10 -> 9, 50 -> 9` for statement counts keyed by page size. */
export function formatCounts(counts: Record<number, number>): string {
  return Object.entries(counts)
    .map(([key, n]) => `${key} -> ${n}`)
    .join(', ');
}
