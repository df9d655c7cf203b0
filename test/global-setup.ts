import { migrate } from '../src/database/migrate';
import { onMaintenanceDb, TEST_DB_PREFIX, urlFor } from './db';

/**
 * Builds this run's migrated template database, which every e2e file clones (fast, and files never share state).
 * Names carry the run's pid, so concurrent runs on one server never touch each other's databases. Only databases
 * of this run are ever dropped (the template, each file's clone); leftovers of killed runs are removed by the
 * explicit `node scripts/drop-test-databases.js`.
 */
export default async function globalSetup(): Promise<void> {
  const template = `${TEST_DB_PREFIX}${process.pid}_template`;
  process.env.TEST_TEMPLATE_DB = template;
  await onMaintenanceDb(async (client) => {
    // A template of an earlier run that had this pid and was killed: created by "this run's" name, ours to reuse.
    await client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  });
  await migrate(urlFor(template));
}
