import type { EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import { NotFound, ParentNotFound } from '../errors';

/**
 * The one row matching `where` (which carries the scope: event, organizer or parent ids), locked for the rest of
 * the transaction when `lock` is set (`SELECT … FOR UPDATE`).
 * @throws NotFound (404 `{"detail": "Not found."}`) when no row in scope matches, whatever the reason
 */
export async function findOrNotFound<E extends ObjectLiteral>(
  em: EntityManager,
  entity: EntityTarget<E>,
  where: FindOptionsWhere<E>,
  lock = false,
): Promise<E> {
  const row = await em.findOne(entity, {
    where,
    ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
  if (!row) throw new NotFound();
  return row;
}

/**
 * The parent row of a nested route (the item of `E/items/{item}/variations/`, ...), locked when `lock` is set.
 * @throws ParentNotFound (403) when no row in scope matches (spec "Status codes that apply everywhere")
 */
export async function findParentOr403<E extends ObjectLiteral>(
  em: EntityManager,
  entity: EntityTarget<E>,
  where: FindOptionsWhere<E>,
  lock = false,
): Promise<E> {
  try {
    return await findOrNotFound(em, entity, where, lock);
  } catch (err) {
    if (err instanceof NotFound) throw new ParentNotFound();
    throw err;
  }
}
