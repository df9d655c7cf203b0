import { join } from 'path';
import { DataSourceOptions } from 'typeorm';
import { SnakeNamingStrategy } from 'typeorm-naming-strategies';

/** Entities and migrations are found by file name, so every context's `*.entity.ts` is picked up. */
const ROOT = join(__dirname, '..', '..');

/**
 * TypeORM options shared by the API, the worker, the CLI, migrations and tests. `synchronize` is off
 * everywhere: the schema changes only through `migrations/` (architecture.md "Data conventions").
 */
export function dataSourceOptions(databaseUrl: string, lockTimeoutMs = 10000): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: [join(ROOT, 'src', '**', '*.entity.{ts,js}')],
    migrations: [join(ROOT, 'migrations', '*.{ts,js}')],
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // A pool connect that cannot reach the server fails after 5 s (answered 503) instead of hanging.
    extra: {
      max: 20,
      connectionTimeoutMillis: 5000,
      options: `-c lock_timeout=${Math.round(lockTimeoutMs)}`,
    },
  };
}
