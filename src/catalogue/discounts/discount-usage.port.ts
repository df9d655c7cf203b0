import type { EntityManager } from 'typeorm';

/**
 * Port: whether sales reference a discount (compat §3.25 DELETE). Declared here, provided by the orders context
 * and handed to the catalogue's modules by `app.module.ts`; mandatory.
 */
export const DISCOUNT_USAGE = Symbol('DiscountUsage');
export interface DiscountUsage {
  /** True when order positions used the discount: deleting it is refused with 403. */
  isOrdered(em: EntityManager, discountId: number): Promise<boolean>;
  /** Detaches the discount from cart positions (they lose it); a discount only in carts can be deleted. */
  releaseCarts(em: EntityManager, discountId: number): Promise<void>;
}
