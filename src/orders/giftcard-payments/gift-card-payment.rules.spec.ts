import { Decimal } from '../../common/values/money';
import {
  cardRefOf,
  GIFT_CARD_MESSAGES,
  giftCardRequestRefusal,
  lookupRefusal,
  redemptionRefusal,
} from './gift-card-payment.rules';

describe('gift card payment rules', () => {
  const card = {
    id: 7,
    secret: 'ABC',
    issuerId: 1,
    value: '50.00',
    currency: 'EUR',
    testmode: false,
    expires: null as Date | null,
  };
  const now = new Date('2030-01-01T00:00:00Z');
  const check = (amount: string, over: object = {}) => ({
    currency: 'EUR',
    testmode: false,
    amount: new Decimal(amount),
    now,
    ...over,
  });

  it('reads the card of info: the id (number or digits) first, else the secret', () => {
    expect(cardRefOf({ gift_card: 3, gift_card_secret: 'X' })).toEqual({ id: 3 });
    expect(cardRefOf({ gift_card: '12' })).toEqual({ id: 12 });
    expect(cardRefOf({ gift_card: 'abc', gift_card_secret: ' X ' })).toEqual({ secret: 'X' });
    expect(cardRefOf({ gift_card: 0 })).toBeNull();
    expect(cardRefOf({})).toBeNull();
    expect(cardRefOf(null)).toBeNull();
  });

  it("checks in pretix's order: currency, credit, amount, test mode, expiry", () => {
    expect(redemptionRefusal(card, check('50.00'))).toBeNull();
    expect(redemptionRefusal({ ...card, currency: 'USD' }, check('1.00'))).toBe(GIFT_CARD_MESSAGES.currency);
    expect(redemptionRefusal({ ...card, value: '0.00' }, check('1.00'))).toBe(GIFT_CARD_MESSAGES.empty);
    expect(redemptionRefusal(card, check('50.01'))).toBe(GIFT_CARD_MESSAGES.usedMeanwhile);
    expect(redemptionRefusal({ ...card, testmode: true }, check('1.00'))).toBe(
      GIFT_CARD_MESSAGES.testmodeOnly,
    );
    expect(redemptionRefusal(card, check('1.00', { testmode: true }))).toBe(GIFT_CARD_MESSAGES.testCardsOnly);
    const expired = { ...card, expires: new Date('2029-12-31T23:59:59Z') };
    expect(redemptionRefusal(expired, check('1.00'))).toBe(GIFT_CARD_MESSAGES.expired);
  });

  it('names why a lookup found no card', () => {
    expect(lookupRefusal({ refused: 'unknown' })).toBe(GIFT_CARD_MESSAGES.unknown);
    expect(lookupRefusal({ refused: 'not_accepted' })).toBe(GIFT_CARD_MESSAGES.notAccepted);
    expect(lookupRefusal({ refused: 'ambiguous' })).toBe(GIFT_CARD_MESSAGES.ambiguous);
  });

  it('refuses use_gift_cards with a provider or payment info, a paid status, or a secret twice', () => {
    const req = {
      useGiftCards: ['A'],
      status: undefined,
      paymentProvider: undefined,
      paymentInfo: undefined,
    };
    expect(giftCardRequestRefusal(req)).toBeNull();
    expect(giftCardRequestRefusal({ ...req, useGiftCards: [], status: 'p' })).toBeNull();
    expect(giftCardRequestRefusal({ ...req, paymentInfo: {} })).toBeNull();
    expect(giftCardRequestRefusal({ ...req, paymentProvider: 'manual' })).toBe(
      GIFT_CARD_MESSAGES.notCompatible,
    );
    expect(giftCardRequestRefusal({ ...req, paymentInfo: { a: 1 } })).toBe(GIFT_CARD_MESSAGES.notCompatible);
    expect(giftCardRequestRefusal({ ...req, status: 'p' })).toBe(GIFT_CARD_MESSAGES.onlyPending);
    expect(giftCardRequestRefusal({ ...req, useGiftCards: ['A', 'A'] })).toBe(GIFT_CARD_MESSAGES.duplicates);
  });
});
