import { applyDecorators } from '@nestjs/common';
import { ApiProperty, PartialType } from '@nestjs/swagger';
import { ApiEnum, ApiI18n, ApiPercent } from '../../common/http/api-schemas';
import {
  checkDecimal,
  IsBool,
  IsChoice,
  IsI18nString,
  IsStr,
  Nullable,
  Optional,
  Required,
  rule,
} from '../../common/validation/fields';
import type { I18nString } from '../../common/values/i18n';
import {
  CUSTOM_RULE_ACTIONS,
  CUSTOM_RULE_ADDRESS_TYPES,
  customRulesError,
  isCountryCode,
  TAX_CODES,
} from './tax-rule.rules';

/** A percentage: number or decimal string, 10 digits, 2 decimals, 0 to 100 (pretix's model validators). */
function IsTaxRate(): PropertyDecorator {
  const check = rule('isTaxRate', (v) => {
    const error = checkDecimal(v, 10, 2, 0);
    if (error || v === undefined || v === null) return error;
    return Number(v) > 100 ? 'Ensure this value is less than or equal to 100.' : null;
  });
  return applyDecorators(check, ApiPercent({ input: true }));
}

/** `""` or an upper-case ISO 3166-1 alpha-2 country code. */
function IsCountryOrBlank(): PropertyDecorator {
  return rule('isCountry', (v) =>
    v === undefined || v === null || v === '' || isCountryCode(v)
      ? null
      : `"${typeof v === 'string' ? v : JSON.stringify(v)}" is not a valid choice.`,
  );
}

/**
 * One custom rule as accepted in `custom_rules` (pretix's `tax-rules-custom.schema.json`; validated as a whole by
 * `customRulesError`, this class only documents it). The keys `ORDER` and `DELETE` of pretix's form are accepted
 * and dropped.
 */
export class CustomTaxRuleInputDto {
  /** ISO 3166-1 alpha-2 country code, `ZZ` (any country) or `EU` (any EU country). */
  @ApiProperty({ type: 'string', pattern: '^[A-Z]{2}$', example: 'DE' })
  country!: string;

  @ApiEnum(CUSTOM_RULE_ADDRESS_TYPES)
  address_type!: string;

  @ApiEnum(CUSTOM_RULE_ACTIONS)
  action!: string;

  /** Non-negative percentage with at most two decimals, or null for the rule's own rate. */
  @ApiProperty({ type: 'string', format: 'decimal', pattern: '^[0-9]+(\\.[0-9]+)?$', nullable: true })
  rate?: string | null;

  /** Text on invoices (an object, not a plain string), or null. */
  @ApiI18n({ nullable: true })
  invoice_text?: I18nString | null;
}

/** The custom rule set: null or a list of rules (see `customRulesError`). */
function IsCustomRules(): PropertyDecorator {
  return applyDecorators(
    rule('isCustomRules', (v) => customRulesError(v)),
    ApiProperty({ type: () => [CustomTaxRuleInputDto] }),
  );
}

/**
 * Body of `POST E/taxrules/` and `PUT E/taxrules/{id}/` (compat §3.19). `rate` is a percent (number or string,
 * at most two decimals). On PUT an omitted `default` keeps the current value (the default property can only move
 * to another rule, never be removed).
 */
export class CreateTaxRuleDto {
  @Required()
  @IsI18nString()
  name!: string | I18nString;

  @Nullable()
  @IsStr({ max: 190 })
  internal_name?: string | null;

  /** Percent, e.g. `"19.00"`; 0 to 100. */
  @Required()
  @IsTaxRate()
  rate!: string | number;

  /** Tax code or null: `S/standard`, `S/reduced`, `S/averaged`, `AE`, `O`, `E`, `Z`, `G`, `K`, `L`, `M`, `B`. */
  @Nullable()
  @IsChoice(TAX_CODES)
  code?: string | null;

  /** Makes this the event's default rule (clears it on the others); the first rule of an event always is. */
  @Optional()
  @IsBool()
  default?: boolean;

  @Optional()
  @IsBool()
  price_includes_tax?: boolean;

  /** Needs `home_country`. */
  @Optional()
  @IsBool()
  eu_reverse_charge?: boolean;

  /** Merchant country (ISO 3166-1 alpha-2) or `""`; null is read as `""`. */
  @Nullable()
  @IsCountryOrBlank()
  home_country?: string | null;

  @Optional()
  @IsBool()
  keep_gross_if_rate_changes?: boolean;

  /** null or a list of `{country, address_type, action, rate, invoice_text}` rules. */
  @Nullable()
  @IsCustomRules()
  custom_rules?: object[] | null;
}

/** Body of `PATCH E/taxrules/{id}/`: every field optional; null only where create allows it. */
export class UpdateTaxRuleDto extends PartialType(CreateTaxRuleDto, { skipNullProperties: false }) {}
