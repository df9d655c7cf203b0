import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type TestAgent from 'supertest/lib/agent';
import { AppConfig } from '../src/config/app-config';
import { JobQueues } from '../src/tasks/job-queues.service';
import { QUEUES } from '../src/tasks/queues';
import { MailDelivery } from '../src/mail/mail-delivery.processor';
import { MailModule } from '../src/mail/mail.module';
import { QueueWorkers } from '../src/tasks/queue-workers.service';
import { TaskRunner, WORKER_LOST } from '../src/tasks/task-runner.processor';
import { startTestApp, TestApp } from './harness';
import { startTaskEndpoints } from './tasks-helpers';
import {
  deleteQueueKeys,
  eventually,
  startWorker,
  stopAllWorkers,
  workerEnvFor,
  WorkerProcess,
} from './worker-harness';

interface TaskRow {
  state: string;
  attempts: number;
  message: string | null;
  progress: number | null;
  started: Date | null;
  finished: Date | null;
}

/**
 * Async tasks end to end: the task row, its queue job, real worker processes (`dist/src/worker.js`) running the
 * harmless `diagnostic.sleep` task, and the poll helper's answers over HTTP (409/410/417/404, 503 without Redis).
 */
describe('async tasks', () => {
  let t: TestApp;
  let api: { app: INestApplication; http: () => TestAgent };
  let prefix: string;
  const workerEnv = (extra: Record<string, string> = {}) => ({
    ...workerEnvFor(t),
    DIAGNOSTIC_TASKS: '1',
    JOB_LOCK_MS: '2000',
    SCHEDULER_INTERVAL_MS: '1000',
    SCHEDULER_WATCH_MS: '500',
    ...extra,
  });

  beforeAll(async () => {
    t = await startTestApp();
    prefix = t.app.get(AppConfig).queuePrefix;
    api = await startTaskEndpoints({ databaseUrl: workerEnvFor(t).DATABASE_URL, queuePrefix: prefix });
  });
  afterEach(() => stopAllWorkers());
  afterAll(async () => {
    await api.app.close();
    await t.close();
    await deleteQueueKeys(prefix);
  });

  const start = async (input: Record<string, unknown>, token = '1'): Promise<string> => {
    const res = await api.http().post('/tasks').set('X-Token-Id', token).send(input);
    expect(res.status).toBe(202);
    return (res.body as { id: string }).id;
  };
  const poll = (id: string, query = '', token = '1') =>
    api.http().get(`/tasks/${id}${query}`).set('X-Token-Id', token);
  const row = async (id: string): Promise<TaskRow> =>
    (await t.db.query<TaskRow[]>('SELECT * FROM async_task WHERE id = $1', [id]))[0];
  const stateIs = (id: string, state: string) => async () => (await row(id)).state === state;

  it('the API process only enqueues: no queue worker or processor is registered there', () => {
    const modules = [...t.app.get(ModulesContainer).values()];
    const registered = (token: unknown) => modules.some((m) => m.providers.has(token as string));
    expect(registered(JobQueues)).toBe(true);
    for (const processor of [QueueWorkers, TaskRunner, MailDelivery])
      expect(registered(processor)).toBe(false);
    expect(Reflect.getMetadata('__module:global__', MailModule)).toBeUndefined();
  });

  describe('with one worker', () => {
    let worker: WorkerProcess;
    beforeEach(async () => {
      worker = await startWorker(workerEnv());
    });

    it('goes waiting -> running -> succeeded; polls answer 409 with Retry-After, then 200 with the file', async () => {
      const id = await start({ ms: 2500, file: 'hello' });
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const first = await poll(id);
      expect(first.status).toBe(409);
      expect(['waiting', 'running']).toContain((first.body as { status: string }).status);
      expect(first.headers['retry-after']).toBe('1');

      await eventually(stateIs(id, 'running'));
      const running = await poll(id);
      expect(running.status).toBe(409);
      expect(running.body).toEqual({ status: 'running' });

      await eventually(stateIs(id, 'succeeded'));
      const done = await poll(id);
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ status: 'ok', message: 'OK', file: 'hello' });
      const r = await row(id);
      expect(r).toMatchObject({ state: 'succeeded', attempts: 1, progress: 100 });
      expect(r.finished!.getTime()).toBeGreaterThanOrEqual(r.started!.getTime());
      expect(worker.output()).not.toMatch(/ERROR/);
    });

    it('a failed task answers 410 {status: failed, message} (417 where a shred status asks for it)', async () => {
      const id = await start({ ms: 10, fail: 'The export failed: no data.' });
      await eventually(stateIs(id, 'failed'));
      const gone = await poll(id);
      expect(gone.status).toBe(410);
      expect(gone.body).toEqual({ status: 'failed', message: 'The export failed: no data.' });
      const shred = await poll(id, '?failed=417');
      expect(shred.status).toBe(417);
      expect(shred.body).toEqual({ status: 'failed', message: 'The export failed: no data.' });
      expect((await row(id)).attempts).toBe(1);
    });

    it("unknown, malformed, expired and other credentials' tasks are 404 (or 410 gone where asked)", async () => {
      const id = await start({ ms: 10 });
      await eventually(stateIs(id, 'succeeded'));
      expect((await poll(id)).status).toBe(200);
      for (const res of [
        await poll('00000000-0000-4000-8000-000000000000'),
        await poll('not-a-task'),
        await poll(id, '', '2'),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: 'Not found.' });
      }
      const gone = await poll(id, '?missing=410', '2');
      expect(gone.status).toBe(410);
      expect(gone.body).toEqual({ status: 'gone', message: 'May have succeeded or timed out.' });
      await t.db.query("UPDATE async_task SET expires = now() - interval '1 second' WHERE id = $1", [id]);
      expect((await poll(id)).status).toBe(404);
    });

    it("the scheduler fails a task whose job the queue lost, instead of leaving it 'running'", async () => {
      const [{ id }] = await t.db.query<{ id: string }[]>(
        `INSERT INTO async_task (id, kind, queue, credential_kind, credential_id, state, started, expires)
         VALUES (gen_random_uuid(), 'diagnostic.sleep', 'exports', 'team_token', 1, 'running',
                 now() - interval '1 minute', now() + interval '1 hour') RETURNING id`,
      );
      await eventually(stateIs(id, 'failed'), 15_000);
      const res = await poll(id);
      expect(res.status).toBe(410);
      expect(res.body).toEqual({ status: 'failed', message: WORKER_LOST });
    });

    it('re-creates the scheduler tick when Redis lost it (keys of this queue prefix deleted), and logs so', async () => {
      await worker.waitForLog(/Scheduler.*tick /, 10_000);
      const from = worker.output().length;
      expect(await deleteQueueKeys(prefix, 'scheduler:*')).toBeGreaterThan(0);
      const recreated = await worker.waitForLog(/repeatable tick was missing.*re-created/, 10_000, from);
      const after = worker.output().indexOf(recreated, from) + recreated.length;
      await worker.waitForLog(/Scheduler.*tick /, 10_000, after);
    });
  });

  it('a task whose worker is killed (SIGKILL) mid-run is taken over by another worker and succeeds', async () => {
    const first = await startWorker(workerEnv());
    const id = await start({ ms: 3000 });
    await eventually(stateIs(id, 'running'));
    first.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect((await row(id)).state).toBe('running');

    const second = await startWorker(workerEnv());
    await eventually(stateIs(id, 'succeeded'), 18_000);
    expect((await row(id)).attempts).toBe(2);
    expect(second.output()).toMatch(new RegExp(`job ${id} stalled`));
    expect((await poll(id)).status).toBe(200);
  });

  it('a task whose worker dies twice ends failed with a message (never left running)', async () => {
    const workers = await Promise.all([0, 1, 2].map(() => startWorker(workerEnv())));
    const id = await start({ ms: 15000 });
    const runnerOf = (attempt: number) =>
      eventually(async () => {
        const re = new RegExp(`task ${id} \\(diagnostic.sleep\\) running, attempt ${attempt}`);
        return Promise.resolve(workers.find((w) => re.test(w.output())));
      }, 12_000);
    const first = await runnerOf(1);
    first.kill('SIGKILL');
    await first.exited;
    const second = await runnerOf(2);
    second.kill('SIGKILL');
    await second.exited;
    await eventually(stateIs(id, 'failed'), 12_000);
    expect(await row(id)).toMatchObject({ state: 'failed', attempts: 2, message: WORKER_LOST });
    const res = await poll(id);
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ status: 'failed', message: WORKER_LOST });
  });

  it('two workers process each of N tasks exactly once', async () => {
    await Promise.all([startWorker(workerEnv()), startWorker(workerEnv())]);
    const ids = await Promise.all(Array.from({ length: 12 }, () => start({ ms: 200 })));
    await eventually(async () => {
      const rows = await t.db.query<{ n: number }[]>(
        "SELECT count(*)::int AS n FROM async_task WHERE id = ANY($1) AND state = 'succeeded'",
        [ids],
      );
      return rows[0].n === ids.length;
    }, 18_000);
    const attempts = await t.db.query<
      {
        attempts: number;
      }[]
    >('SELECT attempts FROM async_task WHERE id = ANY($1)', [ids]);
    expect(attempts.map((a) => a.attempts)).toEqual(ids.map(() => 1));
  });

  describe('graceful shutdown (SIGTERM)', () => {
    it('finishes the running job, takes no new one, exits 0', async () => {
      const worker = await startWorker(workerEnv({ WORKER_SHUTDOWN_GRACE_MS: '10000' }));
      const running = await start({ ms: 2000 });
      await eventually(stateIs(running, 'running'));
      worker.kill('SIGTERM');
      const queued = await start({ ms: 10 });
      expect(await worker.exited).toEqual({ code: 0, signal: null });
      expect((await row(running)).state).toBe('succeeded');
      expect((await row(queued)).state).toBe('waiting');
      expect(worker.output()).toMatch(/SIGTERM received[\s\S]*stopped/);

      await startWorker(workerEnv());
      await eventually(stateIs(queued, 'succeeded'));
    });

    it('returns a job that outlasts the grace period to the queue and exits 0', async () => {
      const worker = await startWorker(workerEnv({ WORKER_SHUTDOWN_GRACE_MS: '300' }));
      const id = await start({ ms: 30000 });
      await eventually(stateIs(id, 'running'));
      const before = Date.now();
      worker.kill('SIGTERM');
      expect(await worker.exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - before).toBeLessThan(8000);
      expect((await row(id)).state).toBe('waiting');
      expect(await t.app.get(JobQueues).jobState(QUEUES.exports, id)).toBe('waiting');
      expect(worker.output()).toMatch(new RegExp(`job ${id} returned to the queue`));
      // Not to be rerun by later tests' workers: the next run finds the task finished and skips it.
      await t.db.query("UPDATE async_task SET state = 'failed' WHERE id = $1", [id]);
    });
  });

  it('Redis down: starting a task answers 503 with Retry-After within 2 s, and the task row is failed', async () => {
    const down = await startTaskEndpoints({
      databaseUrl: workerEnvFor(t).DATABASE_URL,
      queuePrefix: prefix,
      redisUrl: 'redis://127.0.0.1:3841',
    });
    try {
      const before = Date.now();
      const res = await down.http().post('/tasks').set('X-Token-Id', '1').send({ ms: 10 });
      expect(Date.now() - before).toBeLessThan(2000);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('10');
      expect(res.body).toEqual({ detail: 'The job queue is unavailable. Please try again later.' });
      const rows = await t.db.query<{ state: string; message: string }[]>(
        "SELECT state, message FROM async_task WHERE created > now() - interval '10 seconds' AND input = '{\"ms\": 10}'::jsonb AND state <> 'succeeded'",
      );
      expect(rows).toEqual([{ state: 'failed', message: 'The task could not be queued.' }]);
    } finally {
      await down.app.close();
    }
  });
});
