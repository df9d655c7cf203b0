import { Decimal } from '../../common/values/money';
import type { CardLookup, CardRef, LedgerCard } from './gift-card-ledger.port';

/**
 * Pure rules of gift card payments (pretix `GiftCardPayment.execute_payment`, `GiftCardPaymentForm`, the order
 * create serializer's `use_gift_cards`). Unit-tested in `gift-card-payment.rules.spec.ts`.
 */

/** The payment provider of gift cards. */
export const GIFT_CARD_PROVIDER = 'giftcard';

/** pretix's messages about gift card payments (payment.py, order create serializer). */
export const GIFT_CARD_MESSAGES = {
  unknown: 'This gift card is not known.',
  ambiguous:
    'This gift card can not be redeemed since its code is not unique. Please contact the organizer of this event.',
  currency: 'This gift card does not support this currency.',
  notAccepted: 'This gift card is not accepted by this event organizer.',
  empty: 'All credit on this gift card has been used.',
  usedMeanwhile: 'This gift card was used in the meantime. Please try again.',
  testmodeOnly: 'This gift card can only be used in test mode.',
  testCardsOnly: 'Only test gift cards can be used in test mode.',
  expired: 'This gift card is no longer valid.',
  /** Ours: a gift card payment or refund whose `info` names no card. */
  noCard: 'Name the gift card with "gift_card" (its id) or "gift_card_secret".',
  notCompatible: 'The attribute use_gift_cards is not compatible with payment_provider or payment_info',
  onlyPending: 'The attribute use_gift_cards is only supported for orders that are created as pending',
  duplicates: 'Multiple copies of the same gift card secret are not allowed',
  /** Ours (README "Gift card acceptance"): value goes onto another issuer's card only back from its payment. */
  foreignCredit:
    "Value can only be put back on another issuer's gift card by refunding a payment made with that card.",
} as const;

/**
 * The card named in a payment's or refund's `info` (pretix keys `gift_card`: the id, `gift_card_secret`: the code;
 * the id wins), or null when neither is usable.
 */
export function cardRefOf(info: Record<string, unknown> | null | undefined): CardRef | null {
  const id = info?.gift_card;
  if (typeof id === 'number' && Number.isInteger(id) && id > 0) return { id };
  if (typeof id === 'string' && /^[1-9][0-9]{0,9}$/.test(id)) return { id: Number(id) };
  const secret = info?.gift_card_secret;
  if (typeof secret === 'string' && secret.trim() !== '') return { secret: secret.trim() };
  return null;
}

/** The message for a lookup that found no card. */
export function lookupRefusal(lookup: Exclude<CardLookup, { card: LedgerCard }>): string {
  if (lookup.refused === 'ambiguous') return GIFT_CARD_MESSAGES.ambiguous;
  return lookup.refused === 'not_accepted' ? GIFT_CARD_MESSAGES.notAccepted : GIFT_CARD_MESSAGES.unknown;
}

/** What a payment from a card must match: the event's currency, the order's test mode, the amount (money). */
export interface RedemptionCheck {
  currency: string;
  testmode: boolean;
  amount: Decimal;
  now: Date;
}

/**
 * Why `card` cannot pay `check.amount`, in pretix's order of checks (currency, no credit left, not enough value,
 * test mode both ways, expiry), or null when it can.
 */
export function redemptionRefusal(card: LedgerCard, check: RedemptionCheck): string | null {
  if (card.currency !== check.currency) return GIFT_CARD_MESSAGES.currency;
  const value = new Decimal(card.value);
  if (value.lte(0)) return GIFT_CARD_MESSAGES.empty;
  if (check.amount.gt(value)) return GIFT_CARD_MESSAGES.usedMeanwhile;
  if (card.testmode && !check.testmode) return GIFT_CARD_MESSAGES.testmodeOnly;
  if (!card.testmode && check.testmode) return GIFT_CARD_MESSAGES.testCardsOnly;
  if (card.expires && card.expires.getTime() < check.now.getTime()) return GIFT_CARD_MESSAGES.expired;
  return null;
}

/** What order creation asked for about gift cards (pretix `use_gift_cards`). */
export interface GiftCardRequest {
  useGiftCards: string[] | undefined;
  status: string | undefined;
  paymentProvider: string | null | undefined;
  paymentInfo: Record<string, unknown> | undefined;
}

/**
 * pretix's refusal of `use_gift_cards` (field `use_gift_cards`): together with `payment_provider` or
 * `payment_info`, with a status other than pending, or with a secret twice; null when fine or absent.
 */
export function giftCardRequestRefusal(req: GiftCardRequest): string | null {
  const secrets = req.useGiftCards ?? [];
  if (secrets.length === 0) return null;
  const info = req.paymentInfo;
  if ((req.paymentProvider ?? null) !== null || (info !== undefined && Object.keys(info).length > 0))
    return GIFT_CARD_MESSAGES.notCompatible;
  if ((req.status ?? 'n') !== 'n') return GIFT_CARD_MESSAGES.onlyPending;
  if (new Set(secrets).size !== secrets.length) return GIFT_CARD_MESSAGES.duplicates;
  return null;
}
