/**
 * Benchmark of gift card `transact/` (bench/README.md "Gift cards": transact per second on one card and on many;
 * docs/style.md "Tests": benchmarks report figures and are not part of `npm test`).
 *
 * It creates its own database (`ticketing_bench_gc_<pid>` on the server of DATABASE_URL), migrates it, boots the API
 * exactly as production does (`createApiApp`) on a loopback port and loads by SQL one card for the "one card"
 * scenario and 100 cards for the "many cards" scenario, each with a balance that never runs out and its initial
 * transaction. Each scenario: debits of 0.01 (`POST O/giftcards/{id}/transact/`, one conditional UPDATE plus the
 * transaction row and its audit entry in one transaction) with 8 in flight, on the one card or round-robin over the
 * 100; a warm-up, then the runs twice in alternating order (A B, B A). Every answer must be 200; afterwards every
 * card's value must equal its initial value minus its debits and its transactions must number one per debit plus
 * the initial one. Then it counts the SQL statements of `GET O/giftcards/` for page sizes 1, 10 and 50. The database
 * is dropped at the end, also on failure; a deadline stops the run if anything hangs.
 *
 * Run: `npx ts-node --transpile-only bench/giftcards.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import type { DataSource } from 'typeorm';
import * as bench from './bench-harness';

const MANY = 100;
const INITIAL = '1000000.00';
const WARMUP = 100;
const REQUESTS = 1500;
const CONCURRENCY = 8;

/** Inserts `n` cards of the organizer with their initial transactions; resolves to their ids, ascending. */
async function insertCards(
  db: DataSource,
  organizerId: number,
  n: number,
  prefix: string,
): Promise<number[]> {
  const cards: { id: number }[] = await db.query(
    `INSERT INTO giftcard (issuer_id, secret, value, currency)
     SELECT $1, $2 || g, $3::numeric, 'EUR' FROM generate_series(1, $4::int) g RETURNING id`,
    [organizerId, prefix, INITIAL, n],
  );
  const ids = cards.map((c) => c.id).sort((a, b) => a - b);
  await db.query(
    `INSERT INTO giftcard_transaction (giftcard_id, value, acceptor_id)
     SELECT id, $2::numeric, $3 FROM unnest($1::int[]) id`,
    [ids, INITIAL, organizerId],
  );
  await db.query('ANALYZE');
  return ids;
}

bench.runBenchmark(
  {
    database: `ticketing_bench_gc_${process.pid}`,
    /** Hard stop: the whole run normally takes about a minute. */
    deadlineMs: 10 * 60_000,
    maxSockets: CONCURRENCY,
  },
  async ({ db, organizer, get, post }) => {
    const one = await insertCards(db, organizer.id, 1, 'ONE');
    const many = await insertCards(db, organizer.id, MANY, 'MANY');
    const base = '/api/v1/organizers/bench/giftcards';
    const debits = new Map<number, number>();
    /** Debit i of 0.01 on the card `ids[i % ids.length]`; every answer must be 200. */
    const debit = (ids: number[]) => async (i: number) => {
      const id = ids[i % ids.length];
      debits.set(id, (debits.get(id) ?? 0) + 1);
      return bench.expectStatus(
        await post(`${base}/${id}/transact/`, { value: '-0.01', text: `bench ${i}` }),
        200,
        `debit ${i} on card ${id}`,
      );
    };

    process.stdout.write(`Debiting gift cards (one card; ${MANY} cards round-robin)...\n`);
    await bench.runLoad(WARMUP, CONCURRENCY, debit(many));
    const runs: [string, number, bench.Timing][] = [];
    for (const [round, order] of [
      [1, ['one', 'many']],
      [2, ['many', 'one']],
    ] as const) {
      for (const scenario of order) {
        const ids = scenario === 'one' ? one : many;
        runs.push([
          scenario === 'one' ? 'one card' : `${MANY} cards`,
          round,
          await bench.runLoad(REQUESTS, CONCURRENCY, debit(ids)),
        ]);
      }
    }

    // Every debit is in the value and in the transactions, on its card.
    const rows: { id: number; value: string; transactions: number }[] = await db.query(
      `SELECT g.id, g.value::text AS value, count(t.id)::int AS transactions
         FROM giftcard g JOIN giftcard_transaction t ON t.giftcard_id = g.id GROUP BY g.id`,
    );
    for (const row of rows) {
      const n = debits.get(row.id) ?? 0;
      const expected = (Math.round(Number(INITIAL) * 100) - n).toString();
      const cents = row.value.replace('.', '');
      if (cents !== expected || row.transactions !== n + 1)
        throw new Error(
          `card ${row.id}: value ${row.value}, ${row.transactions} transactions after ${n} debits`,
        );
    }
    const total = [...debits.values()].reduce((a, b) => a + b, 0);
    process.stdout.write(
      `Checked: ${total} debits in the values and transactions of ${rows.length} cards.\n`,
    );

    const perPage: Record<number, number> = {};
    for (const size of [1, 10, 50]) {
      perPage[size] = await bench.countStatements(async () => {
        const res = await get(`${base}/?page_size=${size}`);
        const page = JSON.parse(res.body) as { results: unknown[] };
        if (res.status !== 200 || page.results.length !== size)
          throw new Error(`page_size=${size}: ${res.status}`);
      });
    }

    const lines = [
      '',
      `POST O/giftcards/{id}/transact/ (debit of 0.01), concurrency ${CONCURRENCY}`,
      await bench.machineLine(db),
      '',
      ...bench.timingHead(['scenario', 'round'], 'transactions/s'),
      ...runs.map(([scenario, round, timing]) => bench.timingRow([scenario, round], timing)),
      '',
      `SQL statements of GET O/giftcards/ by page size: ${bench.formatCounts(perPage)}`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  },
);
