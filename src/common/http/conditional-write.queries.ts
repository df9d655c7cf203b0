import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';

/**
 * The statements of conditional writes (README "Sync and concurrency", "Conditional writes"): the transaction of
 * a resource's write lock, on a connection of the lock pool (first parameter). Stateless.
 */
@Injectable()
export class ConditionalWriteQueries {
  /**
   * Opens a transaction on `client` and takes the transaction-level advisory lock of (`organizer`, `resource`)
   * (the two-key form, a lock space of its own: the one-key locks of this service never collide with it), waiting
   * at most `waitMs` milliseconds (PostgreSQL 55P03 after that). The lock is released by {@link end}, or by
   * PostgreSQL when the connection dies.
   */
  async lock(client: PoolClient, organizer: string, resource: string, waitMs: number): Promise<void> {
    await client.query('BEGIN');
    await client.query(`SET LOCAL lock_timeout = '${Math.max(1, Math.trunc(waitMs))}ms'`);
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [organizer, resource]);
  }

  /** Ends the lock's transaction (nothing was written in it), releasing the lock. */
  async end(client: PoolClient): Promise<void> {
    await client.query('ROLLBACK');
  }
}
