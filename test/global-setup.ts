import { migrate } from '../src/database/migrate';
import { onMaintenanceDb, TEMPLATE_DB, urlFor } from './db';

/** Builds the migrated template database every e2e file clones (fast, and files never share state). */
export default async function globalSetup(): Promise<void> {
  await onMaintenanceDb(async (client) => {
    await client.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [TEMPLATE_DB],
    );
    await client.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DB}"`);
    // Leftovers of interrupted runs.
    const stale = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'ticketing_test_f_%'",
    );
    for (const row of stale.rows) await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
  });
  await migrate(urlFor(TEMPLATE_DB));
}
