import { execFile } from 'child_process';
import { join } from 'path';
import type { TestApp } from './harness';
import { ensureBuilt, workerEnvFor } from './worker-harness';

const ROOT = join(__dirname, '..');
const CLI_JS = join(ROOT, 'dist', 'src', 'cli.js');

/** What a CLI run printed and how it ended. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real admin CLI (`node dist/src/cli.js <args>`, built first when the sources are newer) against the
 * database of a test app, as an operator would with `npm run --silent cli -- <args>`.
 */
export async function runCli(t: TestApp, args: string[]): Promise<CliResult> {
  ensureBuilt();
  return new Promise((resolve) => {
    execFile(
      'node',
      [CLI_JS, ...args],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
          ...workerEnvFor(t),
        },
        timeout: 30_000,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
