/**
 * Benchmark of check-in (bench/README.md "Check-in"): `GET E/checkinlists/{list}/positions/` (page of 50) with
 * 10,000 tickets on the list, and redeems per second with 8 scanners at once, each ticket scanned once.
 *
 * It creates its own database (`ticketing_bench_checkin_<pid>`), migrates it, boots the API as production does on a
 * loopback port, makes one paid order through the API and clones its position into 10,000 paid tickets by SQL
 * (each its own order and secret), then times 300 sequential position pages and 3,000 redeems (8 in flight) and
 * checks that every redeem answered 201 and stored one check-in. The database is dropped at the end.
 *
 * Run: `npx ts-node --transpile-only bench/checkin.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import type { DataSource } from 'typeorm';
import * as bench from './bench-harness';

const TICKETS = 10_000;
const PAGES = 300;
const REDEEMS = 3_000;
const CONCURRENCY = 8;

async function columns(db: DataSource, table: string): Promise<string[]> {
  const rows = await db.query<{ column_name: string }[]>(
    `SELECT column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = $1 AND column_name <> 'id' ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r) => r.column_name);
}

bench.runBenchmark(
  { database: `ticketing_bench_checkin_${process.pid}`, deadlineMs: 15 * 60_000, maxSockets: CONCURRENCY },
  async ({ db, organizer, get, post }) => {
    const eventId = await bench.insertEvent(db, organizer.id, 'checkin');
    const E = '/api/v1/organizers/bench/events/checkin';
    const item = JSON.parse(
      bench.expectStatus(
        await post(`${E}/items/`, { name: { en: 'Ticket' }, default_price: '10.00' }),
        201,
        'item',
      ).body,
    ) as { id: number };
    bench.expectStatus(
      await post(`${E}/quotas/`, { name: 'Q', size: 1_000_000, items: [item.id] }),
      201,
      'quota',
    );
    const order = JSON.parse(
      bench.expectStatus(
        await post(`${E}/orders/`, { status: 'p', positions: [{ item: item.id }] }),
        201,
        'order',
      ).body,
    ) as { code: string };
    const template = (
      await db.query<{ id: number }[]>('SELECT id FROM orders WHERE code = $1', [order.code])
    )[0].id;
    const orderCols = await columns(db, 'orders');
    const pick = (cols: string[], overrides: Record<string, string>) =>
      cols.map((c) => overrides[c] ?? `t.${c}`).join(', ');
    process.stdout.write(`Loading ${TICKETS} tickets by SQL...\n`);
    await db.query(
      `INSERT INTO orders (${orderCols.join(', ')})
       SELECT ${pick(orderCols, { code: `'C' || lpad(g::text, 7, '0')`, secret: 'md5(g::text)' })}
         FROM orders t, generate_series(1, $2::int) g WHERE t.id = $1`,
      [template, TICKETS],
    );
    const positionCols = (await columns(db, 'order_position')).filter((c) => c !== 'exited');
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
    const list = JSON.parse(
      bench.expectStatus(await post(`${E}/checkinlists/`, { name: 'Main', all_products: true }), 201, 'list')
        .body,
    ) as { id: number };
    const page = `${E}/checkinlists/${list.id}/positions/?page_size=50`;
    const first = JSON.parse(bench.expectStatus(await get(page), 200, 'positions').body) as { count: number };
    if (first.count !== TICKETS + 1) throw new Error(`expected ${TICKETS + 1} positions, got ${first.count}`);
    const statements = await bench.countStatements(() => get(page));
    const redeemPath = (i: number) =>
      `${E}/checkinlists/${list.id}/positions/SC${String(i).padStart(7, '0')}/redeem/`;
    // Profile (BENCH_EXPLAIN=1): every statement of one page and one redeem, with its plan and timing.
    if (process.env.BENCH_EXPLAIN) {
      for (const [what, work] of [
        ['positions page', () => get(page)],
        ['redeem', () => post(redeemPath(TICKETS), {})],
      ] as const) {
        const sent = await bench.recordStatements(work);
        process.stdout.write(`\n=== ${what}: ${sent.length} statements\n`);
        for (const { sql, params } of sent) {
          process.stdout.write(`\n-- ${sql.replace(/\s+/g, ' ').slice(0, 300)}\n`);
          if (!/^\s*SELECT/i.test(sql)) continue; // EXPLAIN ANALYZE runs what it explains
          const plan = await db.query<{ 'QUERY PLAN': string }[]>(
            `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
            params,
          );
          process.stdout.write(plan.map((r) => r['QUERY PLAN']).join('\n') + '\n');
        }
      }
    }
    const pages = await bench.runLoad(PAGES, 1, async () =>
      bench.expectStatus(await get(page), 200, 'positions'),
    );
    const cpuBefore = process.cpuUsage();
    const redeems = await bench.runLoad(REDEEMS, CONCURRENCY, async (i) =>
      bench.expectStatus(await post(redeemPath(i + 1), {}), 201, 'redeem'),
    );
    const cpu = process.cpuUsage(cpuBefore);
    const cpuPerRedeem = (cpu.user + cpu.system) / 1000 / REDEEMS;
    const redeemStatements = await bench.countStatements(() => post(redeemPath(REDEEMS + 1), {}));
    const stored = await db.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM checkin WHERE list_id = $1 AND successful',
      [list.id],
    );
    const expected = REDEEMS + 1 + (process.env.BENCH_EXPLAIN ? 1 : 0);
    if (stored[0].n !== expected) throw new Error(`expected ${expected} check-ins, found ${stored[0].n}`);
    void eventId;
    process.stdout.write(
      [
        '',
        `Check-in: ${TICKETS + 1} tickets on one list`,
        await bench.machineLine(db),
        '',
        ...bench.timingHead(['request']),
        bench.timingRow(['GET positions/ (page of 50)'], pages),
        bench.timingRow([`POST …/redeem/ (${CONCURRENCY} scanners)`], redeems),
        '',
        `SQL statements per positions page: ${statements}; per redeem: ${redeemStatements}`,
        `CPU of this process (API and load driver) per redeem: ${cpuPerRedeem.toFixed(2)} ms`,
        '',
      ].join('\n'),
    );
  },
);
