import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * Session and statement-level helpers that other code runs on its own transaction or connection: the lock
 * timeout of a transaction and named prepared statements (the common persistence helpers `setLockTimeout` and
 * `preparedQuery` delegate here). Stateless.
 */
@Injectable()
export class SessionQueries {
  /**
   * `SET LOCAL lock_timeout` for the rest of `em`'s transaction (whole milliseconds, at least 1); no lock taken.
   * Spec "Errors": a lock not had in time fails with 55P03 (409 with `Retry-After`).
   */
  async setLockTimeout(em: EntityManager, milliseconds: number): Promise<void> {
    await em.query(`SET LOCAL lock_timeout = '${Math.max(1, Math.trunc(milliseconds))}ms'`);
  }

  /**
   * Runs `sql` (the caller's statement, its own context's text) as the named prepared statement `name` with
   * `params`; reads or changes what `sql` does, takes the locks it takes.
   */
  prepared<T>(em: EntityManager, name: string, sql: string, params: unknown[]): Promise<T[]> {
    const config = { name, text: sql };
    return em.query(config as unknown as string, params);
  }
}
