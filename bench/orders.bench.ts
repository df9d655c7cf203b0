/**
 * Benchmark of order creation and of the order list (bench/README.md "Orders"; docs/style.md "Tests": benchmarks
 * report figures and are not part of `npm test`).
 *
 * It creates its own database (`ticketing_bench_orders_<pid>` on the server of DATABASE_URL), migrates it, boots
 * the API exactly as production does (`createApiApp`) on a loopback port, loads one event with ten items (one
 * quota each, large enough never to sell out, a tax rule and a text question) by SQL, then times `POST E/orders/`
 * (two positions with answers, a fee, an invoice address): a warm-up, a bounded number sequentially, then with
 * 8 in flight on one quota and on ten quotas. It checks that every position was counted by the quota engine, then
 * counts the SQL statements of `GET E/orders/` for page sizes 1, 10 and 50 and times pages of 50. The database is
 * dropped at the end, also on failure; a deadline stops the run if anything hangs. The shared machinery is in
 * `bench-harness.ts`.
 *
 * Run: `npx ts-node --transpile-only bench/orders.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import type { DataSource } from 'typeorm';
import { QuotaLookup } from '../src/catalogue/quotas/quota-lookup.service';
import { Quota } from '../src/catalogue/quotas/quota.entity';
import { QuotaEngine } from '../src/orders/quota-engine/quota-engine.service';
import * as bench from './bench-harness';

const ITEMS = 10;
const QUOTA_SIZE = 100_000;
const WARMUP = 30;
const SEQUENTIAL = 300;
const CONCURRENT = 300;
const CONCURRENCY = 8;
const LIST_REQUESTS = 100;
const PAGE_SIZE = 50;

interface Catalogue {
  items: number[];
  quotas: number[];
  questions: number[];
  taxRule: number;
}

/** Ten items (19 % VAT included), each with its own quota and a text question. */
async function load(db: DataSource, eventId: number): Promise<Catalogue> {
  const rules: { id: number }[] = await db.query(
    `INSERT INTO tax_rule (event_id, name, rate, is_default) VALUES ($1, '{"en": "VAT"}', 19, true) RETURNING id`,
    [eventId],
  );
  const items: { id: number }[] = await db.query(
    `INSERT INTO item (event_id, name, default_price, tax_rule_id)
     SELECT $1, jsonb_build_object('en', 'Item ' || g), 10 + g, $3 FROM generate_series(1, $2::int) g RETURNING id`,
    [eventId, ITEMS, rules[0].id],
  );
  const itemIds = items.map((r) => r.id).sort((a, b) => a - b);
  const quotas: { id: number }[] = await db.query(
    `INSERT INTO quota (event_id, name, size) SELECT $1, 'Quota ' || g, $3 FROM generate_series(1, $2::int) g
     RETURNING id`,
    [eventId, ITEMS, QUOTA_SIZE],
  );
  const quotaIds = quotas.map((r) => r.id).sort((a, b) => a - b);
  await db.query('INSERT INTO quota_item (quota_id, item_id) SELECT * FROM unnest($1::int[], $2::int[])', [
    quotaIds,
    itemIds,
  ]);
  const questions: { id: number }[] = await db.query(
    `INSERT INTO question (event_id, question, type, identifier)
     SELECT $1, jsonb_build_object('en', 'Question ' || g), 'S', 'BENCHQ' || g FROM generate_series(1, $2::int) g
     RETURNING id`,
    [eventId, ITEMS],
  );
  const questionIds = questions.map((r) => r.id).sort((a, b) => a - b);
  await db.query(
    'INSERT INTO question_item (question_id, item_id) SELECT * FROM unnest($1::int[], $2::int[])',
    [questionIds, itemIds],
  );
  await db.query('ANALYZE');
  return { items: itemIds, quotas: quotaIds, questions: questionIds, taxRule: rules[0].id };
}

