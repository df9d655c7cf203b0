import { Client } from 'pg';

/** Server URL of the test PostgreSQL (database part replaced per use). */
export const TEST_SERVER_URL =
  process.env.TEST_DATABASE_SERVER ?? 'postgres://postgres:postgres@127.0.0.1:5432';

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
