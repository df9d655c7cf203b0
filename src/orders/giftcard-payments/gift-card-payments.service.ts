import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import { InvalidRequest, ValidationFailed } from '../../common/errors';
import { Decimal, toMoney } from '../../common/values/money';
import type { Order } from '../entities/order.entity';
import type { OrderPayment } from '../entities/order-payment.entity';
import type { OrderRefund } from '../entities/order-refund.entity';
import { logOrder, OrderActor } from '../writing/order-log';
import { OrderWriter } from '../writing/order-writer';
import { CardBooking, CardRef, GIFT_CARD_LEDGER, GiftCardLedger, LedgerCard } from './gift-card-ledger.port';
import {
  cardRefOf,
  GIFT_CARD_MESSAGES,
  GIFT_CARD_PROVIDER,
  lookupRefusal,
  redemptionRefusal,
} from './gift-card-payment.rules';
import { GiftCardPaymentQueries } from './gift-card-payment.queries';

/** The info a gift card payment or refund keeps after booking (pretix `info_data`). */
function bookedInfo(card: LedgerCard, transactionId: number): Record<string, unknown> {
  return { gift_card: card.id, gift_card_secret: card.secret, transaction_id: transactionId };
}

/**
 * Gift card payments and refunds of orders (pretix `GiftCardPayment.execute_payment` / `execute_refund`), through
 * the {@link GiftCardLedger} port that the gift card context provides. Every method runs on the caller's `em`
 * inside the order's transaction with the order row locked; the card row is locked by the ledger, so the value
 * moves exactly once and never below zero, and a refusal (thrown) rolls back the payment with it.
 */
@Injectable()
export class GiftCardPayments {
  constructor(
    @Inject(GIFT_CARD_LEDGER) private readonly ledger: GiftCardLedger,
    private readonly audit: AuditLogService,
    private readonly writer: OrderWriter,
    private readonly queries: GiftCardPaymentQueries,
  ) {}

  /**
   * Takes `payment.amount` from the card its `info` names (`gift_card` id or `gift_card_secret`): the card must be
   * accepted by the event's organizer, in the event's currency, of the order's test mode, not expired, with
   * enough value. Books a transaction linked to the event, order and payment and replaces the payment's `info`
   * with `gift_card`, `gift_card_secret`, `transaction_id`. The caller confirms the payment.
   * @throws ValidationFailed `{"info": [...]}` when `info` names no card
   * @throws InvalidRequest `{"detail": "<pretix's message>"}` for a card that cannot pay (nothing booked)
   */
  async redeem(
    em: EntityManager,
    actor: OrderActor,
    order: Order,
    payment: OrderPayment,
    now: Date,
  ): Promise<void> {
    const ref = cardRefOf(payment.info);
    if (ref === null) throw ValidationFailed.field('info', GIFT_CARD_MESSAGES.noCard);
    const [lookup] = await this.ledger.lockAccepted(em, actor.event.organizerId, [ref]);
    if (!('card' in lookup)) throw new InvalidRequest(lookupRefusal(lookup));
    const { card } = lookup;
    const amount = new Decimal(payment.amount);
    const refusal = redemptionRefusal(card, {
      currency: actor.event.currency,
      testmode: order.testmode,
      amount,
      now,
    });
    if (refusal !== null) throw new InvalidRequest(refusal);
    const txId = await this.ledger.book(em, actor.principal, card, toMoney(amount.negated()), {
      ...this.booking(actor, order),
      paymentId: payment.id,
    });
    if (txId === null) throw new InvalidRequest(GIFT_CARD_MESSAGES.usedMeanwhile);
    await this.queries.setPaymentInfo(em, payment, bookedInfo(card, txId));
  }

