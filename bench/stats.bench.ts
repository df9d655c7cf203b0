/**
 * Benchmark of the live figures (README "Live figures"; issue 27 §5): `GET E/stats/` on an empty event and on the
 * same event with 1,000,000 order positions, 100,000 orders and 200,000 check-ins, all loaded by SQL through the
 * triggers that keep the counters (timed: the load itself). The goal: p50 under 20 ms at 1M positions.
 *
 * It creates its own database (`ticketing_bench_stats_<pid>`), migrates it, boots the API on a loopback port and
 * creates one event with ten items (each its own quota) and two check-in lists. Phase 1: p50/p99 of 300
 * sequential GETs after 50 warm-up. Then 100,000 orders of ten positions each are cloned from an order made
 * through the API (three quarters paid, the rest pending, every 20th position canceled), and 150,000 entries and
 * 50,000 exits scanned on the first list; `ANALYZE`. The answer is checked against a recount of the rows (orders
 * by status with their sums, check-ins, paid per quota), then phase 2 measures again. Reported: p50/p99,
 * requests per second, SQL statements per GET. The database is dropped at the end, also on failure.
 *
 * Run: `npx ts-node --transpile-only bench/stats.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import type { DataSource } from 'typeorm';
import * as bench from './bench-harness';

const ITEMS = 10;
const ORDERS = 100_000;
const POSITIONS_PER_ORDER = 10;
const ENTRIES = 150_000;
const EXITS = 50_000;
const CALLS = 300;
const WARMUP = 50;

/** Loads the orders, positions and scans by SQL (through the triggers); returns the seconds it took. */
async function load(db: DataSource, templateId: number, items: number[], listId: number): Promise<number> {
  const started = Date.now();
  await bench.cloneSpreadOrders(db, templateId, items, {
    orders: ORDERS,
    positionsPerOrder: POSITIONS_PER_ORDER,
    orderOverrides: { total: `(100 + g % 7)::numeric` },
  });
  for (const [type, limit, offset] of [
    ['entry', ENTRIES, 0],
    ['exit', EXITS, 0],
  ] as const) {
    await db.query(
      `INSERT INTO checkin (position_id, list_id, event_id, type, datetime)
       SELECT p.id, $2, p.event_id, $1, now() FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE o.status = 'p' AND NOT p.canceled AND o.code LIKE 'B%' ORDER BY p.id LIMIT $3 OFFSET $4`,
      [type, listId, limit, offset],
    );
  }
  await db.query('ANALYZE');
  return (Date.now() - started) / 1000;
}

bench.runBenchmark(
  { database: `ticketing_bench_stats_${process.pid}`, deadlineMs: 30 * 60_000, maxSockets: 1 },
  async ({ db, organizer, get, post }) => {
    const eventId = await bench.insertEvent(db, organizer.id, 'stats');
    const E = '/api/v1/organizers/bench/events/stats';
    const items: number[] = [];
    for (let i = 1; i <= ITEMS; i++) {
      const item = bench.expectStatus(
        await post(`${E}/items/`, { name: { en: `Item ${i}` }, default_price: '10.00' }),
        201,
        'POST items',
      );
      const id = (JSON.parse(item.body) as { id: number }).id;
      items.push(id);
      bench.expectStatus(
        await post(`${E}/quotas/`, { name: `Q${i}`, size: 10_000_000, items: [id] }),
        201,
        'POST quotas',
      );
    }
    const lists: number[] = [];
    for (const name of ['Main', 'VIP']) {
      const res = bench.expectStatus(
        await post(`${E}/checkinlists/`, { name, all_products: true, allow_multiple_entries: true }),
        201,
        'POST checkinlists',
      );
      lists.push((JSON.parse(res.body) as { id: number }).id);
    }
    const template = bench.expectStatus(
      await post(`${E}/orders/`, { status: 'p', positions: [{ item: items[0] }] }),
      201,
      'POST orders',
    );
    const templateCode = (JSON.parse(template.body) as { code: string }).code;
    const templateId = (
      await db.query<{ id: number }[]>('SELECT id FROM orders WHERE code = $1', [templateCode])
    )[0].id;

    const stats = async () => bench.expectStatus(await get(`${E}/stats/`), 200, 'GET stats');
    const measure = async () => {
      await bench.runLoad(WARMUP, 1, stats);
      return bench.runLoad(CALLS, 1, stats);
    };

    process.stdout.write('Phase 1: empty event...\n');
    const empty = await measure();
    process.stdout.write(`Loading ${ORDERS * POSITIONS_PER_ORDER} order positions and scans by SQL...\n`);
    const loadSeconds = await load(db, templateId, items, lists[0]);
    const positions = (
      await db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM order_position WHERE event_id = $1', [
        eventId,
      ])
    )[0].n;

    // The answer is right: against a recount of the rows.
    const got = JSON.parse((await stats()).body) as {
      orders: Record<string, { count: number; total: string }>;
      quotas: { paid: number }[];
      checkin_lists: { id: number; checked_in: number; inside: number }[];
    };
    const orders: { status: string; count: number; total: string }[] = await db.query(
      `SELECT status, COUNT(*)::int AS count, SUM(total)::numeric(15,2)::text AS total FROM orders
        WHERE event_id = $1 GROUP BY status`,
      [eventId],
    );
    for (const o of orders) {
      if (got.orders[o.status].count !== o.count || got.orders[o.status].total !== o.total) {
        throw new Error(
          `orders ${o.status}: ${JSON.stringify(got.orders[o.status])} <> ${JSON.stringify(o)}`,
        );
      }
    }
    const paid: { n: number }[] = await db.query(
      `SELECT COUNT(*)::int AS n FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE p.item_id = $1 AND NOT p.canceled AND o.status = 'p'`,
      [items[0]],
    );
    if (got.quotas[0].paid !== paid[0].n) throw new Error(`paid ${got.quotas[0].paid} <> ${paid[0].n}`);
    const main = got.checkin_lists.find((l) => l.id === lists[0])!;
    if (main.checked_in !== ENTRIES || main.inside !== ENTRIES - EXITS) {
      throw new Error(`check-ins ${JSON.stringify(main)}`);
    }
    process.stdout.write(`Checked against the rows: ${JSON.stringify({ orders, paid: paid[0].n, main })}.\n`);

    process.stdout.write('Phase 2: 1M positions...\n');
    const full = await measure();
    const statements = await bench.countStatements(() => stats());
    const lines = [
      '',
      `Live figures GET E/stats/ (${ITEMS} items with a quota each, 2 check-in lists; ${CALLS} GETs sequential ` +
        `after ${WARMUP} warm-up)`,
      await bench.machineLine(db),
      '',
      `Loaded ${positions} order positions (${ORDERS} orders, ${ENTRIES} entries and ${EXITS} exits) in ` +
        `${loadSeconds.toFixed(1)} s`,
      '',
      ...bench.timingHead(['phase', 'request'], 'req/s'),
      bench.timingRow(['empty', 'GET stats'], empty),
      bench.timingRow(['1M positions', 'GET stats'], full),
      '',
      `Stats p50: empty ${bench.fmt(empty.p50)} ms, 1M ${bench.fmt(full.p50)} ms; ${statements} SQL statements per GET`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  },
);
