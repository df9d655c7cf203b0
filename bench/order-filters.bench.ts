/**
 * Benchmark of the exact filters of the order and position lists (issue 27 §6, README "Exact filters"): each
 * filter costs what its matches cost, not what the event holds. One event gets ten target orders (two positions
 * each) that every filter finds, then filler orders by SQL (two positions each, 95 % paid, 5 % canceled, placed
 * in 2020, a tenth with another customer): first up to 10,000 positions, then up to 1,000,000. At each size, after
 * ANALYZE, every filter is timed on `E/orders/`, `O/orders/`, `E/orderpositions/` and `O/orderpositions/`
 * (sequential requests, page size 50), and its page statement (recorded from the request) is run with EXPLAIN
 * ANALYZE for the server-side time and the indexes of its plan. Loads are followed by VACUUM ANALYZE and a
 * checkpoint.
 * Figures go to stdout as a Markdown table (copied to /work/notes/bench-filters.md).
 *
 * Run: `npx ts-node --transpile-only bench/order-filters.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import type { DataSource } from 'typeorm';
import * as bench from './bench-harness';

const SMALL = 10_000;
const LARGE = 1_000_000;
/** Target orders; each has two positions. */
const TARGETS = 10;
const REQUESTS = 30;
const WARMUP = 3;

/** One filter as each list takes it (null: the list has no such filter). */
interface FilterCase {
  name: string;
  orders: string | null;
  positions: string | null;
}

function cases(itemB: number): FilterCase[] {
  const same = (name: string, query: string): FilterCase => ({ name, orders: query, positions: query });
  return [
    same('email', 'email=TARGET@example.org'),
    same('attendee_email', 'attendee_email=target.attendee@EXAMPLE.org'),
    same('attendee_name', 'attendee_name=tara%20TARGET'),
    same('secret', 'secret=TARGETSECRET1-1'),
    same('customer', 'customer=TARGETCUST'),
    same('item__in', `item__in=${itemB}`),
    { name: 'status__in', orders: 'status__in=n,e', positions: 'order__status__in=n,e' },
    same('datetime range', 'datetime_since=2030-01-01T00:00:00Z&datetime_until=2030-01-02T00:00:00Z'),
  ];
}

/** The ten target orders (pending, customer, 2030) and their positions of product `itemB`. */
async function loadTargets(
  db: DataSource,
  eventId: number,
  organizerId: number,
  itemB: number,
): Promise<void> {
  await db.query(
    `INSERT INTO orders (event_id, organizer_id, code, status, secret, email, datetime, expires, total, customer)
     SELECT $1, $2, 'T' || lpad(g::text, 8, '0'), 'n', md5('t' || g), 'Target@Example.org',
            '2030-01-01T00:00:00Z'::timestamptz + g * interval '1 hour', now() + interval '30 days', 20, 'TARGETCUST'
       FROM generate_series(1, $3::int) g`,
    [eventId, organizerId, TARGETS],
  );
  await db.query(
    `INSERT INTO order_position (order_id, event_id, positionid, item_id, price, secret, pseudonymization_id,
                                 attendee_email, attendee_name_parts)
     SELECT o.id, o.event_id, k, $2, 10, 'TARGETSECRET' || ltrim(substr(o.code, 2), '0') || '-' || k,
            substr(md5(o.code || k), 1, 10), 'Target.Attendee@example.org',
            '{"given_name": "Tara", "family_name": "Target"}'::jsonb
       FROM orders o, generate_series(1, 2) k WHERE o.event_id = $1 AND o.code LIKE 'T%'`,
    [eventId, itemB],
  );
}

