import type { DataSource, EntityManager } from 'typeorm';

/** Rows deleted per statement, so one purge never holds many row locks for long. */
const BATCH = 5000;

/**
 * Deletes the cart positions whose `expires` lies before `now` (spec "States and transitions": an expired
 * position no longer blocks quota; the quota engine already ignores it, this only tidies up). Every cart counts,
 * web shop carts as well as `@api` ones; add-ons and answers go with their position (foreign keys cascade).
 * Runs in batches of {@link BATCH}; each batch is its own statement.
 * @param now the cut-off (default the current time)
 * @returns how many expired positions were deleted (add-ons removed only through the cascade are not counted)
 */
export async function purgeExpiredCartPositions(
  db: DataSource | EntityManager,
  now: Date = new Date(),
): Promise<number> {
  let total = 0;
  for (;;) {
    const rows: { n: number }[] = await db.query(
      `WITH gone AS (
         DELETE FROM cart_position WHERE id IN (
           SELECT id FROM cart_position WHERE expires < $1 ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
      [now, BATCH],
    );
    const n = rows[0]?.n ?? 0;
    total += n;
    if (n < BATCH) return total;
  }
}
