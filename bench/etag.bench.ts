/**
 * Benchmark of ETags and conditional requests (README "Sync and concurrency"; issue 27 §2): what the `ETag` costs a
 * list GET, what a 304 saves, and what `If-Match` costs a write.
 *
 * It creates its own database (`ticketing_bench_etag_<pid>`), boots the API as production does on a loopback port,
 * loads by SQL 60 gift cards (a full page of 50), then, one request at a time after a warm-up, in alternating order
 * (A B, B A):
 * - `GET O/giftcards/?page_size=50` answered 200 (the body hashed: SHA-256 of the whole page) and the same with
 *   `If-None-Match` of the current tag (304, no body);
 * - `PATCH O/giftcards/{id}/` (`comment`) without `If-Match` and with `If-Match: *` (the write lock and the two
 *   loopback reads of the card);
 * and the bare cost of `entityTag()` on the page's JSON text (microseconds per hash, in process). The database is
 * dropped at the end, also on failure.
 *
 * Run: `npx ts-node --transpile-only bench/etag.bench.ts` (needs PostgreSQL and Redis as for the tests).
 */
import http from 'http';
import type { AddressInfo } from 'net';
import { entityTag } from '../src/common/http/etag';
import * as bench from './bench-harness';

const CARDS = 60;
const WARMUP = 100;
const REQUESTS = 1000;

bench.runBenchmark(
  { database: `ticketing_bench_etag_${process.pid}`, deadlineMs: 10 * 60_000, maxSockets: 2 },
  async ({ app, db, organizer, token }) => {
    await db.query(
      `INSERT INTO giftcard (issuer_id, secret, value, currency)
       SELECT $1, 'ETAG' || g, 10, 'EUR' FROM generate_series(1, $2::int) g`,
      [organizer.id, CARDS],
    );
    await db.query('ANALYZE');
    const [card] = await db.query<{ id: number }[]>('SELECT min(id) AS id FROM giftcard');
    const port = app.getHttpServer().address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
    const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const started = process.hrtime.bigint();
      return new Promise<{ status: number; etag: string; text: string; ms: number }>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: port.port,
            path,
            method,
            agent,
            headers: {
              Authorization: `Token ${token}`,
              Accept: 'application/json',
              ...(payload ? { 'Content-Type': 'application/json' } : {}),
              ...headers,
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                etag: String(res.headers.etag ?? ''),
                text: Buffer.concat(chunks).toString('utf8'),
                ms: Number(process.hrtime.bigint() - started) / 1e6,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    };
    const expect = async (status: number, what: string, p: ReturnType<typeof call>) => {
      const res = await p;
      if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
      return res;
    };
    const list = '/api/v1/organizers/bench/giftcards/?page_size=50';
    const detail = `/api/v1/organizers/bench/giftcards/${card.id}/`;
    const page = await expect(200, 'list', call('GET', list, {}));
    const tag = page.etag;
    const scenarios: Record<string, (i: number) => Promise<{ ms: number }>> = {
      'GET list (200, ETag)': () => expect(200, 'list', call('GET', list, {})),
      'GET list If-None-Match (304)': () =>
        expect(304, 'list 304', call('GET', list, { 'If-None-Match': tag })),
      'PATCH card': (i) => expect(200, 'patch', call('PATCH', detail, {}, { comment: `c${i}` })),
      'PATCH card If-Match: *': (i) =>
        expect(200, 'patch if-match', call('PATCH', detail, { 'If-Match': '*' }, { comment: `m${i}` })),
    };
    process.stdout.write('Warming up...\n');
    for (const run of Object.values(scenarios)) await bench.runLoad(WARMUP, 1, run);
    const runs: [string, number, bench.Timing][] = [];
    const names = Object.keys(scenarios);
    for (const [round, order] of [
      [1, names],
      [2, [...names].reverse()],
    ] as const) {
      for (const name of order) runs.push([name, round, await bench.runLoad(REQUESTS, 1, scenarios[name])]);
    }
    const hashes = 2000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < hashes; i++) entityTag(page.text);
    const hashUs = Number(process.hrtime.bigint() - started) / 1e3 / hashes;
    agent.destroy();
    const lines = [
      '',
      `ETags: list page of 50 gift cards (${page.text.length} bytes of JSON), one request at a time`,
      await bench.machineLine(db),
      '',
      ...bench.timingHead(['scenario', 'round']),
      ...runs.map(([name, round, timing]) => bench.timingRow([name, round], timing)),
      '',
      `entityTag() of the page's JSON: ${hashUs.toFixed(1)} µs per hash (in process)`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  },
);
