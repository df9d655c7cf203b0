import { ChildProcess, execFileSync, spawn } from 'child_process';
import { mkdirSync, rmSync, statSync } from 'fs';
import Redis from 'ioredis';
import { join } from 'path';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../src/config/app-config';
import type { TestApp } from './harness';

const ROOT = join(__dirname, '..');
const WORKER_JS = join(ROOT, 'dist', 'src', 'worker.js');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A real worker process (`node dist/src/worker.js`) started by a test. */
export interface WorkerProcess {
  pid: number;
  /** Everything it logged so far (stdout and stderr, no colours). */
  output(): string;
  /** Resolves with the first log line matching `re` after `from` characters of output (default: from the start). */
  waitForLog(re: RegExp, timeoutMs?: number, from?: number): Promise<string>;
  /** Resolves when the process exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

const started: ChildProcess[] = [];

/**
 * Builds `dist/` when it is older than the sources (`scripts/ensure-built.js`), once per machine at a time (a
 * lock directory keeps two test files from building together). CI builds before the tests, so this is a no-op
 * there.
 */
export function ensureBuilt(): void {
  const lock = join(ROOT, 'dist.build-lock');
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // The holder may have removed the lock between our mkdir and this stat: then simply try again.
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true });
      execFileSync('sleep', ['0.2']);
    }
  }
  try {
    execFileSync('node', [join(ROOT, 'scripts', 'ensure-built.js')], { cwd: ROOT, stdio: 'ignore' });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The database URL and queue prefix of a test app, for workers that share them. */
export function workerEnvFor(t: TestApp): Record<string, string> {
  const config = t.app.get(AppConfig);
  return {
    DATABASE_URL: (t.db as DataSource & { options: { url: string } }).options.url,
    QUEUE_PREFIX: config.queuePrefix,
    MAIL_URL: config.mailUrl,
  };
}

/**
 * Starts a worker process with the given environment (on top of `REDIS_URL`, debug logs, no colours) and waits
 * until it reports ready. Workers still running when the file ends are killed by {@link stopAllWorkers}.
 */
export async function startWorker(env: Record<string, string>): Promise<WorkerProcess> {
  ensureBuilt();
  const child = spawn('node', [WORKER_JS], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      REDIS_URL,
      LOG_LEVEL: 'debug',
      NO_COLOR: '1',
      // Webhook receivers of the tests listen on 127.0.0.1 (the default, false, refuses them).
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const l of listeners) l();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitForLog = (re: RegExp, timeoutMs = 15_000, from = 0): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const line = out
          .slice(from)
          .split('\n')
          .find((l) => re.test(l));
        if (line === undefined) return;
        cleanup();
        resolve(line);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`worker ${child.pid}: no log line ${re} within ${timeoutMs} ms. Output:\n${out}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });
  const worker: WorkerProcess = {
    pid: child.pid!,
    output: () => out,
    waitForLog,
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
  let ready = false;
  await Promise.race([
    waitForLog(/Worker ready/, 30_000).then(() => {
      ready = true;
    }),
    exited.then(({ code }) => {
      if (!ready) throw new Error(`worker exited with ${code} before it was ready:\n${out}`);
    }),
  ]);
  return worker;
}

/** Kills (SIGKILL) every worker this file started that still runs. */
export async function stopAllWorkers(): Promise<void> {
  await Promise.all(
    started.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }),
  );
}

/** Deletes the Redis keys of one queue prefix (only this test's; never FLUSHALL on the shared Redis). */
export async function deleteQueueKeys(prefix: string, pattern = '*'): Promise<number> {
  const redis = new Redis(REDIS_URL);
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:${pattern}`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}

/** Polls `fn` until it returns a truthy value, and gives that value (or throws after `timeoutMs`). */
export async function eventually<T>(
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 15_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await fn();
    if (last) return last;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms (last: ${String(last)})`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
