import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import type { Principal } from '../auth/principal';
import { FieldConflict, invalidPk, Refused, ValidationFailed } from '../common/errors';
import { QueryFilters } from '../common/listing/query-filters';
import { uniqueAsValidation } from '../common/persistence/unique';
import { WriteMode } from '../common/persistence/write';
import { parseDateTimeOrNull } from '../common/values/datetime';
import { Decimal, toMoney } from '../common/values/money';
import { OrderPositionReads } from '../orders/presentation/order-position-reads.service';
import type { OrganizerRef } from '../organizers/tenancy.queries';
import { GiftCardReads } from './giftcard-reads.service';
import { GiftCardQueries, GiftCardRow } from './giftcard.queries';
import { GiftCardTransaction } from './giftcard-transaction.entity';
import type { CreateGiftCardDto, GiftCardTransactDto } from './giftcard.dto';
import { GiftCard } from './giftcard.entity';
import { GiftCardJson } from './giftcard.presenter';
import {
  ACCEPTED_CARD_CREDIT,
  ACCEPTED_CARD_UPDATE,
  DUPLICATE_SECRET,
  fixedFieldErrors,
  generateSecret,
  INSUFFICIENT_CREDIT,
  mayBook,
} from './giftcards.rules';

/** Audit content type of gift cards (pretix model name). */
const CONTENT_TYPE = 'giftcard';

function cardFromRow(row: GiftCardRow): GiftCard {
  return Object.assign(new GiftCard(), {
    id: row.id,
    issuerId: row.issuer_id,
    secret: row.secret,
    issuance: row.issuance,
    value: row.value,
    currency: row.currency,
    testmode: row.testmode,
    expires: row.expires,
    conditions: row.conditions,
    ownerTicketId: row.owner_ticket_id,
  });
}

/**
 * Writes of gift cards (spec "Gift cards"; compat §3.4): create, update, transact. Every change of
 * value is a `giftcard_transaction` row written in the same database transaction as the new value (the initial
 * value, a PATCH/PUT of `value` as the difference, a `transact/`), and the value never becomes negative. Audit:
 * `pretix.giftcards.created`, `pretix.giftcards.modified`, `pretix.giftcards.transaction.manual`, in the log of
 * the issuing organizer with the booking organizer as `acceptor_id`.
 */
