import { onMaintenanceDb } from './db';

/** Drops this run's template database. */
export default async function globalTeardown(): Promise<void> {
  const template = process.env.TEST_TEMPLATE_DB;
  if (!template) return;
  await onMaintenanceDb(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  });
}