  /**
   * Puts `refund.amount` on a gift card (pretix `execute_refund`): the card `named` (a refund's `info`), else the
   * card `payment` (a gift card payment) came from, else a new card of the event's organizer (event currency,
   * the order's test mode). Books a transaction linked to the event, order and refund (text: the refund's
   * comment) and sets the refund's `info` to `gift_card`, `gift_card_secret`, `transaction_id`. Value goes onto
   * another issuer's card only when it is the card of `payment` and `foreignAllowed` (the caller checked the
   * amount against what is left of that payment; README "Gift card acceptance").
   * @throws InvalidRequest for a card that is not accepted, of another currency, or another issuer's
   */
  async refund(
    em: EntityManager,
    actor: OrderActor,
    order: Order,
    refund: OrderRefund,
    named: CardRef | null,
    payment: OrderPayment | null,
    foreignAllowed: boolean,
  ): Promise<void> {
    const fromPayment = payment?.provider === GIFT_CARD_PROVIDER ? cardRefOf(payment.info) : null;
    const ref = named ?? fromPayment;
    let card: LedgerCard;
    if (ref === null) {
      card = await this.ledger.issue(
        em,
        actor.principal,
        actor.event.organizerId,
        actor.event.currency,
        order.testmode,
      );
    } else {
      const [lookup] = await this.ledger.lockAccepted(em, actor.event.organizerId, [ref]);
      if (!('card' in lookup)) throw new InvalidRequest(lookupRefusal(lookup));
      card = lookup.card;
      if (card.currency !== actor.event.currency) throw new InvalidRequest(GIFT_CARD_MESSAGES.currency);
      const ofPayment = fromPayment !== null && 'id' in fromPayment && fromPayment.id === card.id;
      if (card.issuerId !== actor.event.organizerId && !(ofPayment && foreignAllowed))
        throw new InvalidRequest(GIFT_CARD_MESSAGES.foreignCredit);
    }
    const txId = await this.ledger.book(em, actor.principal, card, toMoney(refund.amount), {
      ...this.booking(actor, order),
      refundId: refund.id,
      text: refund.comment,
    });
    if (txId === null) throw new InvalidRequest(GIFT_CARD_MESSAGES.usedMeanwhile);
    await this.queries.setRefundInfo(em, refund, bookedInfo(card, txId));
  }

  /**
   * Pays a new pending order with the gift cards of `secrets` (pretix `use_gift_cards`), in the order given, until
   * its total is covered: each usable card gives a confirmed `giftcard` payment of min(open amount, card value)
   * (logged `.payment.confirmed`); a card that is unknown or cannot pay gives a `failed` payment of the open
   * amount with the reason in `info.error` (logged `.payment.failed`), as pretix does. When the total is covered
   * the order becomes paid (`status` `p`, on `order` too; the caller logs `.paid`).
   * @returns whether the order is now paid
   */
  async payNewOrder(
    em: EntityManager,
    actor: OrderActor,
    order: Order,
    secrets: string[],
    now: Date,
  ): Promise<boolean> {
    let open = new Decimal(order.total);
    if (secrets.length === 0 || open.lte(0)) return false;
    const lookups = await this.ledger.lockAccepted(
      em,
      actor.event.organizerId,
      secrets.map((secret) => ({ secret })),
    );
    let localId = 0;
    for (const [i, lookup] of lookups.entries()) {
      if (open.lte(0)) break;
      const card = 'card' in lookup ? lookup.card : null;
      const amount = card ? Decimal.min(open, card.value) : open;
      const refusal = card
        ? redemptionRefusal(card, { currency: actor.event.currency, testmode: order.testmode, amount, now })
        : lookupRefusal(lookup as Exclude<typeof lookup, { card: LedgerCard }>);
      const payment = await this.writer.addPayment(em, {
        orderId: order.id,
        localId: ++localId,
        state: refusal === null ? 'confirmed' : 'failed',
        amount: toMoney(amount),
        provider: GIFT_CARD_PROVIDER,
        created: now,
        paymentDate: refusal === null ? now : null,
        info: card ? { gift_card: card.id, gift_card_secret: card.secret } : { gift_card_secret: secrets[i] },
      });
      const entry = { local_id: payment.localId, provider: payment.provider };
      if (refusal !== null || card === null) {
        await this.queries.setPaymentInfo(em, payment, { ...payment.info, error: refusal });
        await logOrder(this.audit, em, actor, order.id, 'pretix.event.order.payment.failed', {
          ...entry,
          info: payment.info,
        });
        continue;
      }
      const txId = await this.ledger.book(em, actor.principal, card, toMoney(amount.negated()), {
        ...this.booking(actor, order),
        paymentId: payment.id,
      });
      if (txId === null) throw new InvalidRequest(GIFT_CARD_MESSAGES.usedMeanwhile);
      await this.queries.setPaymentInfo(em, payment, bookedInfo(card, txId));
      await logOrder(this.audit, em, actor, order.id, 'pretix.event.order.payment.confirmed', entry);
      open = open.minus(amount);
    }
    if (open.gt(0)) return false;
    await this.writer.change(em, order, { status: 'p' }, now);
    return true;
  }

  private booking(actor: OrderActor, order: Order): CardBooking {
    return {
      acceptorId: actor.event.organizerId,
      eventId: actor.event.id,
      orderId: order.id,
      paymentId: null,
      refundId: null,
      text: null,
    };
  }
}
