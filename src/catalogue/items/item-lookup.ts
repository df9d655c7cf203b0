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
