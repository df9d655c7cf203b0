import { EntityManager } from 'typeorm';

/**
 * Runs `work` with an entity manager bound to one pooled connection, held until `work` ends and then released.
 *
 * Writes that answer with a presentation of what they wrote use it as "commit, then present on the same
 * connection": the locks are still held no longer than the transaction, but the response no longer needs a
 * second pool connection after the commit. Without it, a busy pool could answer 503 ("nothing written, retry")
 * for a request whose write had committed, and a client retrying as told would create a second cart position or
 * order (architecture.md "Concurrency": 503 and 409 with `Retry-After` mean nothing was written).
 *
 * Taking the connection may fail with the pool's timeout before anything is written (answered 503 by the
 * exception filter). Inside `work`, `em.transaction(...)` runs on the held connection; queries the presentation
 * sends in parallel are queued on it.
 */
export async function withOneConnection<T>(
  em: EntityManager,
  work: (em: EntityManager) => Promise<T>,
): Promise<T> {
  const runner = em.connection.createQueryRunner();
  try {
    await runner.connect();
    return await work(runner.manager);
  } finally {
    await runner.release();
  }
}
