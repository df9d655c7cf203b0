import {
  CUSTOM_RULES_PREFIX,
  customRulesError,
  isCountryCode,
  NON_ZERO_RATE_MESSAGE,
  normalizeCustomRules,
  TAX_CODES,
  taxCodeRateError,
  ZERO_RATE_MESSAGE,
} from './tax-rule.rules';

describe('taxCodeRateError (compat §3.19)', () => {
  it.each(['O', 'E', 'Z', 'G', 'K', 'AE'])(
    'refuses %s with a non-zero rate and accepts it with zero',
    (code) => {
      expect(taxCodeRateError(code, '0.01')).toBe(NON_ZERO_RATE_MESSAGE);
      expect(taxCodeRateError(code, 19)).toBe(NON_ZERO_RATE_MESSAGE);
      expect(taxCodeRateError(code, '0.00')).toBeNull();
      expect(taxCodeRateError(code, 0)).toBeNull();
    },
  );

  it.each(['S/standard', 'S/reduced', 'S/averaged', 'L', 'M', 'B'])(
    'refuses %s with a zero rate and accepts it with a non-zero one',
    (code) => {
      expect(taxCodeRateError(code, '0')).toBe(ZERO_RATE_MESSAGE);
      expect(taxCodeRateError(code, '0.00')).toBe(ZERO_RATE_MESSAGE);
      expect(taxCodeRateError(code, '7.00')).toBeNull();
    },
  );

  it('accepts any rate without a code', () => {
    expect(taxCodeRateError(null, '0')).toBeNull();
    expect(taxCodeRateError(null, '19')).toBeNull();
  });

  it('covers every code of the choice list', () => {
    for (const code of TAX_CODES) {
      expect([taxCodeRateError(code, '0'), taxCodeRateError(code, '10')]).toContain(null);
    }
  });
});

describe('isCountryCode', () => {
  it.each([
    ['DE', true],
    ['AT', true],
    ['de', false],
    ['XX', false],
    ['EU', false],
    ['ZZ', false],
    ['DEU', false],
    ['', false],
    [42, false],
  ])('%j -> %s', (value, expected) => {
    expect(isCountryCode(value)).toBe(expected);
  });
});

describe('customRulesError (compat §3.19)', () => {
  const ok = { country: 'DE', address_type: '', action: 'vat' };

  it('accepts null, an empty list and complete rules', () => {
    expect(customRulesError(null)).toBeNull();
    expect(customRulesError(undefined)).toBeNull();
    expect(customRulesError([])).toBeNull();
    expect(
      customRulesError([
        ok,
        { country: 'EU', address_type: 'business_vat_id', action: 'reverse', rate: null, invoice_text: null },
        { country: 'ZZ', address_type: 'individual', action: 'require_approval', rate: '7.5' },
        { country: 'AT', address_type: 'business', action: 'block', invoice_text: { en: 'x', de: 'y' } },
        { ...ok, action: 'no', ORDER: 3, DELETE: false },
      ]),
    ).toBeNull();
  });

  it.each([
    ['a string', 'x', "'x' is not of type 'array'"],
    ['an object', { a: 1 }, `{"a":1} is not of type 'array'`],
    ['a rule that is not an object', [ok, []], "[] is not of type 'object' (rule 2)"],
    ['a missing country', [{ address_type: '', action: 'vat' }], "'country' is a required property (rule 1)"],
    ['a missing action', [{ country: 'DE', address_type: '' }], "'action' is a required property (rule 1)"],
    [
      'an unknown key',
      [{ ...ok, extra: 1 }],
      "Additional properties are not allowed ('extra' was unexpected) (rule 1)",
    ],
    [
      'a lower-case country',
      [{ ...ok, country: 'de' }],
      "'de' is not a valid country code, 'ZZ' (any country) or 'EU' (any EU country) (rule 1)",
    ],
    [
      'an unknown address type',
      [{ ...ok, address_type: null }],
      'null is not one of ["","individual","business","business_vat_id"] (rule 1)',
    ],
    ['a numeric rate', [{ ...ok, rate: 7 }], "7 is not of type 'string', 'null' (rule 1)"],
    [
      'a rate with an exponent',
      [{ ...ok, rate: '1e2' }],
      "'1e2' does not match '^[0-9]+(\\.[0-9]+)?$' (rule 1)",
    ],
    [
      'a rate with three decimals',
      [{ ...ok, rate: '1.234' }],
      "rate '1.234': Ensure that there are no more than 2 decimal places. (rule 1)",
    ],
    ['a list as invoice text', [{ ...ok, invoice_text: [] }], "[] is not of type 'object', 'null' (rule 1)"],
    ['a boolean ORDER', [{ ...ok, ORDER: true }], "true is not of type 'number' (rule 1)"],
    ['a string DELETE', [{ ...ok, DELETE: 'no' }], "'no' is not of type 'boolean' (rule 1)"],
  ])('refuses %s', (_label, value, problem) => {
    expect(customRulesError(value)).toBe(CUSTOM_RULES_PREFIX + problem);
  });
});

describe('normalizeCustomRules', () => {
  it('keeps null, fills in rate and invoice text, formats rates and drops ORDER/DELETE', () => {
    expect(normalizeCustomRules(null)).toBeNull();
    expect(
      normalizeCustomRules([
        { country: 'DE', address_type: '', action: 'vat', rate: '7', ORDER: 1, DELETE: false },
        { country: 'EU', address_type: 'business', action: 'reverse', invoice_text: { en: 'RC' } },
      ]),
    ).toEqual([
      { country: 'DE', address_type: '', action: 'vat', rate: '7.00', invoice_text: null },
      { country: 'EU', address_type: 'business', action: 'reverse', rate: null, invoice_text: { en: 'RC' } },
    ]);
  });
});
