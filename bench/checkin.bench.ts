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
import * as bench from './bench-harness';

const TICKETS = 10_000;
const PAGES = 300;
const REDEEMS = 3_000;
const CONCURRENCY = 8;

bench.runBenchmark(
  { database: `ticketing_bench_checkin_${process.pid}`, deadlineMs: 15 * 60_000, maxSockets: CONCURRENCY },
  async ({ db, organizer, get, post }) => {
    const eventId = await bench.insertEvent(db, organizer.id, 'checkin');
    const E = '/api/v1/organizers/bench/events/checkin';
    await bench.loadPaidTickets({ db, post }, E, TICKETS);
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
