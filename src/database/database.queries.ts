import { Injectable } from '@nestjs/common';
import type { Client } from 'pg';

/**
 * The statements of database setup, run on a pg `Client` of the server's `postgres` maintenance database (the
 * application's database may not exist yet). Stateless; `migrate.ts` runs before any Nest module, so it uses
 * `new DatabaseQueries()`.
 */
@Injectable()
export class DatabaseQueries {
  /** Whether a database named `name` exists on the server (reads `pg_database`). */
  async databaseExists(client: Client, name: string): Promise<boolean> {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return found.rowCount !== 0;
  }

  /** `CREATE DATABASE` with the quoted `name` (fails with 42P04 or 23505 when another process created it). */
  async createDatabase(client: Client, name: string): Promise<void> {
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  }
}
