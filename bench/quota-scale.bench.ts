/**
 * Benchmark of quota cost against event size (bench/README.md "Quota cost at 1,000,000 positions"): availability
 * of one quota (`GET E/quotas/{id}/availability/`) and reservations (`POST E/cartpositions/`) on an empty event,
 * then on the same event after 1,000,000 order positions were added by SQL.
 *
 * It creates its own database (`ticketing_bench_scale_<pid>`), migrates it, boots the API as production does on a
 * loopback port, and creates one event with ten items, each with its own quota (large enough never to sell out).
 * Phase 1 (empty): availability p50/p99 of the ten quotas in turn, then reservations spread round-robin over the
 * ten items at a fixed concurrency. Phase 2 adds 100,000 orders of ten positions each, cloned by SQL from an
 * order made through the API (three quarters paid, the rest pending, every 20th position canceled), and an exit
 * scan for 50,000 paid positions, through the same triggers that keep the counts (timed: the load itself), then
 * `ANALYZE`, checks one quota's availability against a count of the rows, and measures the same two things again.
 * Reported: p50/p99, requests per second, SQL statements per request, the ratio of the two phases, and whether the
 * engine's statement is JIT-compiled. The database is dropped at the end, also on failure.
 *
 * Run: `npx ts-node --transpile-only bench/quota-scale.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import type { DataSource } from 'typeorm';
import * as bench from './bench-harness';

const ITEMS = 10;
const ORDERS = 100_000;
const POSITIONS_PER_ORDER = 10;
const EXITS = 50_000;
const AVAILABILITY_CALLS = 500;
const RESERVATIONS = 1500;
const WARMUP = 100;
const CONCURRENCY = 8;

/**
 * Clones the template order `templateId` (ten positions) into {@link ORDERS} orders by SQL, with unique codes and
 * secrets; statuses and cancellations as described above; then exit scans. Returns the seconds it took.
 */
async function loadPositions(db: DataSource, templateId: number, items: number[]): Promise<number> {
  const started = Date.now();
  await bench.cloneSpreadOrders(db, templateId, items, {
    orders: ORDERS,
    positionsPerOrder: POSITIONS_PER_ORDER,
  });
  await db.query(
    `INSERT INTO checkin (position_id, type, datetime)
     SELECT p.id, 'exit', now() FROM order_position p JOIN orders o ON o.id = p.order_id
      WHERE o.status = 'p' AND NOT p.canceled AND o.code LIKE 'B%' ORDER BY p.id LIMIT $1`,
    [EXITS],
  );
  await db.query('ANALYZE');
  return (Date.now() - started) / 1000;
}

