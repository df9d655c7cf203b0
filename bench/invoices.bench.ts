/**
 * Benchmark of invoice PDFs and gift card `transact/` (bench/README.md "Invoices": PDF renders per second in one
 * worker, and transact per second on one card and on many; docs/style.md "Tests": benchmarks report figures and
 * are not part of `npm test`).
 *
 * It creates its own database (`ticketing_bench_inv_<pid>`), migrates it and boots the API as production does
 * (`createApiApp`). PDFs: with no worker running, it places orders through `POST E/orders/` (3 positions and a fee;
 * plus some of 60 positions) and creates their invoices through `create_invoice/` (the render jobs queue up on the
 * `invoices` queue); then it starts ONE real worker process (`node dist/src/worker.js`, as the tests do) and measures
 * the time from the first to the last PDF stored (the worker's start excluded): renders per second, for the small
 * and then the 60-position invoices. Every stored PDF is checked to start with `%PDF-`. Gift cards: debits of 0.01 with 8 in flight on one
 * card, then round-robin over 100 cards (as `giftcards.bench.ts`, shorter); every answer must be 200 and every card's
 * value must equal its initial value minus its debits. The database and the queue keys are dropped at the end.
 *
 * Run: `npm run build && npx ts-node --transpile-only bench/invoices.bench.ts` (PostgreSQL and Redis as for the
 * tests; `dist/` must be current, the worker runs from it).
 */
import { spawn } from 'child_process';
import Redis from 'ioredis';
import { join } from 'path';
import type { DataSource } from 'typeorm';
import * as bench from './bench-harness';
import { loadConfig } from '../src/config/app-config';

const SMALL = 200;
const LARGE = 20;
const CONCURRENCY = 8;
const CARD_REQUESTS = 600;
const MANY = 100;
const ROOT = join(__dirname, '..');

