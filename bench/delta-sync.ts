/**
 * Benchmark of the scanners' delta sync (README "Delta sync for scanners"; issue 26): a check-in list of 100,000
 * paid tickets, 1% of them changed after a scanner's last sync (attendee names, canceled orders, check-ins on the
 * list made through the API, regenerated secrets), then `GET E/checkinlists/{list}/positions/?changed_since=`
 * read to its end (all pages). Goal: under 1 s and under 1 MB for the whole delta.
 *
 * It creates its own database (`ticketing_bench_delta_<pid>`), migrates it, boots the API as production does on a
 * loopback port, makes one paid order through the API and clones it into 100,000 tickets by SQL (each its own
 * order and secret), takes a cursor (the watermark a full sync would hand out in `X-Delta-Cursor`), changes 1% of
 * the tickets, waits until the changes are below the watermark, and reads the delta 5 times from the same cursor
 * (read-only: the same answer each time), checking that it holds exactly the changed tickets. It also times one
 * page of 50 of the plain list for comparison. The database is dropped at the end.
 *
 * Run: `npx ts-node --transpile-only bench/delta-sync.ts` (needs PostgreSQL and Redis as for the tests).
 */
import type { DataSource } from 'typeorm';
import { encodeDeltaCursor } from '../src/checkin/delta-cursor';
import * as bench from './bench-harness';

const TICKETS = 100_000;
const RENAMED = 500;
const CANCELED = 200;
const REDEEMED = 200;
const REVOKED = 100;
const CHANGED = RENAMED + CANCELED + REDEEMED + REVOKED;
const RUNS = 5;

