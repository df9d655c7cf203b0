import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ConfigurationError, loadConfig } from '../config/app-config';
import { DatabaseQueries } from './database.queries';
import { dataSourceOptions } from './data-source';

/**
 * Creates the database named in the URL when it does not exist (connecting to the `postgres` maintenance
 * database of the same server). Idempotent.
 */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL names no database');
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  const queries = new DatabaseQueries();
  await client.connect();
  try {
    if (!(await queries.databaseExists(client, name))) {
      try {
        await queries.createDatabase(client, name);
      } catch (err) {
        // Another process created it in the meantime: fine.
        const code = (err as { code?: string }).code;
        if (code !== '42P04' && code !== '23505') throw err;
      }
    }
  } finally {
    await client.end();
  }
}

/** Creates the database if needed and applies all pending migrations; returns the names applied. */
export async function migrate(databaseUrl: string): Promise<string[]> {
  await ensureDatabase(databaseUrl);
  const ds = new DataSource(dataSourceOptions(databaseUrl));
  await ds.initialize();
  try {
    const applied = await ds.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}

if (require.main === module) {
  Promise.resolve()
    .then(() => migrate(loadConfig().databaseUrl))
    .then((applied) => {
      process.stderr.write(
        applied.length ? `Applied migrations: ${applied.join(', ')}\n` : 'Database is up to date.\n',
      );
    })
    .catch((err: unknown) => {
      process.stderr.write(
        err instanceof ConfigurationError
          ? `${err.message}\n`
          : `Migration failed: ${err instanceof Error ? err.message : String(err)}\n`,
      );
      process.exit(1);
    });
}
