import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { Decimal, toMoney } from '../common/values/money';
import type {
  CardBooking,
  CardLookup,
  CardRef,
  GiftCardLedger,
  LedgerCard,
} from '../orders/giftcard-payments/gift-card-ledger.port';
import { GiftCardTransaction } from './giftcard-transaction.entity';
import { GiftCard } from './giftcard.entity';
import { GiftCardQueries, GiftCardReach } from './giftcard.queries';
import { generateSecret } from './giftcards.rules';

/** Audit content type of gift cards (pretix model name). */
const CONTENT_TYPE = 'giftcard';

function ledgerCard(card: Pick<GiftCard, keyof LedgerCard>): LedgerCard {
  return {
    id: card.id,
    secret: card.secret,
    issuerId: card.issuerId,
    value: toMoney(card.value),
    currency: card.currency,
    testmode: card.testmode,
    expires: card.expires,
  };
}

/**
 * The gift card context's answer to the orders' `GIFT_CARD_LEDGER` port (pretix `GiftCardPayment`): the cards an
 * organizer accepts, locked in id order; bookings of order payments (debits) and refunds (credits) with their
 * event, order and payment or refund, each one conditional UPDATE (`value + delta >= 0`, within the acceptor's
 * reach) plus the transaction row and the audit entry in the issuer's log
 * (`pretix.giftcards.transaction.payment` / `.refund`, with `acceptor_id`); and new cards for refunds
 * (`pretix.giftcards.created`). Everything on the caller's `em`, inside the order's transaction.
 */
@Injectable()
export class GiftCardLedgerService implements GiftCardLedger {
  constructor(
    private readonly audit: AuditLogService,
    private readonly queries: GiftCardQueries,
  ) {}

  /** {@inheritDoc GiftCardLedger.lockAccepted} */
  async lockAccepted(em: EntityManager, organizerId: number, refs: CardRef[]): Promise<CardLookup[]> {
    const reach: GiftCardReach = { organizerId, includeAccepted: true };
    const secrets = refs.flatMap((r) => ('secret' in r ? [r.secret] : []));
    const bySecret = new Map<string, number[]>();
    for (const row of await this.queries.idsBySecretInReach(em, reach, secrets)) {
      bySecret.set(row.secret, [...(bySecret.get(row.secret) ?? []), row.id]);
    }
    const ids = new Set<number>(refs.flatMap((r) => ('id' in r ? [r.id] : [])));
    for (const found of bySecret.values()) if (found.length === 1) ids.add(found[0]);
    const locked = new Map(
      (await this.queries.lockInReach(em, reach, [...ids])).map((c) => [c.id, ledgerCard(c)]),
    );
    const missingIds = refs.flatMap((r) => ('id' in r && !locked.has(r.id) ? [r.id] : []));
    const elsewhere = await this.queries.existing(em, missingIds);
    return refs.map((ref): CardLookup => {
      if ('id' in ref) {
        const card = locked.get(ref.id);
        if (card) return { card };
        return { refused: elsewhere.has(ref.id) ? 'not_accepted' : 'unknown' };
      }
      const found = bySecret.get(ref.secret) ?? [];
      if (found.length > 1) return { refused: 'ambiguous' };
      const card = found.length === 1 ? locked.get(found[0]) : undefined;
      return card ? { card } : { refused: 'unknown' };
    });
  }

  /** {@inheritDoc GiftCardLedger.book} */
  async book(
    em: EntityManager,
    principal: Principal,
    card: LedgerCard,
    delta: string,
    booking: CardBooking,
  ): Promise<number | null> {
    const reach: GiftCardReach = { organizerId: booking.acceptorId, includeAccepted: true };
    const rows = await this.queries.addValue(em, reach, card.id, delta, false);
    if (rows.length === 0) return null;
    card.value = toMoney(rows[0].value);
    const tx = await em.save(
      em.create(GiftCardTransaction, {
        giftcardId: card.id,
        value: delta,
        text: booking.text,
        info: null,
        acceptorId: booking.acceptorId,
        eventId: booking.eventId,
        orderId: booking.orderId,
        paymentId: booking.paymentId,
        refundId: booking.refundId,
      }),
    );
    const debit = new Decimal(delta).lessThan(0);
    await this.audit.record(em, principal, {
      organizerId: card.issuerId,
      contentType: CONTENT_TYPE,
      objectId: card.id,
      action: debit ? 'pretix.giftcards.transaction.payment' : 'pretix.giftcards.transaction.refund',
      data: { value: delta, acceptor_id: booking.acceptorId, ...(debit ? {} : { text: booking.text }) },
    });
    return tx.id;
  }

  /** {@inheritDoc GiftCardLedger.issue} */
  async issue(
    em: EntityManager,
    principal: Principal,
    issuerId: number,
    currency: string,
    testmode: boolean,
  ): Promise<LedgerCard> {
    let secret: string | undefined;
    while (secret === undefined) {
      const candidate = generateSecret();
      if (!(await em.getRepository(GiftCard).exists({ where: { issuerId, secret: candidate } })))
        secret = candidate;
    }
    const card = await em.save(
      em.create(GiftCard, { issuerId, secret, value: '0.00', currency, testmode, expires: null }),
    );
    await this.audit.record(em, principal, {
      organizerId: issuerId,
      contentType: CONTENT_TYPE,
      objectId: card.id,
      action: 'pretix.giftcards.created',
      data: { secret, value: '0.00', currency, testmode },
    });
    return ledgerCard(card);
  }
}
