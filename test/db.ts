import { Client } from 'pg';

/** `postgres://user:pass@host:port/db?x` without its database and query: the server part only. */
function serverOf(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.username ? `${u.username}${u.password ? `:${u.password}` : ''}@` : ''}${u.host}`;
}

/**
 * Server URL of the test PostgreSQL (database part replaced per use): the server of `TEST_DATABASE_URL`, else
 * `TEST_DATABASE_SERVER`, else the server of `DATABASE_URL`, else the local default. Tests create and drop only
 * databases named `ticketing_test_<pid of this run>_…` there.
 */
export const TEST_SERVER_URL = serverOf(
  process.env.TEST_DATABASE_URL ||
    process.env.TEST_DATABASE_SERVER ||
    process.env.DATABASE_URL ||
    'postgres://postgres:postgres@127.0.0.1:5432',
);

/** Prefix of every database a test run creates: `<prefix><run pid>_...`. */
export const TEST_DB_PREFIX = 'ticketing_test_';

/** The migrated template of the current run (set by global setup, inherited by the workers). */
export function templateDb(): string {
  const name = process.env.TEST_TEMPLATE_DB;
  if (!name)
    throw new Error('TEST_TEMPLATE_DB is not set: run the tests through jest (test/global-setup.ts)');
  return name;
}

export function urlFor(database: string): string {
  return `${TEST_SERVER_URL.replace(/\/+$/, '')}/${database}`;
}

/** Runs statements on the maintenance database (CREATE/DROP DATABASE cannot run in a transaction). */
export async function onMaintenanceDb(fn: (client: Client) => Promise<void>): Promise<void> {
  const client = new Client({ connectionString: urlFor('postgres') });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}
