import { migrate } from '../src/database/migrate';
import { onMaintenanceDb, TEST_DB_PREFIX, urlFor } from './db';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Builds this run's migrated template database, which every e2e file clones (fast, and files never share state).
 * Names carry the run's pid, so concurrent runs on one server never touch each other's databases; leftovers of
 * runs whose process is gone are dropped.
 */
export default async function globalSetup(): Promise<void> {
  const template = `${TEST_DB_PREFIX}${process.pid}_template`;
  process.env.TEST_TEMPLATE_DB = template;
  await onMaintenanceDb(async (client) => {
    const existing = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [`${TEST_DB_PREFIX}%`],
    );
    for (const { datname } of existing.rows) {
      const pid = Number(/^ticketing_test_(\d+)_/.exec(datname)?.[1]);
      if (pid === process.pid || !Number.isInteger(pid) || !alive(pid)) {
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    }
  });
  await migrate(urlFor(template));
}
