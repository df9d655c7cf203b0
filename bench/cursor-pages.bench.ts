/**
 * Benchmark of deep list pages (issue 27 §3, README "Cursor pagination"): an event with 1,000,000 order positions
 * (one paid ticket copied by SQL, `loadPaidTickets`), then `GET E/orderpositions/` timed for the first page and
 * for the page holding row 900,000, in cursor mode (`?cursor=`, keyset: no offset, no count) and, for contrast,
 * in offset mode (`?page=`). The cursor of row 899,999 is made as the server makes it (the ordering values of the
 * row before, here its id). Each figure: a warm-up, then `REQUESTS` sequential requests (p50, p95, mean; offset pages fewer, a failure is reported). It also
 * counts the SQL statements per page. Figures go to stdout (see /work/notes/bench-cursor.md for a run).
 *
 * Run: `npx ts-node --transpile-only bench/cursor-pages.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import { encodeCursor, listFingerprint } from '../src/common/listing/cursor';
import * as bench from './bench-harness';

const POSITIONS = 1_000_000;
const DEEP_ROW = 900_000;
const PAGE_SIZE = 50;
const REQUESTS = Number(process.env.CURSOR_BENCH_REQUESTS ?? 40);
/** Warm-up requests before each timed series. */
const WARMUP = 5;

bench.runBenchmark(
  { database: `ticketing_bench_cursor_${process.pid}`, deadlineMs: 60 * 60_000, maxSockets: 2 },
  async (ctx) => {
    const { db, organizer, get, post } = ctx;
    await bench.insertEvent(db, organizer.id, 'deep');
    const E = '/api/v1/organizers/bench/events/deep';
    await bench.loadPaidTickets({ db, post }, E, POSITIONS - 1);
    const [{ n }] = await db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM order_position');
    if (n !== POSITIONS) throw new Error(`expected ${POSITIONS} positions, got ${n}`);
    // The id of the row before row 900,000 in the list's ordering (id): the cursor page after it holds that row.
    const [{ id: before }] = await db.query<{ id: number }[]>(
      'SELECT id FROM order_position ORDER BY id OFFSET $1 LIMIT 1',
      [DEEP_ROW - 2],
    );
    const path = `${E}/orderpositions/`;
    const deepCursor = encodeCursor(listFingerprint(path, { cursor: '', page_size: String(PAGE_SIZE) }), {
      direction: 'next',
      values: [String(before)],
      inclusive: false,
    });
    // Offset pages are slow (the deep one may hit the 30 s statement timeout): fewer of them.
    const cases: [string, string, number][] = [
      ['cursor', `${path}?cursor=&page_size=${PAGE_SIZE}`, REQUESTS],
      ['cursor', `${path}?cursor=${deepCursor}&page_size=${PAGE_SIZE}`, REQUESTS],
      ['offset', `${path}?page_size=${PAGE_SIZE}`, 5],
      ['offset', `${path}?page=${DEEP_ROW / PAGE_SIZE}&page_size=${PAGE_SIZE}`, 1],
    ];
    const lines = [
      `${POSITIONS.toLocaleString('en')} order positions, page_size ${PAGE_SIZE}, sequential requests`,
      '',
      '| mode | page | first row id | requests | statements | p50 ms | p95 ms | mean ms |',
      '|---|---|---|---|---|---|---|---|',
    ];
    const p50s: Record<string, number> = {};
    for (const [mode, url, requests] of cases) {
      const deep = url.includes('page=') || url.includes(deepCursor);
      const where = deep ? `row ${DEEP_ROW.toLocaleString('en')}` : 'first';
      let firstId = 0;
      let statements = 0;
      const times: number[] = [];
      try {
        const first = bench.expectStatus(await get(url), 200, url);
        const body = JSON.parse(first.body) as { results: { id: number }[]; count: number | null };
        if (body.results.length !== PAGE_SIZE) throw new Error(`${url}: ${body.results.length} rows`);
        firstId = body.results[0].id;
        statements = await bench.countStatements(() => get(url));
        if (requests >= 10) for (let i = 0; i < WARMUP; i++) await get(url);
        for (let i = 0; i < requests; i++) {
          const { ms } = await bench.timed(async () => bench.expectStatus(await get(url), 200, url));
          times.push(ms);
        }
      } catch (err) {
        const why = err instanceof Error ? err.message.slice(0, 80) : String(err);
        lines.push(
          `| ${mode} | ${where} | ${firstId || '-'} | ${times.length} | ${statements || '-'} | failed: ${why} | | |`,
        );
        process.stdout.write(`${lines[lines.length - 1]}\n`);
        continue;
      }
      times.sort((a, b) => a - b);
      const mean = times.reduce((a, b) => a + b, 0) / times.length;
      const p50 = bench.percentile(times, 0.5);
      p50s[`${mode} ${deep ? 'deep' : 'first'}`] = p50;
      lines.push(
        `| ${mode} | ${where} | ${firstId} | ${requests} | ${statements} | ` +
          `${bench.fmt(p50)} | ${bench.fmt(bench.percentile(times, 0.95))} | ${bench.fmt(mean)} |`,
      );
      process.stdout.write(`${lines[lines.length - 1]}\n`);
    }
    const ratio = p50s['cursor deep'] / p50s['cursor first'];
    lines.push('', `Cursor mode, deep / first page (p50): ${ratio.toFixed(2)}x`);
    if (p50s['offset deep'] !== undefined)
      lines.push(
        `Offset mode, deep / first page (p50): ${(p50s['offset deep'] / p50s['offset first']).toFixed(2)}x`,
      );
    lines.push('', await bench.machineLine(db));
    process.stdout.write(`\n${lines.join('\n')}\n`);
    if (ratio > 2) throw new Error(`deep cursor page ${ratio.toFixed(2)}x the first`);
  },
);
