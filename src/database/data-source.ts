import type { EventEmitter } from 'events';
import { join } from 'path';
import { DataSourceOptions } from 'typeorm';
import { SnakeNamingStrategy } from 'typeorm-naming-strategies';

/** Entities and migrations are found by file name, so every context's `*.entity.ts` is picked up. */
const ROOT = join(__dirname, '..', '..');

/**
 * TypeORM options shared by the API, the worker, the CLI, migrations and tests. `synchronize` is off
 * everywhere: the schema changes only through `migrations/` (architecture.md "Data conventions").
 */
export function dataSourceOptions(
  databaseUrl: string,
  lockTimeoutMs = 10000,
  pool: { size: number; timeoutMs: number } = { size: 20, timeoutMs: 5000 },
): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: [join(ROOT, 'src', '**', '*.entity.{ts,js}')],
    migrations: [join(ROOT, 'migrations', '*.{ts,js}')],
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // A pool connect that cannot reach the server or find a free connection fails after `pool.timeoutMs`
    // (answered 503) instead of hanging.
    extra: {
      max: pool.size,
      connectionTimeoutMillis: pool.timeoutMs,
      options: `-c lock_timeout=${Math.round(lockTimeoutMs)}`,
      // Every pooled connection always has an `error` listener (README "Security", "Faults and shutdown"): a
      // backend terminated while the connection is checked out between queries (server restart,
      // pg_terminate_backend) is reported through the connection's next query (answered 503), never as an
      // unhandled `error` event that ends the process.
      onConnect: (client: EventEmitter) => void client.on('error', () => undefined),
    },
  };
}
