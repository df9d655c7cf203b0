/**
 * Benchmark of order changes (bench/README.md "Order changes"; docs/style.md "Tests": benchmarks report figures and
 * are not part of `npm test`).
 *
 * It creates its own database (`ticketing_bench_order_change_<pid>` on the server of DATABASE_URL), migrates it,
 * boots the API exactly as production does on a loopback port, loads one event with two items (each on its own
 * quota, large enough never to sell out, 19 % VAT) by SQL, creates orders of 1 and of 20 positions through
 * `POST E/orders/`, then times `POST E/orders/{code}/change/` swapping the product of one position (the other
 * item, so one quota gives a place and the other takes one under its lock) with 8 in flight, each request on
 * another order, for both order sizes. It checks the quota engine's counts afterwards and counts the SQL
 * statements of one change per order size (they must not grow with the order). The database is dropped at the
 * end, also on failure; a deadline stops the run if anything hangs. The shared machinery is in
 * `bench-harness.ts`.
 *
 * Run: `npx ts-node --transpile-only bench/order-change.bench.ts` (needs PostgreSQL and Redis as for the tests);
 * `--print-sql` also prints the statements of one change per order size.
 */
import type { DataSource } from 'typeorm';
import * as bench from './bench-harness';

const QUOTA_SIZE = 1_000_000;
const ORDERS = 64;
const WARMUP = 40;
const CHANGES = Number(process.env.BENCH_CHANGES ?? 400);
const CONCURRENCY = 8;
const SIZES = [1, 20];

/** Two items (19 % VAT included), each on its own quota. */
async function load(db: DataSource, eventId: number): Promise<{ items: number[]; quotas: number[] }> {
  const rules: { id: number }[] = await db.query(
    `INSERT INTO tax_rule (event_id, name, rate, is_default) VALUES ($1, '{"en": "VAT"}', 19, true) RETURNING id`,
    [eventId],
  );
  const items: { id: number }[] = await db.query(
    `INSERT INTO item (event_id, name, default_price, tax_rule_id)
     SELECT $1, jsonb_build_object('en', 'Item ' || g), 10 + g, $2 FROM generate_series(1, 2) g RETURNING id`,
    [eventId, rules[0].id],
  );
  const itemIds = items.map((r) => r.id).sort((a, b) => a - b);
  const quotas: { id: number }[] = await db.query(
    `INSERT INTO quota (event_id, name, size) SELECT $1, 'Quota ' || g, $2 FROM generate_series(1, 2) g
     RETURNING id`,
    [eventId, QUOTA_SIZE],
  );
  const quotaIds = quotas.map((r) => r.id).sort((a, b) => a - b);
  await db.query('INSERT INTO quota_item (quota_id, item_id) SELECT * FROM unnest($1::int[], $2::int[])', [
    quotaIds,
    itemIds,
  ]);
  return { items: itemIds, quotas: quotaIds };
}

bench.runBenchmark(
  {
    database: `ticketing_bench_order_change_${process.pid}`,
    deadlineMs: 5 * 60_000,
    maxSockets: CONCURRENCY,
  },
  async ({ db, organizer, post }) => {
    const eventId = await bench.insertEvent(db, organizer.id, 'bench');
    const { items, quotas } = await load(db, eventId);
    const base = '/api/v1/organizers/bench/events/bench/orders/';
    const rows: string[] = [];
    const perChange: Record<number, number> = {};
    const timings: [number, bench.Timing][] = [];

    for (const size of SIZES) {
      process.stdout.write(`Creating ${ORDERS} orders of ${size} position(s)...\n`);
      const orders: { code: string; position: number; item: number }[] = [];
      for (let i = 0; i < ORDERS; i++) {
        const res = bench.expectStatus(
          await post(base, {
            email: `buyer${i}@example.org`,
            positions: Array.from({ length: size }, () => ({ item: items[0] })),
          }),
          201,
          `order ${i}`,
        );
        const body = JSON.parse(res.body) as { code: string; positions: { id: number }[] };
        orders.push({ code: body.code, position: body.positions[0].id, item: items[0] });
      }
      await db.query('ANALYZE');
      /** Change i: order i mod ORDERS swaps its first position to the other item (8 in flight never share one). */
      const swap = async (i: number) => {
        const o = orders[i % ORDERS];
        const next = o.item === items[0] ? items[1] : items[0];
        const res = bench.expectStatus(
          await post(`${base}${o.code}/change/`, {
            patch_positions: [{ position: o.position, body: { item: next } }],
          }),
          200,
          `change ${i}`,
          300,
        );
        o.item = next;
        return res;
      };
      await bench.runLoad(WARMUP, CONCURRENCY, swap);
      perChange[size] = await bench.countStatements(() => swap(0));
      if (process.argv.includes('--print-sql')) {
        for (const st of await bench.recordStatements(() => swap(0)))
          process.stdout.write(`${st.sql.slice(0, 150)}\n`);
      }
      const timing = await bench.runLoad(CHANGES, CONCURRENCY, (i) => swap(i + 1));
      timings.push([size, timing]);

      const counted: { quota_id: number; n: string }[] = await db.query(
        `SELECT qi.quota_id, count(*) AS n FROM order_position p JOIN quota_item qi ON qi.item_id = p.item_id
          WHERE p.event_id = $1 AND NOT p.canceled GROUP BY qi.quota_id`,
        [eventId],
      );
      const sales: { item_id: number; pending: number }[] = await db.query(
        'SELECT item_id, pending FROM product_sales WHERE event_id = $1',
        [eventId],
      );
      for (const c of counted) {
        const item = items[quotas.indexOf(c.quota_id)];
        const maintained = sales.find((s) => s.item_id === item)?.pending ?? 0;
        if (maintained !== Number(c.n))
          throw new Error(`quota ${c.quota_id}: counted ${maintained}, rows ${c.n}`);
      }
    }

    rows.push(
      '',
      `POST orders/{code}/change/ (swap one position's product; ${CONCURRENCY} in flight, each on another order)`,
      await bench.machineLine(db),
      '',
      ...bench.timingHead(['positions per order'], 'changes/s'),
      ...timings.map(([size, t]) => bench.timingRow([size], t)),
      '',
      `SQL statements of one change by order size: ${bench.formatCounts(perChange)}`,
      '',
    );
    process.stdout.write(rows.join('\n'));
  },
);
