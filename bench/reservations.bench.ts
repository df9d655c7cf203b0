/**
 * Benchmark of quota reservations: cart-position creations per second (`POST E/cartpositions/`) on ONE quota versus
 * spread over TEN quotas of the same event (bench/README.md "Reservations": the second must not be slower, since
 * reservations lock only the quota rows involved and there is no event-wide lock; architecture.md "Concurrency").
 *
 * It creates its own database (`ticketing_bench_res_<pid>` on the server of DATABASE_URL), migrates it, boots the
 * API exactly as production does (`createApiApp`) on a loopback port, and for each scenario creates a fresh event
 * (so both start with no carts): one item with one quota, or ten items each with its own quota. Quotas are large
 * enough never to sell out, so every request does the full reservation (lock, count, insert). Each scenario gets a
 * warm-up, then the same bounded number of requests with the same concurrency; the scenarios run twice in
 * alternating order (A B A B) to expose noise. Every answer must be 201, and afterwards the positions in the
 * database and the quota engine's `cart_positions` must equal the requests sent. Reported: reservations per second,
 * p50 and p99 latency, SQL statements per request (counted on `PostgresQueryRunner.prototype.query`), and CPU
 * milliseconds per request of this process (API and client) and of the database's PostgreSQL backends (read from
 * `/proc` when the server runs on this machine; {@link cpuNow}). The database
 * is dropped at the end, also on failure; a deadline stops the run if anything hangs. The shared machinery is in
 * `bench-harness.ts`.
 *
 * Run: `npx ts-node --transpile-only bench/reservations.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import { readFileSync } from 'fs';
import type { DataSource } from 'typeorm';
import { QuotaLookup } from '../src/catalogue/quotas/quota-lookup.service';
import { Quota } from '../src/catalogue/quotas/quota.entity';
import { QuotaEngine } from '../src/orders/quota-engine/quota-engine.service';
import * as bench from './bench-harness';

/** Requests per measured run (the same for both scenarios). */
const REQUESTS = 1500;
const WARMUP = 100;
const CONCURRENCY = 8;
const ROUNDS = 2;

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
  const eventId = await bench.insertEvent(db, organizerId, slug);
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

/**
 * CPU time so far of this process (the API and its HTTP client) and of each PostgreSQL client backend serving this
 * database (by pid; autovacuum and other server processes are left out), in milliseconds; `pg` is null when the
 * server's processes cannot be read (not on this machine). Read from `/proc` (clock ticks of 10 ms).
 */
async function cpuNow(db: DataSource): Promise<{ node: number; pg: Map<number, number> | null }> {
  const usage = process.cpuUsage();
  const node = (usage.user + usage.system) / 1000;
  const rows: { pid: number }[] = await db.query(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'`,
  );
  const pg = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      pg.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      return { node, pg: null };
    }
  }
  return { node, pg };
}

/** PostgreSQL CPU milliseconds between two {@link cpuNow} readings (a backend started meanwhile counts in full). */
function pgSpent(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (before === null || after === null) return null;
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms;
}

bench.runBenchmark(
  {
    database: `ticketing_bench_res_${process.pid}`,
    /** Hard stop: the whole run normally takes about a minute. */
    deadlineMs: 10 * 60_000,
    maxSockets: CONCURRENCY,
  },
  async ({ app, db, organizer, post }) => {
    const engine = app.get(QuotaEngine);
    const scenarios: Scenario[] = [
      { label: 'one quota', quotas: 1 },
      { label: 'ten quotas', quotas: 10 },
    ];
    const results: {
      scenario: Scenario;
      round: number;
      timing: bench.Timing;
      /** CPU milliseconds per request: this process (API and client), the database's backends. */
      cpu: { node: number; pg: number | null };
    }[] = [];
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
        // Request i reserves one place of items[i % items.length].
        const send = async (i: number) =>
          bench.expectStatus(
            await post(path, { item: items[i % items.length], price: '10.00' }),
            201,
            `POST ${path}`,
          );
        await bench.runLoad(WARMUP, CONCURRENCY, send);
        // Profile (BENCH_EXPLAIN=1): the statements of one reservation, in order (one more position is created).
        if (process.env.BENCH_EXPLAIN && round === 1) {
          const sent = await bench.recordStatements(() => send(0));
          for (const s of sent) process.stdout.write(`  ${s.sql.replace(/\s+/g, ' ').slice(0, 160)}\n`);
        }
        const cpuBefore = await cpuNow(db);
        const timing = await bench.runLoad(REQUESTS, CONCURRENCY, send);
        const cpuAfter = await cpuNow(db);
        const pgMs = pgSpent(cpuBefore.pg, cpuAfter.pg);
        // Every request reserved exactly one place: check the rows and what the engine counts.
        const rows: { n: number }[] = await db.query(
          'SELECT count(*)::int AS n FROM cart_position WHERE event_id = $1',
          [eventId],
        );
        const quotas = await app.get(QuotaLookup).load(
          db.manager,
          (await db.getRepository(Quota).find({ where: { eventId } })).map((q) => q.id),
          false,
        );
        const counted = [...(await engine.compute(db.manager, quotas)).values()].reduce(
          (n, a) => n + a.cart_positions,
          0,
        );
        const sentTotal = REQUESTS + WARMUP + (process.env.BENCH_EXPLAIN && round === 1 ? 1 : 0);
        if (rows[0].n !== sentTotal || counted !== sentTotal) {
          throw new Error(`Expected ${sentTotal} positions, found ${rows[0].n}, engine counts ${counted}`);
        }
        results.push({
          scenario,
          round,
          timing,
          cpu: {
            node: (cpuAfter.node - cpuBefore.node) / REQUESTS,
            pg: pgMs === null ? null : pgMs / REQUESTS,
          },
        });
      }
    }

    const lines = [
      '',
      `POST cartpositions/ (${REQUESTS} creations per run after ${WARMUP} warm-up, ${CONCURRENCY} in flight, keep-alive)`,
      await bench.machineLine(db),
      '',
      ...bench.timingHead(['round', 'scenario'], 'reservations/s'),
      ...results.map(({ scenario, round, timing }) => bench.timingRow([round, scenario.label], timing)),
      '',
    ];
    const mean = (label: string) => {
      const rs = results.filter((r) => r.scenario.label === label).map((r) => bench.rate(r.timing));
      return rs.reduce((a, b) => a + b, 0) / rs.length;
    };
    const one = mean('one quota');
    const ten = mean('ten quotas');
    lines.push(
      'CPU ms per request (this process: API and HTTP client; PostgreSQL backends of the database):',
      ...results.map(
        ({ scenario, round, cpu }) =>
          `  round ${round}, ${scenario.label}: node ${cpu.node.toFixed(2)}, PostgreSQL ${cpu.pg === null ? 'n/a' : cpu.pg.toFixed(2)}`,
      ),
      '',
      `Mean reservations/s: one quota ${bench.fmt(one)}, ten quotas ${bench.fmt(ten)} (ten/one = ${(ten / one).toFixed(2)})`,
      '',
    );
    process.stdout.write(lines.join('\n'));
  },
);
