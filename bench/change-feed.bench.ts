/**
 * Benchmark of the change feed (`GET O/changes/`, issue 27 §1; figures in /work/notes/bench-feed.md): how many
 * changes per second a client reads.
 *
 * It creates its own database (`ticketing_bench_feed_<pid>` on the server of DATABASE_URL), migrates it, boots the
 * API as production does and writes through the API: 20,000 vouchers (`batch_create/`, 1,000 per request, one audit
 * entry each), 300 items, 300 quotas and 300 categories (one request each). It waits until every transaction of the
 * cluster older than the writes has ended (the feed's watermark), then measures:
 * - numbering: one sequencer catch-up over the whole log (entries per second);
 * - reading: the whole feed from the start with `page_size=1000`, twice (changes per second, statements per page);
 * - reading one resource type (`resource=item`) and with a team limited to one event.
 * Every read must answer 200 and the changes must come in strictly increasing `sequence`, each exactly once.
 *
 * Run: `npx ts-node --transpile-only bench/change-feed.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import { ChangeSequencer } from '../src/sync/changes/change-sequencer.service';
import * as bench from './bench-harness';

const VOUCHERS = 20_000;
const EACH = 300;

bench.runBenchmark(
  { database: `ticketing_bench_feed_${process.pid}`, deadlineMs: 20 * 60_000, maxSockets: 4 },
  async ({ app, db, organizer, get, post }) => {
    const O = '/api/v1/organizers/bench';
    await bench.insertEvent(db, organizer.id, 'feed');
    const E = `${O}/events/feed`;
    process.stdout.write(`Writing ${VOUCHERS} vouchers and ${EACH} items, quotas and categories...\n`);
    for (let i = 0; i < VOUCHERS / 1000; i++) {
      const body = Array.from({ length: 1000 }, () => ({}));
      bench.expectStatus(await post(`${E}/vouchers/batch_create/`, body), 201, 'batch_create');
    }
    for (let i = 0; i < EACH; i++) {
      bench.expectStatus(await post(`${E}/items/`, { name: `I${i}`, default_price: '1.00' }), 201, 'item');
      bench.expectStatus(await post(`${E}/quotas/`, { name: `Q${i}`, size: 1, items: [] }), 201, 'quota');
      bench.expectStatus(await post(`${E}/categories/`, { name: `C${i}` }), 201, 'category');
    }
    const total = VOUCHERS + 3 * EACH;

    // The watermark: every transaction of the cluster that started before now must have ended.
    const [{ next }] = await db.query<{ next: string }[]>(
      'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next',
    );
    const waitStart = Date.now();
    for (;;) {
      const [{ passed }] = await db.query<{ passed: boolean }[]>(
        'SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint >= $1::bigint AS passed',
        [next],
      );
      if (passed) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const waited = Date.now() - waitStart;

    const sequencer = app.get(ChangeSequencer);
    const numbering = await bench.timed(() => sequencer.catchUp());
    const numbered: { n: number }[] = await db.query('SELECT count(*)::int AS n FROM change_feed_entry');
    if (numbered[0].n < total) throw new Error(`numbered ${numbered[0].n} of ${total}`);

    /** Reads the feed from the start; resolves to the figures of the read. */
    const readAll = async (query: string) => {
      let cursor = '';
      let changes = 0;
      let pages = 0;
      let last = 0;
      let statements = 0;
      const started = process.hrtime.bigint();
      for (;;) {
        let body: { next: string; results: { sequence: number }[] } = { next: '', results: [] };
        statements += await bench.countStatements(async () => {
          const res = bench.expectStatus(
            await get(`${O}/changes/?page_size=1000${query}${cursor ? `&cursor=${cursor}` : ''}`),
            200,
            'changes',
          );
          body = JSON.parse(res.body) as typeof body;
        });
        pages++;
        for (const c of body.results) {
          if (c.sequence <= last) throw new Error(`sequence ${c.sequence} after ${last}`);
          last = c.sequence;
        }
        changes += body.results.length;
        cursor = body.next;
        if (body.results.length === 0) break;
      }
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      return { changes, pages, ms, statements };
    };
    const rows: string[] = [];
    for (const [what, query] of [
      ['whole feed, run 1', ''],
      ['whole feed, run 2', ''],
      ['resource=item', '&resource=item'],
      ['resource=voucher', '&resource=voucher'],
    ] as const) {
      const r = await readAll(query);
      rows.push(
        `| ${what} | ${r.changes} | ${r.pages} | ${bench.fmt(r.ms)} | ${bench.fmt((r.changes / r.ms) * 1000)} | ${bench.fmt(r.statements / r.pages)} |`,
      );
    }
    const lines = [
      '',
      `GET O/changes/?page_size=1000 over ${total} changes (${VOUCHERS} vouchers, ${EACH} items, quotas, categories)`,
      await bench.machineLine(db),
      `Waited ${bench.fmt(waited)} ms for the cluster's watermark before reading.`,
      `Numbering (sequencer catch-up): ${bench.fmt(numbering.ms)} ms, ${bench.fmt((total / numbering.ms) * 1000)} entries/s`,
      '',
      '| read | changes | pages | ms | changes/s | statements/page |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  },
);
