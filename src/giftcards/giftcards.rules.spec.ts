import type { GiftCard } from './giftcard.entity';
import { FIXED_FIELD, fixedFieldErrors, generateSecret, GENERATED_SECRET_LENGTH } from './giftcards.rules';

describe('gift card rules', () => {
  const card = { secret: 'ABC-1', currency: 'EUR', testmode: false } as GiftCard;

  it('lets fixed fields through when absent or equal to the stored value', () => {
    expect(fixedFieldErrors(card, {}).empty).toBe(true);
    expect(fixedFieldErrors(card, { secret: 'ABC-1', currency: 'EUR', testmode: false }).empty).toBe(true);
  });

  it('names each fixed field sent with another value (secrets compare case-sensitively)', () => {
    expect(fixedFieldErrors(card, { secret: 'abc-1', currency: 'USD', testmode: true }).toJSON()).toEqual({
      secret: [FIXED_FIELD],
      currency: [FIXED_FIELD],
      testmode: [FIXED_FIELD],
    });
    expect(fixedFieldErrors(card, { testmode: true }).toJSON()).toEqual({ testmode: [FIXED_FIELD] });
  });

  it('generates 16-character codes without look-alike characters, different each time', () => {
    const codes = new Set(Array.from({ length: 200 }, () => generateSecret()));
    expect(codes.size).toBe(200);
    for (const code of codes) {
      expect(code).toHaveLength(GENERATED_SECRET_LENGTH);
      expect(code).toMatch(/^[A-HJ-NP-Z3789]+$/);
      expect(code).not.toMatch(/[IO0-24-6]/);
    }
  });
});
