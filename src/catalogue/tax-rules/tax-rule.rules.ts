import { isISO31661Alpha2 } from 'class-validator';
import { checkDecimal, checkI18n } from '../../common/validation/fields';
import type { I18nString } from '../../common/values/i18n';
import { Decimal } from '../../common/values/money';

/**
 * Pure rules of tax rules (compat §3.19), kept apart from the database so they can be unit tested:
 * the tax code choices, the code/rate combinations and the shape of `custom_rules`.
 */

/**
 * Tax codes a rule may carry (pretix's `TAX_CODE_LISTS` without the `E/<reason>` exemption variants):
 * standard rates `S/standard`, `S/reduced`, `S/averaged`; reverse charge `AE`; tax free `O` (outside the scope),
 * `E` (exempt), `Z` (zero-rated), `G` (free export), `K` (intra-community supply); special cases `L` (Canary
 * Islands), `M` (Ceuta and Melilla), `B` (transferred VAT, Italy).
 */
export const TAX_CODES = [
  'S/standard',
  'S/reduced',
  'S/averaged',
  'AE',
  'O',
  'E',
  'Z',
  'G',
  'K',
  'L',
  'M',
  'B',
] as const;

/** Code families that only make sense with a zero rate. */
const ZERO_RATE_FAMILIES: ReadonlySet<string> = new Set(['O', 'E', 'Z', 'G', 'K', 'AE']);
/** Code families that only make sense with a non-zero rate. */
const NON_ZERO_RATE_FAMILIES: ReadonlySet<string> = new Set(['S', 'L', 'M', 'B']);

export const NON_ZERO_RATE_MESSAGE =
  'A combination of this tax code with a non-zero tax rate does not make sense.';
export const ZERO_RATE_MESSAGE = 'A combination of this tax code with a zero tax rate does not make sense.';

/**
 * The `code` error for a code and a rate (percent, decimal string), or null when they fit together: a rate above
 * zero with `O`/`E`/`Z`/`G`/`K`/`AE`, or a zero rate with `S/*`/`L`/`M`/`B`, is refused (compat §3.19).
 */
export function taxCodeRateError(code: string | null, rate: string | number): string | null {
  if (!code) return null;
  const family = code.split('/')[0];
  const zero = new Decimal(rate).isZero();
  if (!zero && ZERO_RATE_FAMILIES.has(family)) return NON_ZERO_RATE_MESSAGE;
  if (zero && NON_ZERO_RATE_FAMILIES.has(family)) return ZERO_RATE_MESSAGE;
  return null;
}

/** Whether a string is an upper-case ISO 3166-1 alpha-2 country code (`DE`, `AT`, ...). */
export function isCountryCode(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Z]{2}$/.test(value) && isISO31661Alpha2(value);
}

/** Customer kinds a custom rule can match: any (`""`), individuals, businesses, businesses with a VAT id. */
export const CUSTOM_RULE_ADDRESS_TYPES = ['', 'individual', 'business', 'business_vat_id'] as const;
/** What a matching custom rule does: charge VAT, reverse charge, no tax, block the sale, require approval. */
export const CUSTOM_RULE_ACTIONS = ['vat', 'reverse', 'no', 'block', 'require_approval'] as const;
/** Country wildcards of custom rules: any country, any EU country. */
const COUNTRY_WILDCARDS: ReadonlySet<string> = new Set(['ZZ', 'EU']);
/** Keys pretix's form sends along; accepted and dropped. */
const IGNORED_RULE_KEYS: ReadonlySet<string> = new Set(['ORDER', 'DELETE']);
const RULE_KEYS: ReadonlySet<string> = new Set(['country', 'address_type', 'action', 'rate', 'invoice_text']);

/** One stored custom rule; `rate` is a percent with two decimals, or null for the rule's own rate. */
export interface CustomTaxRule {
  country: string;
  address_type: string;
  action: string;
  rate: string | null;
  invoice_text: I18nString | null;
}

export const CUSTOM_RULES_PREFIX = 'Your set of rules is not valid. Error message: ';

const show = (value: unknown): string => (typeof value === 'string' ? `'${value}'` : JSON.stringify(value));

