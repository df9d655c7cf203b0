import { ApiEnum, ApiInt, ApiIntList } from '../../common/http/api-schemas';
import type { AutoCheckinRule } from './auto-checkin-rule.entity';
import type { RuleRefs } from './auto-checkin.queries';
import { AUTO_CHECKIN_MODES } from './auto-checkin.rules';

/**
 * Wire form of an automatic check-in rule (pretix plugin `autocheckin`, `AutoCheckinRuleSerializer`): lists are
 * sorted (ids ascending, identifiers alphabetically).
 */
export class AutoCheckinRuleJson {
  @ApiInt()
  id!: number;
  /** Check-in list id, or null: every list that admits the position. */
  @ApiInt({ nullable: true })
  list!: number | null;
  @ApiEnum(AUTO_CHECKIN_MODES)
  mode!: string;
  all_sales_channels!: boolean;
  /** Sales channel identifiers. */
  limit_sales_channels!: string[];
  all_products!: boolean;
  @ApiIntList()
  limit_products!: number[];
  @ApiIntList()
  limit_variations!: number[];
  all_payment_methods!: boolean;
  /** Payment provider identifiers. */
  limit_payment_methods!: string[];
}

/** Entity and its links to wire object. */
export function toAutoCheckinRuleJson(rule: AutoCheckinRule, refs: RuleRefs): AutoCheckinRuleJson {
  return {
    id: rule.id,
    list: rule.listId,
    mode: rule.mode,
    all_sales_channels: rule.allSalesChannels,
    limit_sales_channels: [...rule.limitSalesChannels].sort(),
    all_products: rule.allProducts,
    limit_products: [...refs.items].sort((a, b) => a - b),
    limit_variations: [...refs.variations].sort((a, b) => a - b),
    all_payment_methods: rule.allPaymentMethods,
    limit_payment_methods: [...rule.limitPaymentMethods].sort(),
  };
}
