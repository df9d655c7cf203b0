import { Client } from 'pg';

/** Server URL of the test PostgreSQL (database part replaced per use). */
export const TEST_SERVER_URL =
  process.env.TEST_DATABASE_SERVER ?? 'postgres://postgres:postgres@127.0.0.1:5432';
export const TEMPLATE_DB = process.env.TEST_TEMPLATE_DB ?? 'ticketing_test_template';

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
