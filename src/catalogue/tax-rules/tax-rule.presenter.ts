import type { I18nString } from '../../common/values/i18n';
import { Decimal } from '../../common/values/money';
import type { TaxRule } from './tax-rule.entity';
import type { CustomTaxRule } from './tax-rule.rules';
import { ApiEnum, ApiI18n, ApiInt, ApiPercent } from '../../common/http/api-schemas';
import { CUSTOM_RULE_ACTIONS, CUSTOM_RULE_ADDRESS_TYPES, TAX_CODES } from './tax-rule.rules';

/** One custom rule on the wire (compat §3.19). */
export class CustomTaxRuleJson implements CustomTaxRule {
  /** ISO 3166-1 alpha-2 code, `ZZ` (any country) or `EU` (any EU country). */
  country!: string;
  /** `""` (any), `individual`, `business` or `business_vat_id`. */
  @ApiEnum(CUSTOM_RULE_ADDRESS_TYPES)
  address_type!: string;
  /** `vat`, `reverse`, `no`, `block` or `require_approval`. */
  @ApiEnum(CUSTOM_RULE_ACTIONS)
  action!: string;
  /** Percent with two decimals, or null for the rule's own rate. */
  @ApiPercent({ nullable: true })
  rate!: string | null;
  @ApiI18n({ nullable: true })
  invoice_text!: I18nString | null;
}

/** Wire form of a tax rule (compat §3.19): `rate` is a percent string with two decimals (`"19.00"`). */
export class TaxRuleJson {
  @ApiInt()
  id!: number;
  @ApiI18n()
  name!: I18nString;
  internal_name!: string | null;
  @ApiPercent()
  rate!: string;
  /** Tax code or null. */
  @ApiEnum(TAX_CODES, { nullable: true })
  code!: string | null;
  /** Whether this is the event's default rule. */
  default!: boolean;
  price_includes_tax!: boolean;
  eu_reverse_charge!: boolean;
  /** ISO 3166-1 alpha-2 code or `""`. */
  home_country!: string;
  keep_gross_if_rate_changes!: boolean;
  custom_rules!: CustomTaxRuleJson[] | null;
}

/** Entity to wire object, field by field. */
export function toTaxRuleJson(rule: TaxRule): TaxRuleJson {
  return {
    id: rule.id,
    name: rule.name,
    internal_name: rule.internalName,
    rate: new Decimal(rule.rate).toFixed(2),
    code: rule.code,
    default: rule.isDefault,
    price_includes_tax: rule.priceIncludesTax,
    eu_reverse_charge: rule.euReverseCharge,
    home_country: rule.homeCountry ?? '',
    keep_gross_if_rate_changes: rule.keepGrossIfRateChanges,
    custom_rules: rule.customRules
      ? (rule.customRules as unknown as CustomTaxRule[]).map((r) => ({
          ...r,
          invoice_text: r.invoice_text ? { ...r.invoice_text } : null,
        }))
      : null,
  };
}
