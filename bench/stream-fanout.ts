/**
 * Benchmark of the live check-in stream (bench/README.md "Live check-in stream"; issue 26): 50 listeners on one
 * check-in list, then N redeems one after the other (and N more with 8 scanners at once); for each redeem and
 * each listener, the time from the redeem's answer to the event's receipt (negative when the push came first:
 * it is published right after the commit, before the answer is written).
 *
 * It creates its own database (`ticketing_bench_stream_<pid>`), boots the API as production does on a loopback
 * port (the push goes through Redis pub/sub, as between replicas), makes the tickets through the API, opens the
 * listeners, runs the redeems, checks that every listener got every check-in exactly once, and drops the database.
 *
 * Run: `npx ts-node --transpile-only bench/stream-fanout.ts [N]` (needs PostgreSQL and Redis as for the tests).
 */
import { openSse, SseStream } from '../test/sse-client';
import * as bench from './bench-harness';

const LISTENERS = 50;
const N = Number(process.argv[2] ?? 200);
const CONCURRENCY = 8;

bench.runBenchmark(
  { database: `ticketing_bench_stream_${process.pid}`, deadlineMs: 10 * 60_000, maxSockets: CONCURRENCY },
  async ({ app, db, organizer, token, post }) => {
    await bench.insertEvent(db, organizer.id, 'stream');
    const E = '/api/v1/organizers/bench/events/stream';
    const json = <T>(res: bench.HttpResult, status: number, what: string) =>
      JSON.parse(bench.expectStatus(res, status, what).body) as T;
    const item = json<{ id: number }>(
      await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' }),
      201,
      'item',
    );
    json(await post(`${E}/quotas/`, { name: 'Q', size: 100_000, items: [item.id] }), 201, 'quota');
    const list = json<{ id: number }>(
      await post(`${E}/checkinlists/`, { name: 'Main', all_products: true }),
      201,
      'list',
    );
    const secrets: string[] = [];
    while (secrets.length < 2 * N) {
      const n = Math.min(100, 2 * N - secrets.length);
      const order = json<{ positions: { secret: string }[] }>(
        await post(`${E}/orders/`, {
          status: 'p',
          positions: Array.from({ length: n }, () => ({ item: item.id })),
        }),
        201,
        'order',
      );
      secrets.push(...order.positions.map((p) => p.secret));
    }
    const port = (app.getHttpServer().address() as { port: number }).port;
    const url = `http://127.0.0.1:${port}${E}/checkinlists/${list.id}/stream/`;
    /** Receipt time of each secret at each listener. */
    const received: Map<string, number>[] = [];
    const listeners: SseStream[] = [];
    let duplicates = 0;
    for (let i = 0; i < LISTENERS; i++) {
      const s = await openSse(url, { Authorization: `Token ${token}` });
      if (s.status !== 200) throw new Error(`listener ${i}: ${s.status}`);
      const got = new Map<string, number>();
      s.onEvent = (e) => {
        const secret = (JSON.parse(e.data) as { secret: string }).secret;
        if (got.has(secret)) duplicates++;
        else got.set(secret, performance.now());
      };
      received.push(got);
      listeners.push(s);
    }
    const answered = new Map<string, number>();
    const redeem = async (secret: string) => {
      const res = await post(
        `${E}/checkinlists/${list.id}/positions/${secret}/redeem/?untrusted_input=true`,
        {},
      );
      answered.set(secret, performance.now());
      bench.expectStatus(res, 201, 'redeem');
    };
    const waitAll = async (batch: string[]) => {
      const until = performance.now() + 30_000;
      while (!received.every((got) => batch.every((s) => got.has(s)))) {
        if (performance.now() > until) throw new Error('not every listener got every check-in within 30 s');
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const figures = (batch: string[]) => {
      const lat = received
        .flatMap((got) => batch.map((s) => got.get(s)! - answered.get(s)!))
        .sort((a, b) => a - b);
      return {
        p50: bench.percentile(lat, 0.5),
        p95: bench.percentile(lat, 0.95),
        max: lat[lat.length - 1],
        n: lat.length,
      };
    };
    const sequential = secrets.slice(0, N);
    const started = performance.now();
    for (const s of sequential) await redeem(s);
    await waitAll(sequential);
    const seqMs = performance.now() - started;
    const parallel = secrets.slice(N);
    const next = [...parallel];
    const started2 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let s = next.shift(); s !== undefined; s = next.shift()) await redeem(s);
      }),
    );
    await waitAll(parallel);
    const parMs = performance.now() - started2;
    for (const s of listeners) s.close();
    if (duplicates > 0) throw new Error(`${duplicates} check-ins were received twice`);
    const a = figures(sequential);
    const b = figures(parallel);
    const row = (what: string, f: typeof a, ms: number) =>
      `| ${what} | ${N} | ${LISTENERS} | ${f.n} | ${bench.fmt(f.p50)} | ${bench.fmt(f.p95)} | ${bench.fmt(f.max)} | ${bench.fmt((N * 1000) / ms)} |`;
    process.stdout.write(
      [
        '',
        '| redeems | check-ins | listeners | pushes received | p50 ms | p95 ms | max ms | check-ins/s |',
        '|---|---|---|---|---|---|---|---|',
        row('one at a time', a, seqMs),
        row(`${CONCURRENCY} at once`, b, parMs),
        '',
        await bench.machineLine(db),
        '',
      ].join('\n'),
    );
  },
);
