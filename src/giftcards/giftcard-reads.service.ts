import { Injectable } from '@nestjs/common';
import { refIds, type ObjectRef } from '../common/listing/object-refs';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../audit/change-renderer';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { NotFound, ParentNotFound } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { OrderPositionReads } from '../orders/presentation/order-position-reads.service';
import { OrderRefQueries } from '../orders/presentation/order-refs.queries';
import { OrganizerRef, TenancyQueries } from '../organizers/tenancy.queries';
import { GiftCard } from './giftcard.entity';
import { GiftCardQueries } from './giftcard.queries';
import {
  GiftCardJson,
  GiftCardTransactionJson,
  toGiftCardJson,
  toGiftCardTransactionJson,
} from './giftcard.presenter';
import { visibleTransactionDetails, visibleTransactionRefs } from './giftcards.rules';

/** `?expand=` names of gift card endpoints. */
export const GIFTCARD_EXPANDS = ['owner_ticket'] as const;

/** A card with the slug of an organizer read in the same statement (its issuer, or a transaction's acceptor). */
interface WithSlug<E> {
  row: E;
  slug: string;
}

/**
 * Gift cards and their transactions as an organizer sees them (spec "Gift cards"; compat §3.4). A list page is one
 * statement (rows, count and the issuer or acceptor slugs, through the tenancy roots' SQL), a detail too; owner
 * tickets add the statements of the nested positions only when expanded. Exported for the media context (linked
 * gift cards).
 */
