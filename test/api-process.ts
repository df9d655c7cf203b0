import { ChildProcess, spawn } from 'child_process';
import { createServer } from 'net';
import { join } from 'path';
import { ensureBuilt } from './worker-harness';

const ROOT = join(__dirname, '..');
const MAIN_JS = join(ROOT, 'dist', 'src', 'main.js');

/** A real API process (`node dist/src/main.js`) started by a test. */
export interface ApiProcess {
  pid: number;
  port: number;
  baseUrl: string;
  /** Everything it wrote so far (stdout and stderr). */
  output(): string;
  /** The JSON lines of its output, parsed (other lines skipped). */
  jsonLines(): Record<string, unknown>[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

const started: ChildProcess[] = [];

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Spawns a process of `dist/` (`src/main.js` by default) with exactly the given environment (plus PATH) and
 * collects its output; does not wait for it to be ready (see {@link startApiProcess}).
 */
export function spawnDist(env: Record<string, string>, entry = MAIN_JS): ChildProcess {
  ensureBuilt();
  const child = spawn('node', [entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  return child;
}

/**
 * Starts the API on a free port with the given environment (`DATABASE_URL` at least) and waits until it listens.
 * Processes still running when the file ends are killed by {@link stopAllApis}.
 */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawnDist({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...env,
    PORT: String(port),
  });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`API did not listen within 30 s:\n${out}`)), 30_000);
    const check = () => {
      if (!out.includes('API listening')) return;
      clearTimeout(timer);
      listeners.delete(check);
      resolve();
    };
    listeners.add(check);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`API exited with ${code} before it listened:\n${out}`));
    });
    check();
  });
  return {
    pid: child.pid!,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => out,
    jsonLines: () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

/** Kills (SIGKILL) every process this file started that still runs. */
export async function stopAllApis(): Promise<void> {
  await Promise.all(
    started.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }),
  );
}
