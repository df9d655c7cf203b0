import type { DynamicModule, ModuleMetadata, Type } from '@nestjs/common';
import { DISCOUNT_USAGE } from './discounts/discount-usage.port';
import { ITEM_USAGE } from './items/item-usage.port';
import { MEMBERSHIP_TYPE_USAGE } from './membership-types/membership-type-usage.port';
import { QUOTA_AVAILABILITY } from './quotas/quota-availability';
import { TAX_RULE_USAGE } from './tax-rules/tax-rule-usage.port';
import { VOUCHER_CART_HOLDS } from './vouchers/voucher-cart-holds.port';
import { VOUCHER_SEATS } from './vouchers/voucher-seats.port';

/**
 * A module that provides (and exports) ports a lower context declares. Lower contexts never import the module of a
 * higher one: `app.module.ts` (or another composition root) hands it to their `register(...)` (architecture.md
 * "Layout": the catalogue asks, the sales side answers).
 */
export type PortsModule = Type<unknown> | DynamicModule;

/**
 * Every port the catalogue declares; the module given to `CatalogueModule.register` must export all of them.
 * They are injected without `@Optional()`: a module arrangement without a provider fails at boot instead of,
 * say, allowing an ordered item to be deleted.
 */
export const CATALOGUE_PORTS = [
  QUOTA_AVAILABILITY,
  VOUCHER_CART_HOLDS,
  VOUCHER_SEATS,
  ITEM_USAGE,
  TAX_RULE_USAGE,
  DISCOUNT_USAGE,
  MEMBERSHIP_TYPE_USAGE,
] as const;

/** A catalogue module with the given parts that imports `ports` (the providers of the ports it injects). */
export function withPorts(module: Type<unknown>, ports: PortsModule, parts: ModuleMetadata): DynamicModule {
  return { module, ...parts, imports: [ports, ...(parts.imports ?? [])] };
}