@Injectable()
@RendersChanges('giftcard')
export class GiftCardReads implements ChangeRenderer {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly positions: OrderPositionReads,
    private readonly tenancy: TenancyQueries,
    private readonly queries: GiftCardQueries,
    private readonly orderRefs: OrderRefQueries,
  ) {}

  /** The organizers context's subquery of an organizer's slug (read with each card or transaction). */
  private readonly organizerSlugOf = (organizerId: string): string =>
    this.tenancy.organizerSlugOf(organizerId);

  /**
   * One page of cards. Filters: `secret` (case-insensitive exact), `testmode`, `expired`, `value` (exact),
   * `include_accepted` (also cards of issuers this organizer accepts); `expand=owner_ticket`. Ordering `id`
   * (default), `issuance`, `secret`, `value`, `expires`.
   * @throws ValidationFailed (400) for a malformed filter value
   */
  async list(
    organizer: OrganizerRef,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<GiftCardJson>> {
    const includeAccepted = filters.bool('include_accepted') ?? false;
    const expandOwner = filters.expand(GIFTCARD_EXPANDS).has('owner_ticket');
    const result = await this.queries.cardsPage(
      this.db.manager,
      { organizerId: organizer.id, includeAccepted },
      filters,
      page,
      this.organizerSlugOf,
      (row, slug) => ({ row, slug }),
    );
    return result.withItems(
      await this.presentWithSlugs(this.db.manager, result.items, organizer, expandOwner),
    );
  }

  /** The change feed's giftcard objects ({@link details}). */
  renderChanges(scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    return this.details(scope.organizer, refIds(refs));
  }

  /**
   * The detail answers of the organizer's own gift cards among `ids` (as `GET O/giftcards/{id}/` without
   * parameters answers them), by id; two statements.
   */
  async details(organizer: OrganizerRef, ids: readonly number[]): Promise<Map<number, GiftCardJson>> {
    if (ids.length === 0) return new Map();
    const entries = await this.queries.cardsWithSlug(
      this.db.manager,
      organizer.id,
      [...new Set(ids)],
      this.organizerSlugOf,
      (row, slug) => ({ row, slug }),
    );
    const json = await this.presentWithSlugs(this.db.manager, entries, organizer, false);
    return new Map(entries.map((e, i) => [e.row.id, json[i]]));
  }

  /**
   * One card within reach (`include_accepted` widens the reach); `expand=owner_ticket`.
   * @throws NotFound for a card out of reach
   */
  async get(organizer: OrganizerRef, id: number, filters: QueryFilters): Promise<GiftCardJson> {
    const entry = await this.queries.cardWithSlug(
      this.db.manager,
      { organizerId: organizer.id, includeAccepted: filters.bool('include_accepted') ?? false },
      id,
      this.organizerSlugOf,
      (row, slug) => ({ row, slug }),
    );
    const expandOwner = filters.expand(GIFTCARD_EXPANDS).has('owner_ticket');
    return (await this.presentWithSlugs(this.db.manager, [entry], organizer, expandOwner))[0];
  }

  /**
   * The transactions of a card within reach, by time (ordering `datetime` (default) or `id`): page, count and
   * acceptor slugs in one statement, the card's existence checked only when the page is empty. On another
   * issuer's card (`include_accepted`, one more statement for the issuer) the `text` and `info` of transactions
   * booked by other organizers are null (README "Security", "Gift card acceptance"; pretix shows them).
   * @throws ParentNotFound (403; spec: a missing parent is 403) for a card out of reach, "Invalid page." beyond the
   *   last page
   */
  async transactions(
    organizer: OrganizerRef,
    id: number,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<GiftCardTransactionJson>> {
    const includeAccepted = filters.bool('include_accepted') ?? false;
    // Only with include_accepted can the card be another issuer's: then texts of others' bookings are hidden.
    const issuerId = includeAccepted
      ? ((
          await this.db
            .getRepository(GiftCard)
            .findOne({ select: { id: true, issuerId: true }, where: { id } })
        )?.issuerId ?? organizer.id)
      : organizer.id;
    const result = await this.queries.transactionsPage(
      this.db.manager,
      { organizerId: organizer.id, includeAccepted },
      id,
      filters,
      page,
      {
        organizerSlugOf: this.organizerSlugOf,
        eventSlugOf: (eventId) => this.tenancy.eventSlugOf(eventId),
        orderCodeOf: (orderId) => this.orderRefs.orderCodeOf(orderId),
      },
      (row, refs) => ({
        ...toGiftCardTransactionJson(row, refs),
        ...visibleTransactionDetails(row, organizer.id, issuerId),
        ...visibleTransactionRefs(refs, row.acceptorId, organizer.id, issuerId),
      }),
    );
    if (result.total === 0 && !(await this.exists(this.db.manager, organizer, id, includeAccepted))) {
      throw new ParentNotFound();
    }
    return result;
  }

  /**
   * A card within reach, locked for the transaction when `lock` is set.
   * @throws NotFound for a card out of reach
   */
  async load(
    em: EntityManager,
    organizer: OrganizerRef,
    id: number,
    includeAccepted: boolean,
    lock = false,
  ): Promise<GiftCard> {
    const card = await this.queries.cardInReach(em, { organizerId: organizer.id, includeAccepted }, id, lock);
    if (!card) throw new NotFound();
    return card;
  }

  /** Whether a card within reach exists (one statement). */
  async exists(
    em: EntityManager,
    organizer: OrganizerRef,
    id: number,
    includeAccepted: boolean,
  ): Promise<boolean> {
    const n = await this.queries.countInReach(em, { organizerId: organizer.id, includeAccepted }, id);
    return n > 0;
  }

  /** The ids among `ids` that are cards issued by the organizer (one statement; none for an empty list). */
  async issuedBy(em: EntityManager, organizerId: number, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await em.getRepository(GiftCard).find({
      select: { id: true },
      where: { issuerId: organizerId, id: In([...new Set(ids)]) },
    });
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Cards by id, presented for the viewer (for the media context's `expand=linked_giftcard`): at most three
   * statements (cards, other issuers' slugs, owner tickets when expanded).
   */
  async presentByIds(
    em: EntityManager,
    ids: readonly number[],
    viewer: OrganizerRef,
    expandOwner: boolean,
  ): Promise<Map<number, GiftCardJson>> {
    if (ids.length === 0) return new Map();
    const cards = await em.getRepository(GiftCard).find({ where: { id: In([...new Set(ids)]) } });
    const presented = await this.present(em, cards, viewer, expandOwner);
    return new Map(presented.map((c) => [c.id, c]));
  }

  /**
   * Cards to wire objects for the viewing organizer, resolving the slugs of other issuers in one statement (none
   * when all are the viewer's); owner tickets expanded in bulk.
   */
  async present(
    em: EntityManager,
    cards: GiftCard[],
    viewer: OrganizerRef,
    expandOwner: boolean,
  ): Promise<GiftCardJson[]> {
    const slugs = await this.slugs(
      em,
      cards.map((c) => c.issuerId),
      viewer,
    );
    return this.presentWithSlugs(
      em,
      cards.map((row) => ({ row, slug: slugs.get(row.issuerId) ?? '' })),
      viewer,
      expandOwner,
    );
  }

  /**
   * Cards with their issuer slugs to wire objects. A card of another issuer never shows its owner ticket (the
   * acceptor does not see the issuer's orders), so its `owner_ticket` is null.
   */
  private async presentWithSlugs(
    em: EntityManager,
    cards: WithSlug<GiftCard>[],
    viewer: OrganizerRef,
    expandOwner: boolean,
  ): Promise<GiftCardJson[]> {
    const own = (c: GiftCard) => c.issuerId === viewer.id;
    const owners = expandOwner
      ? await this.positions.nested(
          em,
          cards
            .filter(({ row: c }) => own(c) && c.ownerTicketId !== null)
            .map(({ row: c }) => c.ownerTicketId!),
        )
      : undefined;
    return cards.map(({ row: c, slug }) => {
      if (!own(c)) return toGiftCardJson(c, slug, null);
      if (!owners) return toGiftCardJson(c, slug, undefined);
      const owner = c.ownerTicketId === null ? null : (owners.get(c.ownerTicketId) ?? null);
      return toGiftCardJson(c, slug, owner);
    });
  }

  /** Slugs of organizers by id: the viewer's known, others in one statement (none when there are none). */
  private async slugs(
    em: EntityManager,
    ids: readonly number[],
    viewer: OrganizerRef,
  ): Promise<Map<number, string>> {
    const slugs = await this.tenancy.organizerSlugs(
      em,
      ids.filter((id) => id !== viewer.id),
    );
    slugs.set(viewer.id, viewer.slug);
    return slugs;
  }
}