/** Filler orders `from`..`to` (two positions of product `itemA` each), then ANALYZE. */
async function loadFiller(
  db: DataSource,
  eventId: number,
  organizerId: number,
  itemA: number,
  from: number,
  to: number,
): Promise<void> {
  await bench.bulkOrders(db, () =>
    db.query(
      `INSERT INTO orders (event_id, organizer_id, code, status, secret, email, datetime, expires, total, customer)
     SELECT $1, $2, 'F' || lpad(g::text, 8, '0'), CASE WHEN g % 20 = 0 THEN 'c' ELSE 'p' END, md5(g::text),
            'buyer' || g || '@bulk.example', '2020-01-01T00:00:00Z'::timestamptz + g * interval '1 minute',
            now(), 20, CASE WHEN g % 10 = 0 THEN 'CUST' || (g % 1000) END
       FROM generate_series($3::int, $4::int) g`,
      [eventId, organizerId, from, to],
    ),
  );
  await db.query(
    `INSERT INTO order_position (order_id, event_id, positionid, item_id, price, secret, pseudonymization_id,
                                 attendee_email, attendee_name_parts, canceled)
     SELECT o.id, o.event_id, k, $2, 10, 'S' || o.code || '-' || k, substr(md5(o.code || k), 1, 10),
            'att' || o.code || '-' || k || '@bulk.example',
            jsonb_build_object('given_name', 'G' || o.code || k, 'family_name', 'Bulk'), o.status = 'c'
       FROM orders o, generate_series(1, 2) k
      WHERE o.event_id = $1 AND o.code BETWEEN 'F' || lpad($3::text, 8, '0') AND 'F' || lpad($4::text, 8, '0')`,
    [eventId, itemA, from, to],
  );
}

/** After a load: VACUUM ANALYZE and a checkpoint, so no background catch-up work skews the timings. */
async function settle(db: DataSource): Promise<void> {
  await db.query('VACUUM ANALYZE orders, order_position');
  await db.query('CHECKPOINT');
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };
const TABLES = ['orders', 'order_position'];

/**
 * The page statement of `path` as the list ran it (recorded), planned and run by EXPLAIN ANALYZE `runs` times:
 * the median server-side execution time (ms) and the indexes on `orders` / `order_position` of the plan (or the
 * tables scanned sequentially, flagged).
 */
async function planOf(
  ctx: bench.BenchContext,
  path: string,
  runs = 5,
): Promise<{ ms: number; indexes: string }> {
  const statements = await bench.recordStatements(() => ctx.get(path));
  const page = statements.find((s) => s.sql.includes('COUNT(*) OVER ()'));
  if (!page) throw new Error(`no page statement for ${path}`);
  const times: number[] = [];
  let plan: PlanNode | undefined;
  for (let i = 0; i < runs; i++) {
    const rows = await ctx.db.query<{ 'QUERY PLAN': { Plan: PlanNode; 'Execution Time': number }[] }[]>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${page.sql}`,
      page.params,
    );
    times.push(rows[0]['QUERY PLAN'][0]['Execution Time']);
    plan = rows[0]['QUERY PLAN'][0].Plan;
  }
  times.sort((a, b) => a - b);
  const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
  const all = nodes(plan!);
  const seq = all.filter((n) => n['Node Type'] === 'Seq Scan' && TABLES.includes(n['Relation Name'] ?? ''));
  const names = new Set(
    all
      .filter((n) => TABLES.includes(n['Relation Name'] ?? '') && n['Index Name'])
      .map((n) => n['Index Name']!),
  );
  const indexes =
    seq.length > 0
      ? `SEQ SCAN of ${seq.map((n) => n['Relation Name']).join(', ')}`
      : [...names].map((n) => `\`${n}\``).join(', ');
  return { ms: bench.percentile(times, 0.5), indexes };
}

/** p50 / p99 of `REQUESTS` sequential GETs of `path` (after a warm-up), checking 200 and the expected count. */
async function time(ctx: bench.BenchContext, path: string, count: number): Promise<bench.Timing> {
  const once = async () => {
    const res = bench.expectStatus(await ctx.get(path), 200, path);
    const got = (JSON.parse(res.body) as { count: number }).count;
    if (got !== count) throw new Error(`${path}: count ${got}, expected ${count}`);
    return { ms: res.ms };
  };
  for (let i = 0; i < WARMUP; i++) await once();
  return bench.runLoad(REQUESTS, 1, once);
}

