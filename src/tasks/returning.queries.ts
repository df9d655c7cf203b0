import type { DataSource, EntityManager } from 'typeorm';

/**
 * Part of the query layer (only `*.queries.ts` files run SQL): the callers are the queries classes of the contexts.
 * Runs an `UPDATE`/`DELETE ... RETURNING` statement and gives its rows (TypeORM's PostgreSQL driver answers these
 * with `[rows, count]`, a plain `SELECT` with the rows).
 */
export async function returning<T>(
  db: DataSource | EntityManager,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  const result = await db.query<[T[], number] | T[]>(sql, params);
  if (Array.isArray(result[0]) && typeof result[1] === 'number') return result[0];
  return result as T[];
}
