/**
 * Benchmark of `POST E/vouchers/batch_create/` (style.md "In this codebase: stop these" 4, no per-row statements
 * inside a locked transaction: a 5,000-voucher batch took 29 s when every voucher and log entry was its own
 * statement).
 *
 * It creates its own database (`ticketing_bench_vouchers_<pid>`), migrates it, boots the API as production does on
 * a loopback port, creates one event with an item and a quota, and sends batches of 1,000 and of 5,000 (the cap,
 * README "Limits") vouchers, three of each, alternating, half of them blocking quota (so the quota is locked and
 * counted). Every answer must be 201 with one voucher per entry; the database must hold them all with one log entry
 * each. Reported: each batch size's durations (ms) and SQL statements per batch. The database is dropped at the end.
 *
 * Run: `npx ts-node --transpile-only bench/voucher-batch.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import { LIMITS } from '../src/config/limits';
import * as bench from './bench-harness';

const SIZES = [1000, LIMITS.vouchersPerBatch];
const ROUNDS = 3;

bench.runBenchmark(
  {
    database: `ticketing_bench_vouchers_${process.pid}`,
    deadlineMs: 10 * 60_000,
    maxSockets: 1,
  },
  async ({ db, organizer, post }) => {
    const eventId = await bench.insertEvent(db, organizer.id, 'vouchers');
    const E = '/api/v1/organizers/bench/events/vouchers';
    const item = bench.expectStatus(
      await post(`${E}/items/`, { name: { en: 'Ticket' }, default_price: '10.00' }),
      201,
      'POST items',
    );
    const itemId = (JSON.parse(item.body) as { id: number }).id;
    bench.expectStatus(
      await post(`${E}/quotas/`, { name: 'Q', size: 1_000_000, items: [itemId] }),
      201,
      'POST quotas',
    );
    let sent = 0;
    const results: { size: number; ms: number[]; statements: number }[] = SIZES.map((size) => ({
      size,
      ms: [],
      statements: 0,
    }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const result of round % 2 === 0 ? results : [...results].reverse()) {
        const body = Array.from({ length: result.size }, (_v, i) => ({
          item: itemId,
          block_quota: i % 2 === 0,
          max_usages: 1,
        }));
        process.stdout.write(`Round ${round + 1}: ${result.size} vouchers...\n`);
        let ms = 0;
        const statements = await bench.countStatements(async () => {
          const started = Date.now();
          const res = bench.expectStatus(
            await post(`${E}/vouchers/batch_create/`, body),
            201,
            'batch_create',
          );
          ms = Date.now() - started;
          if ((JSON.parse(res.body) as unknown[]).length !== result.size)
            throw new Error('wrong answer length');
        });
        sent += result.size;
        result.ms.push(ms);
        result.statements = statements;
      }
    }
    const stored = await db.query<{ vouchers: number; logs: number }[]>(
      `SELECT (SELECT count(*)::int FROM voucher WHERE event_id = $1) AS vouchers,
              (SELECT count(*)::int FROM log_entry WHERE event_id = $1 AND content_type = 'voucher') AS logs`,
      [eventId],
    );
    if (stored[0].vouchers !== sent || stored[0].logs !== sent) {
      throw new Error(`expected ${sent} vouchers and log entries, found ${JSON.stringify(stored[0])}`);
    }
    const lines = [
      '',
      `POST vouchers/batch_create/ (${ROUNDS} batches per size, alternating; half of each batch blocks quota)`,
      await bench.machineLine(db),
      '',
      '| vouchers per batch | durations (ms) | SQL statements per batch |',
      '|---|---|---|',
      ...results.map((r) => `| ${r.size} | ${r.ms.join(', ')} | ${r.statements} |`),
      '',
    ];
    process.stdout.write(lines.join('\n'));
  },
);
