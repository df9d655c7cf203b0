import type { EntityManager } from 'typeorm';
import { SessionQueries } from './session.queries';

const session = new SessionQueries();

/**
 * Bounds how long the statements of the current transaction wait for row locks (`SET LOCAL lock_timeout`, whole
 * milliseconds, at least 1). A lock not had in time fails with PostgreSQL 55P03, which the global exception
 * filter answers with 409 and `Retry-After` (spec "Errors": retry after a short wait).
 */
export async function setLockTimeout(em: EntityManager, milliseconds: number): Promise<void> {
  await session.setLockTimeout(em, milliseconds);
}