/** Waits until every transaction that started before now has ended (the delta's watermark passed them). */
async function settle(db: DataSource): Promise<void> {
  const [{ next }] = await db.query<{ next: string }[]>(
    'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next',
  );
  for (;;) {
    const [{ passed }] = await db.query<{ passed: boolean }[]>(
      'SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint >= $1::bigint AS passed',
      [next],
    );
    if (passed) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface DeltaPage {
  results: { id: number }[];
  removed: number[];
  revoked_secrets: string[];
  next: string | null;
  next_cursor: string;
}

bench.runBenchmark(
  { database: `ticketing_bench_delta_${process.pid}`, deadlineMs: 20 * 60_000, maxSockets: 8 },
  async ({ db, organizer, get, post }) => {
    await bench.insertEvent(db, organizer.id, 'delta');
    const E = '/api/v1/organizers/bench/events/delta';
    const { template } = await bench.loadPaidTickets({ db, post }, E, TICKETS - 1);
    const list = JSON.parse(
      bench.expectStatus(await post(`${E}/checkinlists/`, { name: 'Main', all_products: true }), 201, 'list')
        .body,
    ) as { id: number };
    const base = `${E}/checkinlists/${list.id}/positions/`;
    const first = JSON.parse(bench.expectStatus(await get(`${base}?page_size=50`), 200, 'list').body) as {
      count: number;
    };
    if (first.count !== TICKETS) throw new Error(`expected ${TICKETS} positions, got ${first.count}`);

    // The scanner's last sync: the cursor a full read hands out (`X-Delta-Cursor`: the watermark before it).
    await settle(db);
    const [{ watermark }] = await db.query<{ watermark: string }[]>(
      'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS watermark',
    );
    const cursor = encodeDeltaCursor({ list: list.id, lo: watermark, hi: null, after: 0 });

    // 1% changes, over the whole id range: names and canceled orders by SQL, check-ins through the API.
    process.stdout.write(`Changing ${CHANGED} tickets...\n`);
    const step = Math.floor(TICKETS / CHANGED);
    const picked = await db.query<{ id: number; order_id: number; secret: string }[]>(
      `SELECT id, order_id, secret FROM order_position WHERE event_id = (SELECT event_id FROM order_position WHERE order_id = $1)
        ORDER BY id`,
      [template],
    );
    const chosen = picked.filter((_, i) => i % step === 0).slice(0, CHANGED);
    const renamed = chosen.slice(0, RENAMED);
    const canceled = chosen.slice(RENAMED, RENAMED + CANCELED);
    const redeemed = chosen.slice(RENAMED + CANCELED, RENAMED + CANCELED + REDEEMED);
    const revoked = chosen.slice(RENAMED + CANCELED + REDEEMED);
    await db.query(
      `UPDATE order_position SET attendee_name_parts = jsonb_build_object('_legacy', 'Renamed ' || id) WHERE id = ANY($1)`,
      [renamed.map((p) => p.id)],
    );
    await db.query(`UPDATE orders SET status = 'c' WHERE id = ANY($1)`, [canceled.map((p) => p.order_id)]);
    await bench.runLoad(redeemed.length, 8, async (i) =>
      bench.expectStatus(await post(`${base}${redeemed[i].secret}/redeem/`, {}), 201, 'redeem'),
    );
    await db.query(
      `WITH r AS (INSERT INTO revoked_secret (event_id, position_id, secret)
                  SELECT event_id, id, secret FROM order_position WHERE id = ANY($1) RETURNING position_id)
       UPDATE order_position SET secret = 'N' || secret WHERE id IN (SELECT position_id FROM r)`,
      [revoked.map((p) => p.id)],
    );
    await settle(db);

    const readDelta = async () => {
      let url: string | null = `${base}?changed_since=${cursor}`;
      const seen = { results: 0, removed: 0, revoked: 0, bytes: 0, pages: 0, ms: 0 };
      const started = process.hrtime.bigint();
      while (url !== null) {
        const res = bench.expectStatus(await get(url.replace(/^https?:\/\/[^/]+/, '')), 200, 'delta');
        const page = JSON.parse(res.body) as DeltaPage;
        seen.results += page.results.length;
        seen.removed += page.removed.length;
        seen.revoked += page.revoked_secrets.length;
        seen.bytes += Buffer.byteLength(res.body);
        seen.pages += 1;
        url = page.next;
      }
      seen.ms = Number(process.hrtime.bigint() - started) / 1e6;
      return seen;
    };
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await readDelta());
    for (const r of runs) {
      if (r.results !== CHANGED - CANCELED || r.removed !== CANCELED || r.revoked !== REVOKED) {
        throw new Error(`unexpected delta: ${JSON.stringify(r)}`);
      }
    }
    const statements = await bench.countStatements(() => get(`${base}?changed_since=${cursor}`));
    const pageOf50 = await bench.runLoad(20, 1, async () =>
      bench.expectStatus(await get(`${base}?page_size=50`), 200, 'list'),
    );
    const listBytes = Buffer.byteLength((await get(`${base}?page_size=50`)).body);
    const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
    process.stdout.write(
      [
        '',
        `Delta sync: ${TICKETS} tickets on one list, ${CHANGED} changed (${RENAMED} renamed, ${CANCELED} orders canceled, ${REDEEMED} checked in through the API, ${REVOKED} secrets regenerated)`,
        await bench.machineLine(db),
        '',
        `Whole delta (${runs[0].pages} page(s), ${runs[0].results} positions, ${runs[0].removed} removed, ${runs[0].revoked} revoked secrets):`,
        `  time over ${RUNS} reads: median ${bench.fmt(ms[Math.floor(RUNS / 2)])} ms, max ${bench.fmt(ms[RUNS - 1])} ms`,
        `  size: ${runs[0].bytes} bytes (${(runs[0].bytes / 1024).toFixed(0)} KiB, uncompressed JSON)`,
        `  SQL statements per delta page: ${statements}`,
        '',
        `For comparison, the plain list: a page of 50 ${listBytes} bytes, p50 ${bench.fmt(pageOf50.p50)} ms; a full sync is ${TICKETS / 50} such pages (~${((listBytes * TICKETS) / 50 / 1024 / 1024).toFixed(0)} MiB).`,
        '',
      ].join('\n'),
    );
  },
);
