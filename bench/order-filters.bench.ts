/**
 * Benchmark of the exact filters of the order and position lists (issue 27 §6, README "Exact filters"): each
 * filter costs what its matches cost, not what the event holds. One event gets ten target orders (two positions
 * each) that every filter finds, then filler orders by SQL (two positions each, 95 % paid, 5 % canceled, placed
 * in 2020, a tenth with another customer): first up to 10,000 positions, then up to 1,000,000. At each size, after
 * ANALYZE, every filter is timed on `E/orders/`, `O/orders/`, `E/orderpositions/` and `O/orderpositions/`
 * (sequential requests, page size 50), and the indexes its page statement is planned on are read with EXPLAIN.
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
    { name: 'status__in', orders: 'status__in=n', positions: 'order__status__in=n' },
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
  await db.query(
    `INSERT INTO orders (event_id, organizer_id, code, status, secret, email, datetime, expires, total, customer)
     SELECT $1, $2, 'F' || lpad(g::text, 8, '0'), CASE WHEN g % 20 = 0 THEN 'c' ELSE 'p' END, md5(g::text),
            'buyer' || g || '@bulk.example', '2020-01-01T00:00:00Z'::timestamptz + g * interval '1 minute',
            now(), 20, CASE WHEN g % 10 = 0 THEN 'CUST' || (g % 1000) END
       FROM generate_series($3::int, $4::int) g`,
    [eventId, organizerId, from, to],
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
  await db.query('ANALYZE orders');
  await db.query('ANALYZE order_position');
}

/** The indexes on `orders` / `order_position` the page statement of `path` is planned on (EXPLAIN, no ANALYZE). */
async function indexesOf(ctx: bench.BenchContext, path: string): Promise<string> {
  const statements = await bench.recordStatements(() => ctx.get(path));
  const page = statements.find((s) => s.sql.includes('COUNT(*) OVER ()'));
  if (!page) throw new Error(`no page statement for ${path}`);
  type Node = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: Node[] };
  const rows = await ctx.db.query<{ 'QUERY PLAN': { Plan: Node }[] }[]>(
    `EXPLAIN (FORMAT JSON) ${page.sql}`,
    page.params,
  );
  const nodes = (n: Node): Node[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
  const all = nodes(rows[0]['QUERY PLAN'][0].Plan);
  const seq = all.filter(
    (n) => n['Node Type'] === 'Seq Scan' && ['orders', 'order_position'].includes(n['Relation Name'] ?? ''),
  );
  if (seq.length > 0) return `SEQ SCAN of ${seq.map((n) => n['Relation Name']).join(', ')}`;
  const names = new Set(
    all
      .filter((n) => ['orders', 'order_position'].includes(n['Relation Name'] ?? '') && n['Index Name'])
      .map((n) => n['Index Name']!),
  );
  return [...names].map((n) => `\`${n}\``).join(', ');
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

    const results = new Map<string, { small?: bench.Timing; large?: bench.Timing; plan?: string }>();
    const measure = async (size: 'small' | 'large') => {
      for (const c of cases(itemB)) {
        for (const list of lists) {
          const query = c[list.kind];
          if (query === null) continue;
          const path = `${list.path}?${query}`;
          const key = `${c.name}|${list.name}`;
          const entry = results.get(key) ?? {};
          entry[size] = await time(ctx, path, expected(c, list.kind));
          if (size === 'large') entry.plan = await indexesOf(ctx, path);
          results.set(key, entry);
        }
      }
    };

    const positionsPerOrder = 2;
    const smallOrders = SMALL / positionsPerOrder - TARGETS;
    let started = Date.now();
    await loadFiller(db, eventId, organizer.id, itemA, 1, smallOrders);
    process.stdout.write(`Loaded ${SMALL} positions in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    await measure('small');
    started = Date.now();
    const largeOrders = LARGE / positionsPerOrder - TARGETS;
    const step = 100_000;
    for (let from = smallOrders + 1; from <= largeOrders; from += step) {
      await loadFiller(db, eventId, organizer.id, itemA, from, Math.min(largeOrders, from + step - 1));
    }
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
      '| filter | list | p50 ms @10k | p50 ms @1M | p99 ms @1M | ratio p50 | SQL / request | indexes at 1M (EXPLAIN) |',
      '|---|---|---|---|---|---|---|---|',
    ];
    for (const [key, r] of results) {
      const [name, list] = key.split('|');
      const small = r.small!;
      const large = r.large!;
      lines.push(
        `| ${name} | ${list} | ${bench.fmt(small.p50)} | ${bench.fmt(large.p50)} | ${bench.fmt(large.p99)} | ` +
          `${(large.p50 / small.p50).toFixed(2)} | ${bench.fmt(large.statementsPerRequest)} | ${r.plan} |`,
      );
    }
    process.stdout.write(`\n${lines.join('\n')}\n\n`);
  },
);
