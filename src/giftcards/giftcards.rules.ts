import { ErrorCollector } from '../common/errors';
import { Decimal } from '../common/values/money';
import { randomString } from '../common/values/random';
import type { GiftCard } from './giftcard.entity';

/** Alphabet of generated gift card codes: upper-case letters and digits without look-alikes (pretix's). */
const SECRET_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ3789';

/** Length of generated gift card codes. */
export const GENERATED_SECRET_LENGTH = 16;

export const DUPLICATE_SECRET =
  'A gift card with the same secret already exists in your or an affiliated organizer account.';
export const FIXED_FIELD = 'This field cannot be changed after the gift card has been created.';
export const INSUFFICIENT_CREDIT = 'The gift card does not have sufficient credit for this operation.';
export const ACCEPTED_CARD_UPDATE = 'Accepted gift cards cannot be updated, use transact instead.';
/**
 * 403 detail for a credit (value >= 0) on another issuer's card (README "Security", "Gift card acceptance";
 * stricter than pretix).
 */
export const ACCEPTED_CARD_CREDIT = 'Accepted gift cards can only be debited, send a negative value.';

/**
 * Whether an organizer may book `delta` on a card (README "Security", "Gift card acceptance"): the issuer books
 * anything, an acceptor only debits (a negative amount): it redeems the card for a purchase and never adds value
 * to another issuer's card.
 */
export function mayBook(isIssuer: boolean, delta: string): boolean {
  return isIssuer || new Decimal(delta).lessThan(0);
}

/**
 * The `text` and `info` of a transaction as the viewer sees them (README "Security", "Gift card acceptance"): the
 * card's issuer and the organizer that booked the transaction see them; another acceptor sees null (they are the
 * business of others).
 */
export function visibleTransactionDetails(
  tx: { acceptorId: number; text: string | null; info: Record<string, unknown> | null },
  viewerId: number,
  issuerId: number,
): { text: string | null; info: Record<string, unknown> | null } {
  return viewerId === issuerId || viewerId === tx.acceptorId
    ? { text: tx.text, info: tx.info }
    : { text: null, info: null };
}

/**
 * The `event` and `order` of a transaction as the viewer sees them: like {@link visibleTransactionDetails}, the
 * issuer and the organizer that booked it see the event slug and order code of an order payment or refund; another
 * acceptor sees null (they name another organizer's sales).
 */
export function visibleTransactionRefs(
  refs: { event: string | null; order: string | null },
  acceptorId: number,
  viewerId: number,
  issuerId: number,
): { event: string | null; order: string | null } {
  return viewerId === issuerId || viewerId === acceptorId
    ? { event: refs.event, order: refs.order }
    : { event: null, order: null };
}

/** A random gift card code (16 characters of {@link SECRET_ALPHABET}). */
export function generateSecret(): string {
  return randomString(SECRET_ALPHABET, GENERATED_SECRET_LENGTH);
}

/** The fields of a gift card that are fixed after creation, in wire form. */
export interface FixedFields {
  secret?: string;
  currency?: string;
  testmode?: boolean;
}

/**
 * Errors for fixed fields an update sends with a value other than the stored one (compat §3.4: `secret`,
 * `currency` and `testmode` are fixed after creation; sending the same value is fine, omitting it keeps it, also
 * on PUT).
 */
export function fixedFieldErrors(card: GiftCard, body: FixedFields): ErrorCollector {
  const errors = new ErrorCollector();
  if (body.secret !== undefined && body.secret !== card.secret) errors.add('secret', FIXED_FIELD);
  if (body.currency !== undefined && body.currency !== card.currency) errors.add('currency', FIXED_FIELD);
  if (body.testmode !== undefined && body.testmode !== card.testmode) errors.add('testmode', FIXED_FIELD);
  return errors;
}
