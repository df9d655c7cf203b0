import type { EntityManager } from 'typeorm';
import { AsyncTaskQueries } from './async-task.queries';

/**
 * Locks the task row `id` of kind `kind` (`FOR UPDATE`, until the caller's transaction ends) and gives its result
 * file id: null when the task is unknown or has no file. For a task that consumes another one's result (the shred of
 * a shredder export, compat §3.8), so that two consumers never use one result at the same time.
 */
export async function lockTaskResultFile(
  em: EntityManager,
  id: string,
  kind: string,
): Promise<string | null> {
  return new AsyncTaskQueries().lockResultFile(em, id, kind);
}