/** Starts the worker process and resolves when it logs that it is ready; `stop()` kills it. */
async function startWorker(env: Record<string, string>): Promise<{ stop: () => void }> {
  const child = spawn('node', [join(ROOT, 'dist', 'src', 'worker.js')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'log', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (c: Buffer) => {
      out += c.toString();
      if (/Worker ready/.test(out)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${out}`)));
  });
  return { stop: () => child.kill('SIGTERM') };
}

/**
 * Waits until `n` invoices have a PDF; resolves to the seconds between the first and the last PDF stored since
 * `since` (the render time alone, without the worker's start) and how many that were.
 */
async function untilRendered(
  db: DataSource,
  n: number,
  since: Date,
): Promise<{ seconds: number; files: number }> {
  for (;;) {
    const rows: { done: number }[] = await db.query(
      'SELECT count(*)::int AS done FROM invoice WHERE pdf_file_id IS NOT NULL',
    );
    if (rows[0].done >= n) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const span: { seconds: number; files: number }[] = await db.query(
    `SELECT extract(epoch FROM max(created) - min(created))::float AS seconds, count(*)::int AS files
       FROM stored_file WHERE kind = 'invoice_pdf' AND created >= $1`,
    [since],
  );
  return span[0];
}

async function deleteQueueKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

const database = `ticketing_bench_inv_${process.pid}`;

bench.runBenchmark(
  { database, deadlineMs: 15 * 60_000, maxSockets: CONCURRENCY },
  async ({ db, organizer, post }) => {
    const config = loadConfig();
    const prefix = `bench-${database}`;
    const E = '/api/v1/organizers/bench/events/inv';
    const eventId = await bench.insertEvent(db, organizer.id, 'inv');
    const rule = JSON.parse(
      bench.expectStatus(
        await post(`${E}/taxrules/`, { name: { en: 'VAT' }, rate: '19.00' }),
        201,
        'tax rule',
      ).body,
    ) as { id: number };
    const item = JSON.parse(
      bench.expectStatus(
        await post(`${E}/items/`, { name: { en: 'Ticket' }, default_price: '59.50', tax_rule: rule.id }),
        201,
        'item',
      ).body,
    ) as { id: number };
    bench.expectStatus(
      await post(`${E}/quotas/`, { name: 'All', size: null, items: [item.id] }),
      201,
      'quota',
    );
    process.stdout.write(`Event ${eventId}: placing orders and creating invoices (no worker yet)...\n`);
    const place = async (positions: number) => {
      const res = await post(`${E}/orders/`, {
        status: 'p',
        invoice_address: {
          company: 'ACME',
          name: 'Jane Doe',
          street: 'Main St 1',
          zipcode: '10115',
          city: 'Berlin',
          country: 'DE',
        },
        positions: Array.from({ length: positions }, (_, i) => ({
          item: item.id,
          attendee_name: `Guest ${i + 1}`,
        })),
        fees: [{ fee_type: 'payment', value: '1.00', tax_rule: rule.id }],
      });
      const code = (JSON.parse(bench.expectStatus(res, 201, 'order').body) as { code: string }).code;
      return bench.expectStatus(await post(`${E}/orders/${code}/create_invoice/`, {}), 201, 'create_invoice');
    };
    const creates = await bench.runLoad(SMALL, CONCURRENCY, async () => place(3));
    const env = {
      DATABASE_URL: bench.urlWithDatabase(config.databaseUrl, database),
      REDIS_URL: config.redisUrl,
      QUEUE_PREFIX: prefix,
    };

    process.stdout.write(`Rendering ${SMALL} invoices of 3 positions in one worker...\n`);
    let since = new Date();
    let worker = await startWorker(env);
    const small = await untilRendered(db, SMALL, since);
    worker.stop();

    for (let i = 0; i < LARGE; i++) await place(60);
    process.stdout.write(`Rendering ${LARGE} invoices of 60 positions in one worker...\n`);
    since = new Date();
    worker = await startWorker(env);
    const large = await untilRendered(db, SMALL + LARGE, since);
    worker.stop();
    const files: { n: number; bytes: number; bad: number }[] = await db.query(
      `SELECT count(*)::int AS n, avg(size)::int AS bytes,
              count(*) FILTER (WHERE substring(content FROM 1 FOR 5) <> '%PDF-'::bytea)::int AS bad
         FROM stored_file WHERE kind = 'invoice_pdf'`,
    );
    if (files[0].n !== SMALL + LARGE || files[0].bad !== 0)
      throw new Error(`PDFs: ${JSON.stringify(files[0])}`);

    // Gift cards: one card, then 100 round-robin.
    const cards: { id: number }[] = await db.query(
      `INSERT INTO giftcard (issuer_id, secret, value, currency)
       SELECT $1, 'BENCH' || g, 1000000, 'EUR' FROM generate_series(1, $2::int) g RETURNING id`,
      [organizer.id, MANY + 1],
    );
    const ids = cards.map((c) => c.id).sort((a, b) => a - b);
    await db.query(
      `INSERT INTO giftcard_transaction (giftcard_id, value, acceptor_id) SELECT id, 1000000, $2 FROM unnest($1::int[]) id`,
      [ids, organizer.id],
    );
    const debits = new Map<number, number>();
    const debit = (pool: number[]) => async (i: number) => {
      const id = pool[i % pool.length];
      debits.set(id, (debits.get(id) ?? 0) + 1);
      return bench.expectStatus(
        await post(`/api/v1/organizers/bench/giftcards/${id}/transact/`, { value: '-0.01' }),
        200,
        `debit on ${id}`,
      );
    };
    await bench.runLoad(100, CONCURRENCY, debit(ids.slice(1)));
    const one = await bench.runLoad(CARD_REQUESTS, CONCURRENCY, debit(ids.slice(0, 1)));
    const many = await bench.runLoad(CARD_REQUESTS, CONCURRENCY, debit(ids.slice(1)));
    const values: { id: number; value: string }[] = await db.query(
      'SELECT id, value::text AS value FROM giftcard WHERE id = ANY($1)',
      [ids],
    );
    for (const v of values) {
      const expected = (100000000 - (debits.get(v.id) ?? 0)).toString();
      if (v.value.replace('.', '') !== expected)
        throw new Error(`card ${v.id}: ${v.value} after ${debits.get(v.id)} debits`);
    }
    await deleteQueueKeys(config.redisUrl, prefix);

    const lines = [
      '',
      await bench.machineLine(db),
      '',
      '| invoices | positions each | seconds from first to last PDF stored | renders/s |',
      '|---|---|---|---|',
      `| ${small.files} | 3 (+ fee) | ${bench.fmt(small.seconds)} | ${bench.fmt((small.files - 1) / small.seconds)} |`,
      `| ${large.files} | 60 (+ fee) | ${bench.fmt(large.seconds)} | ${bench.fmt((large.files - 1) / large.seconds)} |`,
      '',
      `Average PDF size ${files[0].bytes} bytes. create_invoice (with order placement before it, concurrency ${CONCURRENCY}):`,
      ...bench.timingHead(['step'], 'orders+invoices/s'),
      bench.timingRow(['POST orders/ + create_invoice/'], creates),
      '',
      `POST O/giftcards/{id}/transact/ (debit of 0.01), concurrency ${CONCURRENCY}`,
      ...bench.timingHead(['scenario'], 'transactions/s'),
      bench.timingRow(['one card'], one),
      bench.timingRow([`${MANY} cards`], many),
      '',
    ];
    process.stdout.write(lines.join('\n'));
  },
);
