/**
 * Benchmark of `POST O/checkinrpc/redeem_batch/` (README "Batch redeem"): 1,000 scans in one request must be
 * decided set-wise (a few statements for all tickets, bulk writes), not as 1,000 single redeems.
 *
 * It creates its own database (`ticketing_bench_redeem_batch_<pid>`), boots the API as production does, creates
 * an event with a check-in list and 3,000 paid tickets (orders of 100 positions), then sends three batches of 1,000
 * distinct tickets each (fresh tickets: every scan admits and writes), then a retry of the last batch (every scan a
 * repeated nonce: nothing written). Every result must be 201; the database must hold exactly 3,000 successful
 * check-ins with one log entry each. Reported: durations (ms) and SQL statements per batch.
 *
 * Run: `npx ts-node --transpile-only bench/redeem-batch.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import * as bench from './bench-harness';

const SCANS = 1000;
const ROUNDS = 3;

bench.runBenchmark(
  { database: `ticketing_bench_redeem_batch_${process.pid}`, deadlineMs: 10 * 60_000, maxSockets: 1 },
  async ({ db, organizer, post }) => {
    const eventId = await bench.insertEvent(db, organizer.id, 'gate');
    const O = '/api/v1/organizers/bench';
    const E = `${O}/events/gate`;
    const json = <T>(res: bench.HttpResult) => JSON.parse(res.body) as T;
    const item = json<{ id: number }>(
      bench.expectStatus(
        await post(`${E}/items/`, { name: { en: 'Ticket' }, default_price: '10.00' }),
        201,
        'item',
      ),
    ).id;
    bench.expectStatus(
      await post(`${E}/quotas/`, { name: 'Q', size: 1_000_000, items: [item] }),
      201,
      'quota',
    );
    const list = json<{ id: number }>(
      bench.expectStatus(await post(`${E}/checkinlists/`, { name: 'Door', all_products: true }), 201, 'list'),
    ).id;
    const secrets: string[] = [];
    process.stdout.write(`Creating ${SCANS * ROUNDS} tickets...\n`);
    for (let i = 0; i < (SCANS * ROUNDS) / 100; i++) {
      const order = bench.expectStatus(
        await post(`${E}/orders/`, { status: 'p', positions: Array.from({ length: 100 }, () => ({ item })) }),
        201,
        'order',
      );
      secrets.push(...json<{ positions: { secret: string }[] }>(order).positions.map((p) => p.secret));
    }
    const rows: { what: string; ms: number; statements: number }[] = [];
    const send = async (what: string, scans: object[]) => {
      let ms = 0;
      const statements = await bench.countStatements(async () => {
        const started = Date.now();
        const res = bench.expectStatus(await post(`${O}/checkinrpc/redeem_batch/`, { scans }), 200, what);
        ms = Date.now() - started;
        const results = json<{ results: { status_code: number }[] }>(res).results;
        if (results.length !== scans.length || results.some((r) => r.status_code !== 201)) {
          throw new Error(`${what}: not every scan admitted`);
        }
      });
      rows.push({ what, ms, statements });
    };
    let last: object[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      last = secrets.slice(round * SCANS, (round + 1) * SCANS).map((secret, i) => ({
        lists: [list],
        secret,
        nonce: `bench-${round}-${i}`,
        datetime: new Date(Date.now() - 60_000).toISOString(),
      }));
      process.stdout.write(`Batch ${round + 1}: ${SCANS} scans...\n`);
      await send(`batch ${round + 1} (${SCANS} new check-ins)`, last);
    }
    await send(`retry of batch ${ROUNDS} (${SCANS} repeated nonces)`, last);
    const stored = await db.query<{ checkins: number; logs: number }[]>(
      `SELECT (SELECT count(*)::int FROM checkin WHERE event_id = $1 AND successful) AS checkins,
              (SELECT count(*)::int FROM log_entry WHERE event_id = $1 AND action_type = 'pretix.event.checkin') AS logs`,
      [eventId],
    );
    if (stored[0].checkins !== SCANS * ROUNDS || stored[0].logs !== SCANS * ROUNDS) {
      throw new Error(
        `expected ${SCANS * ROUNDS} check-ins and log entries, found ${JSON.stringify(stored[0])}`,
      );
    }
    const lines = [
      '',
      `POST checkinrpc/redeem_batch/ (${SCANS} scans per request, distinct paid tickets, one list)`,
      await bench.machineLine(db),
      '',
      '| batch | duration (ms) | SQL statements |',
      '|---|---|---|',
      ...rows.map((r) => `| ${r.what} | ${r.ms} | ${r.statements} |`),
      '',
    ];
    process.stdout.write(lines.join('\n'));
  },
);
