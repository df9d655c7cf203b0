/**
 * Benchmark of the `orderlist` export (bench/README.md "Exports"): 100,000 order positions exported as XLSX, CSV
 * and JSON by a real worker process (a fresh one per format), timing each run and reading the worker's peak
 * resident memory (`VmHWM`). Goal: under 30 s and under 300 MB.
 *
 * It creates its own database (`ticketing_bench_exports_<pid>`), migrates it, boots the API, creates an item
 * through the API, loads 50,000 orders of two positions by SQL (then `ANALYZE`), adds a user of the administrators team as the
 * owner of one scheduled export per format, starts `dist/src/worker.js` (built when older than the sources),
 * makes the export due and waits for its run to succeed. The database is dropped at the end.
 *
 * Run: `npx ts-node --transpile-only bench/exports.bench.ts` (needs PostgreSQL and Redis as for the tests).
 * `BENCH_EXPORT_ORDERS` changes the number of orders (default 50,000: 100,000 positions); `WORKER_NODE_OPTIONS` is
 * passed to the worker as `NODE_OPTIONS` (e.g. `--require` of a memory sampler).
 */
import { readFileSync } from 'fs';
import * as bench from './bench-harness';
import { UsersService } from '../src/auth/users.service';
import { AppConfig } from '../src/config/app-config';
import { seedOrders } from '../test/export-fixtures';
import { deleteQueueKeys, startWorker, stopAllWorkers } from '../test/worker-harness';

const ORDERS = Number(process.env.BENCH_EXPORT_ORDERS ?? 50_000);
const PER_ORDER = 2;

/** Peak and current resident memory of a process in MB (`/proc/<pid>/status`). */
function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}

bench.runBenchmark(
  { database: `ticketing_bench_exports_${process.pid}`, deadlineMs: 15 * 60_000, maxSockets: 1 },
  async ({ app, db, organizer, post }) => {
    const eventId = await bench.insertEvent(db, organizer.id, 'exports');
    const item = JSON.parse(
      bench.expectStatus(
        await post('/api/v1/organizers/bench/events/exports/items/', {
          name: { en: 'Ticket' },
          default_price: '10.00',
        }),
        201,
        'item',
      ).body,
    ) as { id: number };
    process.stdout.write(`Loading ${ORDERS * PER_ORDER} positions by SQL...\n`);
    // In parts of 50,000 orders: the fixture's order codes have five digits after the prefix.
    for (let done = 0, part = 0; done < ORDERS; done += 50_000, part++)
      await seedOrders(db, {
        organizerId: organizer.id,
        eventId,
        itemId: item.id,
        orders: Math.min(50_000, ORDERS - done),
        positionsPerOrder: PER_ORDER,
        prefix: part === 0 ? 'B' : `B${part}`,
        status: 'p',
      });
    // Statistics as autovacuum would gather them soon after such a load: without them the planner expects a few
    // rows of the event and reads all of them for every batch of the export (quadratic in the positions).
    await db.query('ANALYZE');
    const user = await app.get(UsersService).create('owner@example.com', 'password123', 'Owner');
    await db.query(
      `INSERT INTO team_member (team_id, user_id) SELECT id, $2 FROM team WHERE organizer_id = $1`,
      [organizer.id, user.id],
    );
    const config = app.get(AppConfig);
    const url = new URL(config.databaseUrl);
    const lines: string[] = [];
    try {
      for (const format of ['xlsx', 'csv', 'json'] as const) {
        // A fresh worker per format, so that each peak is that export's own.
        await stopAllWorkers();
        const worker = await startWorker({
          DATABASE_URL: url.toString(),
          QUEUE_PREFIX: config.queuePrefix,
          SCHEDULER_INTERVAL_MS: '500',
          SCHEDULER_WATCH_MS: '500',
          LOG_LEVEL: 'log',
          ...(process.env.WORKER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.WORKER_NODE_OPTIONS } : {}),
        });
        const idle = memoryOf(worker.pid);
        const rows: { id: number }[] = await db.query(
          `INSERT INTO scheduled_export (organizer_id, event_id, owner_id, export_identifier, export_form_data,
                                         schedule_rrule, schedule_rrule_time, timezone, schedule_next_run)
           VALUES ($1, $2, $3, 'orderlist', $4, 'RRULE:FREQ=DAILY', '03:00:00', 'UTC', now()) RETURNING id`,
          [
            organizer.id,
            eventId,
            user.id,
            { _format: format, paid_only: false, include_payment_amounts: true, date_range: '/', items: [] },
          ],
        );
        const started = Date.now();
        let task: { state: string; started: Date; finished: Date; size: number } | undefined;
        for (;;) {
          const found: { state: string; started: Date; finished: Date; size: number }[] = await db.query(
            `SELECT t.state, t.started, t.finished, coalesce(f.size, 0) AS size
               FROM async_task t LEFT JOIN stored_file f ON f.id = t.result_file_id
              WHERE t.input->>'scheduled_export_id' = $1 AND t.state IN ('succeeded', 'failed')`,
            [String(rows[0].id)],
          );
          if (found.length > 0) {
            task = found[0];
            break;
          }
          if (Date.now() - started > 300_000) throw new Error(`${format} export did not finish in 300 s`);
          await new Promise((r) => setTimeout(r, 100));
        }
        if (task.state !== 'succeeded') throw new Error(`${format} export ${task.state}`);
        const runMs = task.finished.getTime() - task.started.getTime();
        const mem = memoryOf(worker.pid);
        lines.push(
          `| ${format} | ${ORDERS * PER_ORDER} | ${(runMs / 1000).toFixed(1)} | ${((Date.now() - started) / 1000).toFixed(1)} | ` +
            `${(task.size / 2 ** 20).toFixed(1)} | ${mem.peakMb.toFixed(0)} | ${idle.rssMb.toFixed(0)} |`,
        );
      }
    } finally {
      await stopAllWorkers();
      await deleteQueueKeys(config.queuePrefix);
    }
    process.stdout.write(
      [
        '',
        '| format | positions | run s (task started → finished) | due → done s | file MB | worker peak RSS MB (VmHWM) | worker idle RSS MB |',
        '|---|---|---|---|---|---|---|',
        ...lines,
        '',
        await bench.machineLine(db),
        '',
      ].join('\n'),
    );
  },
);