/** The problem of one rule (0-based index), or null. */
function customRuleProblem(rule: unknown, index: number): string | null {
  const where = ` (rule ${index + 1})`;
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule))
    return `${show(rule)} is not of type 'object'${where}`;
  const r = rule as Record<string, unknown>;
  const unexpected = Object.keys(r).find((k) => !RULE_KEYS.has(k) && !IGNORED_RULE_KEYS.has(k));
  if (unexpected !== undefined)
    return `Additional properties are not allowed ('${unexpected}' was unexpected)${where}`;
  for (const key of ['country', 'address_type', 'action']) {
    if (!(key in r)) return `'${key}' is a required property${where}`;
  }
  if (!COUNTRY_WILDCARDS.has(r.country as string) && !isCountryCode(r.country))
    return `${show(r.country)} is not a valid country code, 'ZZ' (any country) or 'EU' (any EU country)${where}`;
  if (!(CUSTOM_RULE_ADDRESS_TYPES as readonly unknown[]).includes(r.address_type))
    return `${show(r.address_type)} is not one of ${show(CUSTOM_RULE_ADDRESS_TYPES)}${where}`;
  if (!(CUSTOM_RULE_ACTIONS as readonly unknown[]).includes(r.action))
    return `${show(r.action)} is not one of ${show(CUSTOM_RULE_ACTIONS)}${where}`;
  if (r.rate !== undefined && r.rate !== null) {
    if (typeof r.rate !== 'string') return `${show(r.rate)} is not of type 'string', 'null'${where}`;
    if (!/^[0-9]+(\.[0-9]+)?$/.test(r.rate))
      return `${show(r.rate)} does not match '^[0-9]+(\\.[0-9]+)?$'${where}`;
    const decimal = checkDecimal(r.rate, 10, 2, 0);
    if (decimal) return `rate ${show(r.rate)}: ${decimal}${where}`;
  }
  if (r.invoice_text !== undefined && r.invoice_text !== null) {
    if (typeof r.invoice_text !== 'object' || Array.isArray(r.invoice_text))
      return `${show(r.invoice_text)} is not of type 'object', 'null'${where}`;
    const i18n = checkI18n(r.invoice_text);
    if (i18n) return `invoice_text: ${i18n}${where}`;
  }
  if ('ORDER' in r && typeof r.ORDER !== 'number') return `${show(r.ORDER)} is not of type 'number'${where}`;
  if ('DELETE' in r && typeof r.DELETE !== 'boolean')
    return `${show(r.DELETE)} is not of type 'boolean'${where}`;
  return null;
}

/**
 * Validates `custom_rules`: null, or a list of rules `{country, address_type, action, rate?, invoice_text?}`
 * (pretix's `tax-rules-custom.schema.json`): `country` an ISO 3166-1 alpha-2 code, `ZZ` or `EU`; `address_type`
 * and `action` one of their choices; `rate` null or a non-negative decimal string with at most two decimals;
 * `invoice_text` null or a multi-lingual string; no other keys but the ignored `ORDER`/`DELETE`.
 * @returns the full error message (`Your set of rules is not valid. Error message: ...`), or null when valid
 */
export function customRulesError(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) return `${CUSTOM_RULES_PREFIX}${show(value)} is not of type 'array'`;
  for (const [index, rule] of value.entries()) {
    const problem = customRuleProblem(rule, index);
    if (problem) return CUSTOM_RULES_PREFIX + problem;
  }
  return null;
}

/**
 * The stored form of validated custom rules: every rule with all five keys (`rate` as a two-decimal string or
 * null, `invoice_text` or null), `ORDER`/`DELETE` dropped, order kept.
 */
export function normalizeCustomRules(value: readonly object[] | null): CustomTaxRule[] | null {
  if (value === null) return null;
  return (value as readonly Record<string, unknown>[]).map((r) => ({
    country: r.country as string,
    address_type: r.address_type as string,
    action: r.action as string,
    rate: typeof r.rate === 'string' ? new Decimal(r.rate).toFixed(2) : null,
    invoice_text:
      r.invoice_text && typeof r.invoice_text === 'object' ? { ...(r.invoice_text as I18nString) } : null,
  }));
}
