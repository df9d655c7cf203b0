import { join } from 'path';
import { spawnDist } from './api-process';

const DIST = join(__dirname, '..', 'dist', 'src');

/** Runs a process of `dist/` to its end; resolves with its exit code and output. */
async function run(entry: string, env: Record<string, string>) {
  const child = spawnDist(env, join(DIST, entry));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

/**
 * A bad configuration value stops every process with one clear line naming the variable and the value, no stack
 * trace (README "Configuration").
 */
describe('Configuration errors', () => {
  it('the API refuses PORT=abc with one line', async () => {
    const res = await run('main.js', { PORT: 'abc' });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe('Configuration error: PORT must be an integer number, got "abc"\n');
  });

  it('the worker names every bad variable on one line', async () => {
    const res = await run('worker.js', { LOG_LEVEL: 'loud', REDIS_URL: 'localhost:6379' });
    expect(res.code).toBe(1);
    expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/^Configuration error: /);
    expect(res.stderr).toContain('REDIS_URL must be a redis:// URL, got "localhost:6379"');
    expect(res.stderr).toContain(
      'LOG_LEVEL must be one of the following values: error, warn, log, debug, verbose, got "loud"',
    );
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('migrations refuse a bad DATABASE_URL with one line', async () => {
    const res = await run('database/migrate.js', { DATABASE_URL: 'mysql://x' });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('Configuration error: DATABASE_URL must be a postgres:// URL, got "mysql://x"\n');
  });
});
