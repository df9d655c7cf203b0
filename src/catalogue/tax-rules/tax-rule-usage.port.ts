import type { EntityManager } from 'typeorm';

/**
 * Port: whether sales reference a tax rule (order positions, fees, transactions; compat §3.19 DELETE). Declared
 * here, provided by the orders context and handed to the catalogue's modules by `app.module.ts`; mandatory.
 */
export const TAX_RULE_USAGE = Symbol('TaxRuleUsage');
export interface TaxRuleUsage {
  /** True when order positions, fees or transactions use the rule: deleting it is refused with 403. */
  isUsed(em: EntityManager, taxRuleId: number): Promise<boolean>;
}
