import type { INestApplication } from '@nestjs/common';
import type TestAgent from 'supertest/lib/agent';
import { AppConfig } from '../src/config/app-config';
import { startTestApp, TestApp } from './harness';
import { RedisProxy } from './redis-proxy';
import { startTaskEndpoints } from './tasks-helpers';
import {
  deleteQueueKeys,
  eventually,
  startWorker,
  stopAllWorkers,
  workerEnvFor,
  WorkerProcess,
} from './worker-harness';

/**
 * Redis going away and coming back (architecture.md "Processes"; README "Configuration" `QUEUE_TIMEOUT_MS`),
 * through a TCP proxy this file owns: writes that need the queue answer 503 with Retry-After at once, reads keep
 * answering, and API and worker recover by themselves, also when Redis comes back empty (the worker re-creates the
 * scheduler's tick and logs so).
 */
describe('Redis outage', () => {
  let t: TestApp;
  let api: { app: INestApplication; http: () => TestAgent };
  let proxy: RedisProxy;
  let worker: WorkerProcess;
  let prefix: string;

  beforeAll(async () => {
    proxy = new RedisProxy(3843);
    await proxy.start();
    t = await startTestApp();
    prefix = t.app.get(AppConfig).queuePrefix;
    api = await startTaskEndpoints({
      databaseUrl: workerEnvFor(t).DATABASE_URL,
      queuePrefix: prefix,
      redisUrl: proxy.url,
    });
    worker = await startWorker({
      ...workerEnvFor(t),
      REDIS_URL: proxy.url,
      DIAGNOSTIC_TASKS: '1',
      JOB_LOCK_MS: '2000',
      SCHEDULER_INTERVAL_MS: '1000',
      SCHEDULER_WATCH_MS: '500',
    });
  });
  afterAll(async () => {
    await stopAllWorkers();
    await api.app.close();
    await proxy.stop();
    await t.close();
    await deleteQueueKeys(prefix);
  });

  const start = () => api.http().post('/tasks').set('X-Token-Id', '1').send({ ms: 10, file: 'x' });
  const succeeded = (id: string) => async () =>
    (await t.db.query<{ state: string }[]>('SELECT state FROM async_task WHERE id = $1', [id]))[0].state ===
    'succeeded';

  it('answers 503 while Redis is down, keeps reads working, and recovers (also from an empty Redis) by itself', async () => {
    const before = await start();
    expect(before.status).toBe(202);
    await eventually(succeeded(before.body.id as string));
    await worker.waitForLog(/Scheduler.*tick /, 10_000);

    await proxy.stop();
    // Redis restarted empty: this test's keys are gone when it comes back.
    await deleteQueueKeys(prefix);
    const from = worker.output().length;
    const t0 = Date.now();
    const down = await start();
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toBe('10');
    const read = await api.http().get(`/tasks/${before.body.id}`).set('X-Token-Id', '1');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ status: 'ok', file: 'x' });

    await proxy.start();
    const after = await eventually(
      async () => {
        const res = await start();
        return res.status === 202 ? res : null;
      },
      15_000,
      250,
    );
    await eventually(succeeded(after.body.id as string), 15_000);
    const recreated = await worker.waitForLog(/repeatable tick was missing.*re-created/, 10_000, from);
    await worker.waitForLog(
      /Scheduler.*tick /,
      10_000,
      worker.output().indexOf(recreated, from) + recreated.length,
    );
  });
});
