import type { EntityManager } from 'typeorm';

/**
 * Port: whether items and variations are referenced by sales (compat §3.10 and §3.11 DELETE). Declared here,
 * provided by the orders context and handed to the catalogue's modules by `app.module.ts`; it is mandatory, so a
 * module arrangement without a provider fails at boot instead of allowing deletes.
 */
export const ITEM_USAGE = Symbol('ItemUsage');

export interface ItemUsage {
  /** True when order positions or transactions reference the item: deleting it is refused with 403. */
  isOrdered(em: EntityManager, itemId: number): Promise<boolean>;
  /** Deletes cart positions of the item (and add-ons to them); items only in carts can be deleted. */
  releaseCarts(em: EntityManager, itemId: number): Promise<void>;
  /**
   * True when order positions or cart positions reference the variation: deleting it is refused with 403 (unlike
   * items, a variation in a cart cannot be deleted; compat §3.11).
   */
  isVariationInUse(em: EntityManager, variationId: number): Promise<boolean>;
}

/** 403 detail for deleting an item with order positions (compat §3.10). */
export const ITEM_IN_USE =
  'This item cannot be deleted because it has already been ordered by a user or currently is in a users\'s cart. Please set the item as "inactive" instead.';

/** 403 detail for deleting a variation that is ordered or in a cart (compat §3.11). */
export const VARIATION_IN_USE =
  "This variation cannot be deleted because it has already been ordered by a user or currently is in a users's cart. Please set the variation as 'inactive' instead.";
