import type { EntityManager } from 'typeorm';
import { findParentOr403 } from '../../common/persistence/find';
import { Item } from './item.entity';

/**
 * The parent item of a nested resource (`E/items/{item}/variations|addons|bundles/`), scoped by the event from the
 * permission guard: an unknown item or an item of another event is 403 like a missing event (spec "Status codes that
 * apply everywhere", "403 also when the item does not exist"; pretix answers 404). `lock: 'update'` holds the item row until the transaction ends (used where a rule counts the item's
 * children, such as "the only variation").
 * @throws ParentNotFound (403)
 */
export async function findEventItem(
  em: EntityManager,
  eventId: number,
  itemId: number,
  lock?: 'update',
): Promise<Item> {
  return findParentOr403(em, Item, { id: itemId, eventId }, lock !== undefined);
}

/**
 * Locks item rows `FOR UPDATE` in id order, whatever event they belong to (ids that do not exist are skipped).
 * Writes that check a rule spanning two items (bundles) take both locks in one statement so that two such writes
 * never deadlock.
 */
export async function lockItems(em: EntityManager, ids: number[]): Promise<void> {
  const distinct = [...new Set(ids)].sort((a, b) => a - b);
  await em.query('SELECT id FROM item WHERE id = ANY($1) ORDER BY id FOR UPDATE', [distinct]);
}

/**
 * Ids among `ids` that are membership types of the organizer (compat §3.6), share-locked until the transaction
 * ends so that a concurrent delete of a type waits for this write (items and variations refer to them).
 */
export async function existingMembershipTypes(
  em: EntityManager,
  organizerId: number,
  ids: number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows: { id: number }[] = await em.query(
    'SELECT id FROM membership_type WHERE organizer_id = $1 AND id = ANY($2) ORDER BY id FOR KEY SHARE',
    [organizerId, [...new Set(ids)]],
  );
  return new Set(rows.map((r) => Number(r.id)));
}

/** Which of `ids` are items of the event (seat category mappings, compat §3.18). One statement. */
export async function eventItemIds(em: EntityManager, eventId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows: { id: number }[] = await em.query(
    'SELECT id FROM item WHERE event_id = $1 AND id = ANY($2::int[])',
    [eventId, ids],
  );
  return new Set(rows.map((r) => r.id));
}