bench.runBenchmark(
  {
    database: `ticketing_bench_scale_${process.pid}`,
    /** Hard stop: the load takes a few minutes on a 2-core machine. */
    deadlineMs: 30 * 60_000,
    maxSockets: CONCURRENCY,
  },
  async ({ db, organizer, get, post }) => {
    const eventId = await bench.insertEvent(db, organizer.id, 'scale');
    const E = '/api/v1/organizers/bench/events/scale';
    const items: number[] = [];
    const quotas: number[] = [];
    for (let i = 1; i <= ITEMS; i++) {
      const item = bench.expectStatus(
        await post(`${E}/items/`, { name: { en: `Item ${i}` }, default_price: '10.00' }),
        201,
        'POST items',
      );
      const id = (JSON.parse(item.body) as { id: number }).id;
      items.push(id);
      const quota = bench.expectStatus(
        await post(`${E}/quotas/`, { name: `Q${i}`, size: 10_000_000, items: [id] }),
        201,
        'POST quotas',
      );
      quotas.push((JSON.parse(quota.body) as { id: number }).id);
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

    const availability = async (i: number) =>
      bench.expectStatus(
        await get(`${E}/quotas/${quotas[i % ITEMS]}/availability/`),
        200,
        'GET availability',
      );
    const measure = async () => {
      await bench.runLoad(50, 1, availability);
      const avail = await bench.runLoad(AVAILABILITY_CALLS, 1, availability);
      // Reservations (each its own generated cart); deleted afterwards so both phases start equal.
      const reserve = async (i: number) =>
        bench.expectStatus(
          await post(`${E}/cartpositions/`, {
            item: items[i % ITEMS],
            price: '10.00',
          }),
          201,
          'POST cartpositions',
        );
      await bench.runLoad(WARMUP, CONCURRENCY, reserve);
      const reservations = await bench.runLoad(RESERVATIONS, CONCURRENCY, reserve);
      await db.query('DELETE FROM cart_position WHERE event_id = $1', [eventId]);
      return { avail, reservations };
    };

    process.stdout.write('Phase 1: empty event...\n');
    const empty = await measure();
    process.stdout.write(`Loading ${ORDERS * POSITIONS_PER_ORDER} order positions by SQL...\n`);
    const loadSeconds = await loadPositions(db, templateId, items);
    const positions = (
      await db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM order_position WHERE event_id = $1', [
        eventId,
      ])
    )[0].n;

    // The answer is right: the first quota against a count of its rows.
    const want: { paid: number; pending: number; exited: number }[] = await db.query(
      `SELECT COUNT(*) FILTER (WHERE o.status = 'p')::int AS paid, COUNT(*) FILTER (WHERE o.status = 'n')::int AS pending,
              COUNT(*) FILTER (WHERE o.status = 'p' AND EXISTS (
                SELECT 1 FROM checkin c WHERE c.position_id = p.id AND c.type = 'exit'))::int AS exited
         FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE p.item_id = $1 AND NOT p.canceled AND o.status IN ('n', 'p')`,
      [items[0]],
    );
    const got = JSON.parse((await availability(0)).body) as {
      paid_orders: number;
      pending_orders: number;
      exited_orders: number;
    };
    if (
      got.paid_orders !== want[0].paid ||
      got.pending_orders !== want[0].pending ||
      got.exited_orders !== want[0].exited
    ) {
      throw new Error(`availability ${JSON.stringify(got)} differs from the rows ${JSON.stringify(want[0])}`);
    }
    process.stdout.write(`Checked quota 1 against its rows: ${JSON.stringify(want[0])}.\n`);

    process.stdout.write('Phase 2: 1M positions...\n');
    const full = await measure();
    const plan: { 'QUERY PLAN': unknown }[] = await db.query(
      `EXPLAIN (ANALYZE, FORMAT JSON) SELECT ps.item_id, ps.paid FROM product_sales ps
        WHERE ps.event_id = ANY($1) AND (ps.variation_id = ANY($3) OR (ps.variation_id IS NULL AND ps.item_id = ANY($2)))`,
      [[eventId], [items[0]], []],
    );
    const jit = JSON.stringify(plan).includes('"JIT"');
    const statements = await bench.countStatements(() => availability(0));

    const lines = [
      '',
      `Quota cost against event size (${ITEMS} items with a quota each; ${AVAILABILITY_CALLS} availability GETs ` +
        `sequential; ${RESERVATIONS} reservations after ${WARMUP} warm-up, ${CONCURRENCY} in flight)`,
      await bench.machineLine(db),
      '',
      `Loaded ${positions} order positions (${ORDERS} orders, ${EXITS} exits) in ${loadSeconds.toFixed(1)} s`,
      '',
      ...bench.timingHead(['phase', 'request'], 'req/s'),
      bench.timingRow(['empty', 'GET availability'], empty.avail),
      bench.timingRow(['1M positions', 'GET availability'], full.avail),
      bench.timingRow(['empty', 'POST cartpositions'], empty.reservations),
      bench.timingRow(['1M positions', 'POST cartpositions'], full.reservations),
      '',
      `Reservations/s: empty ${bench.fmt(bench.rate(empty.reservations))}, 1M ${bench.fmt(bench.rate(full.reservations))} ` +
        `(empty/1M = ${(bench.rate(empty.reservations) / bench.rate(full.reservations)).toFixed(2)})`,
      `Availability p50: empty ${bench.fmt(empty.avail.p50)} ms, 1M ${bench.fmt(full.avail.p50)} ms; ` +
        `${statements} SQL statements per GET; engine statement JIT-compiled: ${jit ? 'yes' : 'no'}`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  },
);
