import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { isoUtc } from '../common/values/datetime';
import { toMoney } from '../common/values/money';
import { NestedOrderPositionJson } from '../orders/presentation/nested-order-position.presenter';
import type { GiftCardAcceptance } from './giftcard-acceptance.entity';
import type { GiftCardTransaction } from './giftcard-transaction.entity';
import type { GiftCard } from './giftcard.entity';
import { ApiDateTime, ApiInt, ApiMoney } from '../common/http/api-schemas';

/** Wire form of a gift card (spec "Gift card"; compat §3.4). Money as a string with two decimals. */
export class GiftCardJson {
  @ApiInt()
  id!: number;
  /** Gift card code. */
  secret!: string;
  /** Creation time, ISO 8601 UTC. */
  @ApiDateTime()
  issuance!: string;
  /** Current value, e.g. `"13.37"`. */
  @ApiMoney()
  value!: string;
  currency!: string;
  testmode!: boolean;
  @ApiDateTime({ nullable: true })
  expires!: string | null;
  conditions!: string | null;
  /** Order position owning the card: its id, or the nested position with `expand=owner_ticket`. */
  @ApiProperty({
    oneOf: [{ type: 'integer' }, { $ref: getSchemaPath(NestedOrderPositionJson) }],
    nullable: true,
  })
  owner_ticket!: number | NestedOrderPositionJson | null;
  /** Slug of the issuing organizer. */
  issuer!: string;
}

/**
 * Wire form of a gift card transaction (spec "Gift card transaction"; compat §3.4). A transaction of an order's
 * gift card payment or refund names the event (slug) and order (code), as pretix; others have null.
 */
export class GiftCardTransactionJson {
  @ApiInt()
  id!: number;
  /** Creation time, ISO 8601 UTC. */
  @ApiDateTime()
  datetime!: string;
  /** Amount, positive or negative, e.g. `"-10.00"`. */
  @ApiMoney()
  value!: string;
  /** Slug of the event of the order paid or refunded, else null. */
  @ApiProperty({ type: String, nullable: true })
  event!: string | null;
  /** Code of the order paid or refunded, else null. */
  @ApiProperty({ type: String, nullable: true })
  order!: string | null;
  text!: string | null;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true })
  info!: Record<string, unknown> | null;
  /** Slug of the organizer that booked the transaction. */
  acceptor!: string;
}

/** Wire form of an acceptance: this organizer accepts the gift cards of `issuer`. */
export class GiftCardAcceptanceJson {
  /** Slug of the issuing organizer. */
  issuer!: string;
  active!: boolean;
  reusable_media!: boolean;
}

/** Entity to wire object; the caller resolves the issuer slug and, when expanded, the owner ticket. */
export function toGiftCardJson(
  card: GiftCard,
  issuer: string,
  ownerTicket: NestedOrderPositionJson | null | undefined,
): GiftCardJson {
  return {
    id: card.id,
    secret: card.secret,
    issuance: isoUtc(card.issuance),
    value: toMoney(card.value),
    currency: card.currency,
    testmode: card.testmode,
    expires: isoUtc(card.expires),
    conditions: card.conditions,
    owner_ticket: ownerTicket === undefined ? card.ownerTicketId : ownerTicket,
    issuer,
  };
}

/** Entity to wire object; the caller reads the acceptor's slug and the event's slug and order's code (or null). */
export function toGiftCardTransactionJson(
  tx: GiftCardTransaction,
  refs: { acceptor: string; event: string | null; order: string | null },
): GiftCardTransactionJson {
  const { acceptor } = refs;
  return {
    id: tx.id,
    datetime: isoUtc(tx.datetime),
    value: toMoney(tx.value),
    event: refs.event,
    order: refs.order,
    text: tx.text,
    info: tx.info,
    acceptor,
  };
}

export function toGiftCardAcceptanceJson(a: GiftCardAcceptance, issuer: string): GiftCardAcceptanceJson {
  return { issuer, active: a.active, reusable_media: a.reusableMedia };
}
