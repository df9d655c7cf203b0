/**
 * Benchmark of `POST E/subevents/{id}/seats/bulk_block/` and `bulk_unblock/` with 10,000 seats (bench/README.md
 * "Seats": goal under 1 s, a statement count that does not grow with the number of seats).
 *
 * It creates its own database (`ticketing_bench_seating_<pid>`), migrates it, boots the API as production does on a
 * loopback port, creates (through the API) a seating plan of 100 rows of 100 seats, an event series and one date
 * with that plan (10,000 seats generated), then alternates bulk_block and bulk_unblock of all 10,000 seats, by
 * guid and by id, ROUNDS times each, and once with 2 seats for the statement count. Every answer must be 200 and
 * the database must show all seats blocked after a block and none after an unblock. Reported: p50 and max per
 * call and SQL statements per call (10,000 seats and 2 seats). The database is dropped at the end.
 *
 * Run: `npx ts-node --transpile-only bench/seating.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import * as bench from './bench-harness';

const ROUNDS = 10;
const SIDE = 100;

bench.runBenchmark(
  { database: `ticketing_bench_seating_${process.pid}`, deadlineMs: 10 * 60_000, maxSockets: 1 },
  async ({ db, post, get }) => {
    const O = '/api/v1/organizers/bench';
    const layout = {
      name: 'Arena',
      size: { width: 1000, height: 1000 },
      categories: [{ name: 'All', color: '#ff0000' }],
      zones: [
        {
          name: 'Main',
          position: { x: 0, y: 0 },
          rows: Array.from({ length: SIDE }, (_r, r) => ({
            row_number: String(r + 1),
            position: { x: 0, y: 10 * r },
            seats: Array.from({ length: SIDE }, (_s, s) => ({
              seat_guid: `r${r + 1}-s${s + 1}`,
              seat_number: String(s + 1),
              position: { x: 10 * s, y: 0 },
              category: 'All',
            })),
          })),
        },
      ],
    };
    const id = (res: bench.HttpResult) => (JSON.parse(res.body) as { id: number }).id;
    const plan = id(
      bench.expectStatus(await post(`${O}/seatingplans/`, { name: 'Arena', layout }), 201, 'plan'),
    );
    bench.expectStatus(
      await post(`${O}/events/`, {
        name: { en: 'Series' },
        slug: 'series',
        currency: 'EUR',
        date_from: '2030-01-01T19:00:00Z',
        has_subevents: true,
      }),
      201,
      'POST events',
    );
    const E = `${O}/events/series`;
    const date = id(
      bench.expectStatus(
        await post(`${E}/subevents/`, {
          name: { en: 'Day' },
          date_from: '2030-01-01T19:00:00Z',
          seating_plan: plan,
        }),
        201,
        'POST subevents',
      ),
    );
    const seatsUrl = `${E}/subevents/${date}/seats`;
    const ids: number[] = (
      await db.query<{ id: number }[]>('SELECT id FROM seat WHERE subevent_id = $1 ORDER BY id', [date])
    ).map((r) => r.id);
    if (ids.length !== SIDE * SIDE) throw new Error(`expected ${SIDE * SIDE} seats, found ${ids.length}`);
    const guids = Array.from({ length: SIDE }, (_r, r) =>
      Array.from({ length: SIDE }, (_s, s) => `r${r + 1}-s${s + 1}`),
    ).flat();
    const blockedCount = async () =>
      (
        await db.query<{ n: number }[]>(
          'SELECT count(*)::int AS n FROM seat WHERE subevent_id = $1 AND blocked',
          [date],
        )
      )[0].n;

    const ms: Record<string, number[]> = { bulk_block: [], bulk_unblock: [] };
    const statements: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const body = round % 2 === 0 ? { seat_guids: guids } : { ids };
      for (const action of ['bulk_block', 'bulk_unblock'] as const) {
        let took = 0;
        statements[action] = await bench.countStatements(async () => {
          const started = process.hrtime.bigint();
          bench.expectStatus(await post(`${seatsUrl}/${action}/`, body), 200, action);
          took = Number(process.hrtime.bigint() - started) / 1e6;
        });
        ms[action].push(took);
        const expected = action === 'bulk_block' ? SIDE * SIDE : 0;
        if ((await blockedCount()) !== expected) throw new Error(`${action}: not all seats changed`);
      }
    }
    const small = await bench.countStatements(async () =>
      bench.expectStatus(
        await post(`${seatsUrl}/bulk_block/`, { seat_guids: guids.slice(0, 2) }),
        200,
        'small',
      ),
    );
    bench.expectStatus(await get(`${seatsUrl}/?page_size=1`), 200, 'list');
    const row = (action: string) => {
      const sorted = [...ms[action]].sort((a, b) => a - b);
      return `| ${action} | ${sorted.length} | ${bench.fmt(bench.percentile(sorted, 0.5))} | ${bench.fmt(
        sorted[sorted.length - 1],
      )} | ${statements[action]} |`;
    };
    const lines = [
      '',
      `10,000 seats of one date, ${ROUNDS} calls per action (alternately by seat_guids and by ids)`,
      await bench.machineLine(db),
      '',
      '| call | calls | p50 ms | max ms | SQL statements / call |',
      '|---|---|---|---|---|',
      row('bulk_block'),
      row('bulk_unblock'),
      '',
      `SQL statements of a bulk_block of 2 seats: ${small}`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  },
);