@Injectable()
export class GiftCardsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditLogService,
    private readonly reads: GiftCardReads,
    private readonly positions: OrderPositionReads,
    private readonly queries: GiftCardQueries,
  ) {}

  /**
   * Creates a card of the organizer with its initial value booked as the first transaction (also 0.00).
   * @throws ValidationFailed (400) for a secret already used by the organizer, an unknown owner ticket
   */
  async create(
    organizer: OrganizerRef,
    principal: Principal,
    body: CreateGiftCardDto,
  ): Promise<GiftCardJson> {
    const value = toMoney(body.value);
    const card = await uniqueAsValidation('uq_giftcard_issuer_secret', 'secret', DUPLICATE_SECRET, () =>
      this.db.transaction(async (em) => {
        const ownerTicketId = await this.resolveOwner(em, organizer, body.owner_ticket ?? null);
        let secret = body.secret;
        if (secret !== undefined && (await this.secretTaken(em, organizer.id, secret))) {
          throw ValidationFailed.field('secret', DUPLICATE_SECRET);
        }
        while (secret === undefined) {
          const candidate = generateSecret();
          if (!(await this.secretTaken(em, organizer.id, candidate))) secret = candidate;
        }
        const card = em.create(GiftCard, {
          issuerId: organizer.id,
          secret,
          value,
          currency: body.currency,
          testmode: body.testmode ?? false,
          expires: parseDateTimeOrNull(body.expires),
          conditions: body.conditions ?? null,
          ownerTicketId,
        });
        await em.save(card);
        await this.book(em, card, value, organizer, principal, { text: null, info: null });
        await this.audit.record(em, principal, {
          organizerId: organizer.id,
          contentType: CONTENT_TYPE,
          objectId: card.id,
          action: 'pretix.giftcards.created',
          data: { ...body, secret, value },
        });
        return card;
      }),
    );
    return (await this.reads.present(this.db.manager, [card], organizer, false))[0];
  }

  /**
   * PUT (`replace`: omitted `expires`, `conditions`, `owner_ticket` reset to null; `currency` and `value`
   * required) or PATCH (`patch`: only the fields sent). `secret`, `currency` and `testmode` may be sent only with
   * their current value. A new `value` is booked as the difference (nothing for no difference). The card row is
   * locked for the transaction.
   * @throws Refused (403) with `include_accepted=true` (accepted cards change only through transact)
   * @throws NotFound for a card the organizer did not issue
   * @throws ValidationFailed (400) for a changed fixed field or an unknown owner ticket
   */
  async update(
    organizer: OrganizerRef,
    id: number,
    principal: Principal,
    body: Partial<CreateGiftCardDto>,
    mode: Exclude<WriteMode, 'create'>,
    filters: QueryFilters,
  ): Promise<GiftCardJson> {
    if (filters.bool('include_accepted') === true) throw new Refused(ACCEPTED_CARD_UPDATE);
    const card = await this.db.transaction(async (em) => {
      const card = await this.reads.load(em, organizer, id, false, true);
      fixedFieldErrors(card, body).throwIfAny();
      const reset = mode === 'replace';
      const next = {
        expires: body.expires !== undefined ? parseDateTimeOrNull(body.expires) : reset ? null : card.expires,
        conditions: body.conditions !== undefined ? body.conditions : reset ? null : card.conditions,
        ownerTicketId:
          body.owner_ticket !== undefined
            ? await this.resolveOwner(em, organizer, body.owner_ticket)
            : reset
              ? null
              : card.ownerTicketId,
      };
      const modified =
        (next.expires?.getTime() ?? null) !== (card.expires?.getTime() ?? null) ||
        next.conditions !== card.conditions ||
        next.ownerTicketId !== card.ownerTicketId;
      if (modified) {
        await em.update(GiftCard, { id: card.id }, next);
        Object.assign(card, next);
        const { value: _value, ...changes } = body;
        await this.audit.record(em, principal, {
          organizerId: organizer.id,
          contentType: CONTENT_TYPE,
          objectId: card.id,
          action: 'pretix.giftcards.modified',
          data: { ...changes },
        });
      }
      if (body.value !== undefined) {
        const diff = new Decimal(toMoney(body.value)).minus(card.value);
        if (!diff.isZero()) {
          await em.update(GiftCard, { id: card.id }, { value: toMoney(body.value) });
          card.value = toMoney(body.value);
          await this.book(em, card, toMoney(diff), organizer, principal, { text: null, info: null });
        }
      }
      return card;
    });
    return (await this.reads.present(this.db.manager, [card], organizer, false))[0];
  }

  /**
   * Adds `value` (negative: subtracts) to a card within reach (`include_accepted=true`: also cards of issuers
   * this organizer accepts) and books the transaction with `text` and `info`. One conditional UPDATE (`value +
   * delta >= 0`) and the transaction row in one database transaction: concurrent debits can never take the value
   * below 0.00, and a refused one books nothing.
   * An acceptor may only debit another issuer's card (README "Security", "Gift card acceptance"; pretix lets it
   * credit too).
   * @throws NotFound for a card out of reach
   * @throws Refused (403) for a value >= 0 on a card of another issuer
   * @throws FieldConflict (409 `{"value": [...]}`) when the value would become negative
   */
  async transact(
    organizer: OrganizerRef,
    id: number,
    principal: Principal,
    body: GiftCardTransactDto,
    filters: QueryFilters,
  ): Promise<GiftCardJson> {
    const includeAccepted = filters.bool('include_accepted') ?? false;
    const delta = toMoney(body.value);
    const debit = new Decimal(delta).lessThan(0);
    const card = await this.db.transaction(async (em) => {
      // An acceptor only debits another issuer's card (README "Security").
      const rows = await this.queries.addValue(
        em,
        { organizerId: organizer.id, includeAccepted },
        id,
        delta,
        includeAccepted && !debit,
      );
      if (rows.length === 0) {
        const found = await this.reads.load(em, organizer, id, includeAccepted);
        if (!mayBook(found.issuerId === organizer.id, delta)) throw new Refused(ACCEPTED_CARD_CREDIT);
        throw FieldConflict.field('value', INSUFFICIENT_CREDIT);
      }
      const card = cardFromRow(rows[0]);
      await this.book(em, card, delta, organizer, principal, {
        text: body.text ?? null,
        info: body.info ?? null,
      });
      return card;
    });
    return (await this.reads.present(this.db.manager, [card], organizer, false))[0];
  }

  /** Inserts the transaction row and its audit entry (in the issuer's log, `acceptor_id` the booking organizer). */
  private async book(
    em: EntityManager,
    card: GiftCard,
    value: string,
    acceptor: OrganizerRef,
    principal: Principal,
    extra: { text: string | null; info: Record<string, unknown> | null },
  ): Promise<void> {
    await em.save(
      em.create(GiftCardTransaction, {
        giftcardId: card.id,
        value,
        text: extra.text,
        info: extra.info,
        acceptorId: acceptor.id,
      }),
    );
    await this.audit.record(em, principal, {
      organizerId: card.issuerId,
      contentType: CONTENT_TYPE,
      objectId: card.id,
      action: 'pretix.giftcards.transaction.manual',
      data: { value, text: extra.text, acceptor_id: acceptor.id },
    });
  }

  private async secretTaken(em: EntityManager, issuerId: number, secret: string): Promise<boolean> {
    return em.getRepository(GiftCard).exists({ where: { issuerId, secret } });
  }

  /**
   * An owner ticket given by position id or ticket secret, resolved within the organizer.
   * @throws ValidationFailed (400) `{"owner_ticket": [...]}` for a position of another organizer or none
   */
  private async resolveOwner(
    em: EntityManager,
    organizer: OrganizerRef,
    ref: number | string | null,
  ): Promise<number | null> {
    if (ref === null) return null;
    if (typeof ref === 'number') {
      if ((await this.positions.inOrganizer(em, organizer.id, [ref])).has(ref)) return ref;
      throw ValidationFailed.field('owner_ticket', invalidPk(ref));
    }
    const id = await this.positions.idBySecret(em, organizer.id, ref);
    if (id === null)
      throw ValidationFailed.field('owner_ticket', `Object with secret=${ref} does not exist.`);
    return id;
  }
}