bench.runBenchmark(
  { database: `ticketing_bench_filters_${process.pid}`, deadlineMs: 40 * 60_000, maxSockets: 2 },
  async (ctx) => {
    const { db, organizer } = ctx;
    const eventId = await bench.insertEvent(db, organizer.id, 'filters');
    const E = '/api/v1/organizers/bench/events/filters';
    const O = '/api/v1/organizers/bench';
    const item = async (name: string) => {
      const res = bench.expectStatus(
        await ctx.post(`${E}/items/`, { name: { en: name }, default_price: '10.00' }),
        201,
        'item',
      );
      return (JSON.parse(res.body) as { id: number }).id;
    };
    const itemA = await item('Filler');
    const itemB = await item('Target');
    await loadTargets(db, eventId, organizer.id, itemB);
    const lists = [
      { name: 'E/orders/', path: `${E}/orders/`, kind: 'orders' as const },
      { name: 'O/orders/', path: `${O}/orders/`, kind: 'orders' as const },
      { name: 'E/orderpositions/', path: `${E}/orderpositions/`, kind: 'positions' as const },
      { name: 'O/orderpositions/', path: `${O}/orderpositions/`, kind: 'positions' as const },
    ];
    /** Expected count per filter and list kind (the secret finds one position, in one order). */
    const expected = (c: FilterCase, kind: 'orders' | 'positions') =>
      c.name === 'secret' ? 1 : kind === 'orders' ? TARGETS : 2 * TARGETS;

    type Figures = { timing: bench.Timing; sqlMs: number; indexes: string };
    const results = new Map<string, { small?: Figures; large?: Figures }>();
    const measure = async (size: 'small' | 'large') => {
      for (const c of cases(itemB)) {
        for (const list of lists) {
          const query = c[list.kind];
          if (query === null) continue;
          const path = `${list.path}?${query}`;
          const key = `${c.name}|${list.name}`;
          const entry = results.get(key) ?? {};
          const timing = await time(ctx, path, expected(c, list.kind));
          const { ms, indexes } = await planOf(ctx, path);
          entry[size] = { timing, sqlMs: ms, indexes };
          results.set(key, entry);
        }
      }
    };

    const positionsPerOrder = 2;
    const smallOrders = SMALL / positionsPerOrder - TARGETS;
    let started = Date.now();
    await loadFiller(db, eventId, organizer.id, itemA, 1, smallOrders);
    await settle(db);
    process.stdout.write(`Loaded ${SMALL} positions in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    await measure('small');
    started = Date.now();
    const largeOrders = LARGE / positionsPerOrder - TARGETS;
    const step = 100_000;
    for (let from = smallOrders + 1; from <= largeOrders; from += step) {
      await loadFiller(db, eventId, organizer.id, itemA, from, Math.min(largeOrders, from + step - 1));
    }
    await settle(db);
    const [{ n }] = await db.query<{ n: string }[]>('SELECT count(*) AS n FROM order_position');
    process.stdout.write(`Loaded ${n} positions in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    await measure('large');

    const lines = [
      `## Exact filters: ${SMALL.toLocaleString('en')} vs ${LARGE.toLocaleString('en')} positions`,
      '',
      `${await bench.machineLine(db)}`,
      '',
      `One event; ${TARGETS} target orders (${2 * TARGETS} positions) match each filter (the secret: one position);`,
      `the rest is filler. ${REQUESTS} sequential requests per row after ${WARMUP} warm-up ones, page size 50.`,
      '',
      'HTTP: p50 of the whole request (API and database); SQL: median server-side execution time of the page',
      "statement (EXPLAIN ANALYZE of the list's own SQL and parameters, 5 runs); indexes: the plan at 1M.",
      '',
      '| filter | list | HTTP p50 ms @10k | HTTP p50 ms @1M | ratio | SQL ms @10k | SQL ms @1M | SQL / request | indexes at 1M |',
      '|---|---|---|---|---|---|---|---|---|',
    ];
    for (const [key, r] of results) {
      const [name, list] = key.split('|');
      const small = r.small!;
      const large = r.large!;
      lines.push(
        `| ${name} | ${list} | ${bench.fmt(small.timing.p50)} | ${bench.fmt(large.timing.p50)} | ` +
          `${(large.timing.p50 / small.timing.p50).toFixed(2)} | ${small.sqlMs.toFixed(2)} | ${large.sqlMs.toFixed(2)} | ` +
          `${bench.fmt(large.timing.statementsPerRequest)} | ${large.indexes} |`,
      );
    }
    process.stdout.write(`\n${lines.join('\n')}\n\n`);
  },
);
