import { DataSource, type EntityManager } from 'typeorm';
import { CartPositionQueries } from './cart-position.queries';

/**
 * Deletes the cart positions whose `expires` lies before `now` (spec "States and transitions": an expired
 * position no longer blocks quota; the quota engine already ignores it, this only tidies up). Every cart counts,
 * web shop carts as well as `@api` ones; add-ons and answers go with their position (foreign keys cascade).
 * Runs in batches ({@link CartPositionQueries.purgeExpired}); each batch is its own statement.
 * @param now the cut-off (default the current time)
 * @returns how many expired positions were deleted (add-ons removed only through the cascade are not counted)
 */
export async function purgeExpiredCartPositions(
  db: DataSource | EntityManager,
  now: Date = new Date(),
): Promise<number> {
  // The scheduler is not DI-managed here; the queries class is stateless.
  const em = db instanceof DataSource ? db.manager : db;
  return new CartPositionQueries().purgeExpired(em, now);
}
