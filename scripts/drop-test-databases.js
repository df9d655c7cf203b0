#!/usr/bin/env node
// Drops databases left behind by killed test runs (`ticketing_test_<pid>_...`) whose run process is gone.
// Never run by `npm test`, which drops only what it created. Usage:
//   node scripts/drop-test-databases.js            # list what would be dropped
//   node scripts/drop-test-databases.js --drop     # drop them
// Server: TEST_DATABASE_URL, else TEST_DATABASE_SERVER, else DATABASE_URL, else postgres://postgres:postgres@127.0.0.1:5432.
// Only for a server whose test runs all live on this machine (pids are checked locally).
const { Client } = require('pg');

const source =
  process.env.TEST_DATABASE_URL ||
  process.env.TEST_DATABASE_SERVER ||
  process.env.DATABASE_URL ||
  'postgres://postgres:postgres@127.0.0.1:5432';

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

async function main() {
  const url = new URL(source);
  url.pathname = '/postgres';
  url.search = '';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT datname FROM pg_database WHERE datname LIKE 'ticketing\\_test\\_%' ORDER BY datname",
    );
    const dead = rows
      .map((r) => r.datname)
      .filter((name) => {
        const pid = Number(/^ticketing_test_(\d+)_/.exec(name)?.[1]);
        return Number.isInteger(pid) && !alive(pid);
      });
    for (const name of dead) {
      if (process.argv.includes('--drop')) {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        process.stdout.write(`dropped ${name}\n`);
      } else {
        process.stdout.write(`${name}\n`);
      }
    }
    if (dead.length === 0) process.stdout.write('no leftover test databases\n');
  } finally {
    await client.end();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
