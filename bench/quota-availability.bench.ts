/**
 * Benchmark of `GET E/quotas/?with_availability=true` (bench/README.md "Quota availability"; docs/style.md
 * "Tests": benchmarks report figures and are not part of `npm test`).
 *
 * It creates its own database (`ticketing_bench_<pid>` on the server of DATABASE_URL), migrates it, boots the API
 * exactly as production does (`createApiApp`) on a loopback port, loads one event with 50 quotas over 50 items
 * and 10,000 vouchers (blocking and not, item- and quota-level, some expired or used up) by SQL, checks the
 * answers against a naive per-quota SQL count, then times a warm-up and a bounded number of requests (sequential,
 * then with a fixed concurrency) and reports req/s, p50, p99 and the SQL statements per request (counted on
 * `PostgresQueryRunner.prototype.query`). The database is dropped at the end, also on failure; a deadline stops
 * the run if anything hangs. The shared machinery is in `bench-harness.ts`.
 *
 * Run: `npx ts-node bench/quota-availability.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import type { DataSource } from 'typeorm';
import { QuotaLookup } from '../src/catalogue/quotas/quota-lookup.service';
import { Quota } from '../src/catalogue/quotas/quota.entity';
import { QuotaEngine } from '../src/orders/quota-engine/quota-engine.service';
import * as bench from './bench-harness';

const QUOTAS = 50;
const ITEMS = 50;
const VOUCHERS = 10_000;
const PAGE_SIZE = 50;
const WARMUP = 50;
const SEQUENTIAL = 300;
const CONCURRENT = 300;
const CONCURRENCY = 8;
const ENGINE_CALLS = 200;

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

bench.runBenchmark(
  {
    database: `ticketing_bench_${process.pid}`,
    /** Hard stop: the whole run normally takes well under a minute. */
    deadlineMs: 5 * 60_000,
    maxSockets: CONCURRENCY,
  },
  async ({ app, db, organizer, get }) => {
    const eventId = await bench.insertEvent(db, organizer.id, 'bench');
    process.stdout.write(`Loading ${QUOTAS} quotas, ${ITEMS} items, ${VOUCHERS} vouchers...\n`);
    await load(db, eventId);

    const path = `/api/v1/organizers/bench/events/bench/quotas/?with_availability=true&page_size=${PAGE_SIZE}`;
    const first = await get(path);
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
      perPage[size] = await bench.countStatements(async () => {
        const res = await get(path.replace(/page_size=\d+/, `page_size=${size}`));
        if (res.status !== 200) throw new Error(`page_size=${size}: ${res.status}`);
      });
    }

    const send = async () => bench.expectStatus(await get(path), 200, `GET ${path}`);
    await bench.runLoad(WARMUP, 1, send);
    const sequential = await bench.runLoad(SEQUENTIAL, 1, send);
    const concurrent = await bench.runLoad(CONCURRENT, CONCURRENCY, send);

    // The engine alone: one compute() for the 50 quotas, through the app's data source.
    const engine = app.get(QuotaEngine);
    const quotas = await app.get(QuotaLookup).load(
      db.manager,
      (await db.getRepository(Quota).find({ where: { eventId } })).map((q) => q.id),
      false,
    );
    const engineRun = await bench.runLoad(ENGINE_CALLS, 1, () =>
      bench.timed(() => engine.compute(db.manager, quotas)),
    );

    const lines = [
      '',
      `GET quotas/?with_availability=true (page size ${PAGE_SIZE}; ${QUOTAS} quotas, ${ITEMS} items, ${VOUCHERS} vouchers)`,
      await bench.machineLine(db),
      '',
      ...bench.timingHead(['run']),
      bench.timingRow(['sequential'], sequential),
      bench.timingRow([`concurrency ${CONCURRENCY}`], concurrent),
      '',
      `SQL statements per request by page size: ${bench.formatCounts(perPage)}`,
      `Engine compute() for ${QUOTAS} quotas: ${bench.fmt(engineRun.statementsPerRequest)} statement(s), p50 ${bench.fmt(engineRun.p50)} ms, ` +
        `p99 ${bench.fmt(engineRun.p99)} ms (${ENGINE_CALLS} calls)`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  },
);
