import type { EntityManager } from 'typeorm';
import type { Principal } from '../../auth/principal';

/** A gift card as order payments see it (money as decimal strings, `expires` a UTC datetime or null). */
export interface LedgerCard {
  id: number;
  secret: string;
  issuerId: number;
  value: string;
  currency: string;
  testmode: boolean;
  expires: Date | null;
}

/** Which card: by id (pretix `info.gift_card`) or by code (`info.gift_card_secret`, `use_gift_cards`). */
export type CardRef = { id: number } | { secret: string };

/**
 * The answer for one {@link CardRef}: the card, or why there is none: `unknown` (no card the organizer accepts
 * has this id or secret), `not_accepted` (the id is a card of an issuer the organizer does not accept),
 * `ambiguous` (several accepted issuers use this secret).
 */
export type CardLookup = { card: LedgerCard } | { refused: 'unknown' | 'not_accepted' | 'ambiguous' };

/** What a booking belongs to (pretix `GiftCardTransaction.order`, `.payment`, `.refund`, `.acceptor`). */
export interface CardBooking {
  /** The event's organizer, which books the transaction. */
  acceptorId: number;
  eventId: number;
  orderId: number;
  paymentId: number | null;
  refundId: number | null;
  /** The transaction's `text` (a refund's comment), or null. */
  text: string | null;
}

/**
 * Port: the gift card ledger as order payments and refunds use it (pretix `GiftCardPayment`). Gift cards belong
 * to `giftcards/`, which sits above orders and provides this port (architecture.md "Layout"); orders never touch
 * their tables. Every method runs on the caller's `em`, inside the order's transaction, so a payment or refund
 * and its card transaction commit or roll back together. Mandatory.
 */
export interface GiftCardLedger {
  /**
   * The cards the organizer accepts (its own, and those of issuers it accepts under an active acceptance; README
   * "Gift card acceptance"), locked `FOR UPDATE` in id order (so two orders paying with the same cards never
   * deadlock), one answer per ref in the order of `refs`.
   */
  lockAccepted(em: EntityManager, organizerId: number, refs: CardRef[]): Promise<CardLookup[]>;

  /**
   * Adds `delta` (money; negative takes value) to a card locked by {@link lockAccepted} or {@link issue} when its
   * value stays >= 0, writes the transaction row with `booking`'s links and the audit entry
   * (`pretix.giftcards.transaction.payment` for a debit, `.refund` for a credit, in the issuer's log). Updates
   * `card.value`.
   * @returns the transaction id, or null (nothing written) when the value would become negative
   */
  book(
    em: EntityManager,
    principal: Principal,
    card: LedgerCard,
    delta: string,
    booking: CardBooking,
  ): Promise<number | null>;

  /**
   * Issues a new card of `issuerId` with value 0.00 and a generated secret (pretix: the gift card a refund
   * creates), logs `pretix.giftcards.created`; the caller books the refund on it.
   */
  issue(
    em: EntityManager,
    principal: Principal,
    issuerId: number,
    currency: string,
    testmode: boolean,
  ): Promise<LedgerCard>;
}

export const GIFT_CARD_LEDGER = Symbol('GiftCardLedger');