/** An order of two positions of product `k` (and `k+1` when `spread`), with answers, a fee and an address. */
function orderBody(c: Catalogue, k: number, spread: boolean, i: number): Record<string, unknown> {
  const a = k % ITEMS;
  const b = spread ? (k + 1) % ITEMS : a;
  return {
    email: `buyer${i}@example.org`,
    positions: [
      {
        item: c.items[a],
        attendee_name: `Guest ${i}`,
        answers: [{ question: c.questions[a], answer: 'first' }],
      },
      { item: c.items[b], answers: [{ question: c.questions[b], answer: 'second' }] },
    ],
    fees: [{ fee_type: 'service', value: '1.50', tax_rule: c.taxRule }],
    invoice_address: { name: `Buyer ${i}`, city: 'Berlin', country: 'DE' },
  };
}

bench.runBenchmark(
  {
    database: `ticketing_bench_orders_${process.pid}`,
    /** Hard stop: the whole run normally takes well under a minute. */
    deadlineMs: 5 * 60_000,
    maxSockets: CONCURRENCY,
  },
  async ({ app, db, organizer, get, post }) => {
    const eventId = await bench.insertEvent(db, organizer.id, 'bench');
    const catalogue = await load(db, eventId);
    const ordersPath = '/api/v1/organizers/bench/events/bench/orders/';
    /** Order i, on product k (and k+1 when spread); every answer must be 201. */
    const create = (k: number, spread: boolean) => async (i: number) =>
      bench.expectStatus(
        await post(ordersPath, orderBody(catalogue, k, spread, i)),
        201,
        `request ${i}`,
        300,
      );

    process.stdout.write(`Creating orders (${ITEMS} items, one quota each)...\n`);
    await bench.runLoad(WARMUP, 1, (i) => create(i, true)(i));
    const sequential = await bench.runLoad(SEQUENTIAL, 1, (i) => create(i, true)(i));
    const oneQuota = await bench.runLoad(CONCURRENT, CONCURRENCY, (i) => create(0, false)(i));
    const tenQuotas = await bench.runLoad(CONCURRENT, CONCURRENCY, (i) => create(i, false)(i));

    // Every position created is counted by the engine, on the quota of its item.
    const quotas = await app.get(QuotaLookup).load(
      db.manager,
      (await db.getRepository(Quota).find({ where: { eventId } })).map((q) => q.id),
      false,
    );
    const counted = await app.get(QuotaEngine).compute(db.manager, quotas);
    const pending = [...counted.values()].reduce((n, a) => n + a.pending_orders, 0);
    const created = 2 * (WARMUP + SEQUENTIAL + 2 * CONCURRENT);
    if (pending !== created)
      throw new Error(`engine counts ${pending} pending positions, expected ${created}`);
    const onFirst = counted.get(catalogue.quotas[0])!;
    process.stdout.write(
      `Checked: ${created} positions counted (${onFirst.pending_orders} on the first quota).\n`,
    );

    const perPage: Record<number, number> = {};
    for (const size of [1, 10, 50]) {
      perPage[size] = await bench.countStatements(async () => {
        const res = await get(`${ordersPath}?page_size=${size}`);
        if (res.status !== 200) throw new Error(`page_size=${size}: ${res.status}`);
        const page = JSON.parse(res.body) as { results: { positions: unknown[]; fees: unknown[] }[] };
        if (
          page.results.length !== size ||
          page.results.some((o) => o.positions.length !== 2 || o.fees.length !== 1)
        )
          throw new Error(`page_size=${size}: unexpected page`);
      });
    }
    const listPath = `${ordersPath}?page_size=${PAGE_SIZE}&page=3`;
    const list = async (i: number) => bench.expectStatus(await get(listPath), 200, `request ${i}`, 300);
    await bench.runLoad(10, 1, list);
    const listing = await bench.runLoad(LIST_REQUESTS, 1, list);

    const lines = [
      '',
      `POST orders/ (2 positions with answers, a fee, an invoice address) and GET orders/`,
      await bench.machineLine(db),
      '',
      ...bench.timingHead(['run']),
      bench.timingRow(['create, sequential (2 quotas per order)'], sequential),
      bench.timingRow([`create, concurrency ${CONCURRENCY}, all on one quota`], oneQuota),
      bench.timingRow([`create, concurrency ${CONCURRENCY}, over ten quotas`], tenQuotas),
      bench.timingRow([`list, page size ${PAGE_SIZE}, sequential`], listing),
      '',
      `SQL statements of GET orders/ by page size: ${bench.formatCounts(perPage)}`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  },
);
