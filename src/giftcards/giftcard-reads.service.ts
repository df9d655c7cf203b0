import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { NotFound, ParentNotFound } from '../common/errors';
import { applyOrdering } from '../common/listing/ordering';
import { findOneInOne, paginateInOne, Related, relatedValue } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { OrderPositionReads } from '../orders/presentation/order-position-reads.service';
import { OrganizerRef, TenancyQueries } from '../organizers/tenancy.queries';
import { GiftCardTransaction } from './giftcard-transaction.entity';
import { GiftCard } from './giftcard.entity';
import {
  GiftCardJson,
  GiftCardTransactionJson,
  toGiftCardJson,
  toGiftCardTransactionJson,
} from './giftcard.presenter';
import { visibleTransactionDetails } from './giftcards.rules';

/** `?expand=` names of gift card endpoints. */
export const GIFTCARD_EXPANDS = ['owner_ticket'] as const;

/**
 * SQL condition: the gift card `alias` is within reach of the organizer bound as `:reachOrg`, i.e. issued by it,
 * or, with `includeAccepted`, issued by an organizer whose cards it accepts under an active acceptance.
 */
export function reachCondition(alias: string, includeAccepted: boolean): string {
  const own = `${alias}.issuer_id = :reachOrg`;
  if (!includeAccepted) return own;
  return `(${own} OR ${alias}.issuer_id IN (SELECT a.issuer_id FROM giftcard_acceptance a
            WHERE a.acceptor_id = :reachOrg AND a.active))`;
}

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
export class GiftCardReads {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly positions: OrderPositionReads,
    private readonly tenancy: TenancyQueries,
  ) {}

  /** The slug of the organizer whose id is the column `column`, read with the row. */
  private slugOf(column: string): { slug: Related<string> } {
    return { slug: relatedValue<string>(this.tenancy.organizerSlugOf(column)) };
  }

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
    const qb = this.db
      .getRepository(GiftCard)
      .createQueryBuilder('g')
      .where(reachCondition('g', includeAccepted), { reachOrg: organizer.id });
    const secret = filters.str('secret');
    if (secret !== undefined) qb.andWhere('lower(g.secret) = lower(:secret)', { secret });
    const testmode = filters.bool('testmode');
    if (testmode !== undefined) qb.andWhere('g.testmode = :testmode', { testmode });
    const expired = filters.bool('expired');
    if (expired === true) qb.andWhere('g.expires IS NOT NULL AND g.expires < now()');
    if (expired === false) qb.andWhere('(g.expires IS NULL OR g.expires >= now())');
    const value = filters.decimal('value');
    if (value !== undefined) qb.andWhere('g.value = :value', { value });
    applyOrdering(
      qb,
      filters,
      { id: 'g.id', issuance: 'g.issuance', secret: 'g.secret', value: 'g.value', expires: 'g.expires' },
      ['id'],
    );
    const result = await paginateInOne(qb, page, this.slugOf('g.issuer_id'), (row, rel) => ({
      row,
      slug: rel.slug,
    }));
    return new Paginated(
      await this.presentWithSlugs(this.db.manager, result.items, organizer, expandOwner),
      result.total,
      result.page,
    );
  }

  /**
   * One card within reach (`include_accepted` widens the reach); `expand=owner_ticket`.
   * @throws NotFound for a card out of reach
   */
  async get(organizer: OrganizerRef, id: number, filters: QueryFilters): Promise<GiftCardJson> {
    const qb = this.db
      .getRepository(GiftCard)
      .createQueryBuilder('g')
      .where('g.id = :id', { id })
      .andWhere(reachCondition('g', filters.bool('include_accepted') ?? false), { reachOrg: organizer.id });
    const entry = await findOneInOne(qb, this.slugOf('g.issuer_id'), (row, rel) => ({ row, slug: rel.slug }));
    const expandOwner = filters.expand(GIFTCARD_EXPANDS).has('owner_ticket');
    return (await this.presentWithSlugs(this.db.manager, [entry], organizer, expandOwner))[0];
  }

  /**
   * The transactions of a card within reach, by time (ordering `datetime` (default) or `id`): page, count and
   * acceptor slugs in one statement, the card's existence checked only when the page is empty. On another
   * issuer's card (`include_accepted`, one more statement for the issuer) the `text` and `info` of transactions
   * booked by other organizers are null (issue 22 item 13; pretix shows them).
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
    const qb = this.db
      .getRepository(GiftCardTransaction)
      .createQueryBuilder('t')
      .where('t.giftcard_id = :id', { id })
      .andWhere(
        `EXISTS (SELECT 1 FROM giftcard g WHERE g.id = :id AND ${reachCondition('g', includeAccepted)})`,
        {
          reachOrg: organizer.id,
        },
      );
    applyOrdering(qb, filters, { datetime: 't.datetime', id: 't.id' }, ['datetime', 'id']);
    const result = await paginateInOne(qb, page, this.slugOf('t.acceptor_id'), (row, rel) => ({
      ...toGiftCardTransactionJson(row, rel.slug),
      ...visibleTransactionDetails(row, organizer.id, issuerId),
    }));
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
    const qb = em
      .getRepository(GiftCard)
      .createQueryBuilder('g')
      .where('g.id = :id', { id })
      .andWhere(reachCondition('g', includeAccepted), { reachOrg: organizer.id });
    if (lock) qb.setLock('pessimistic_write');
    const card = await qb.getOne();
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
    const n = await em
      .getRepository(GiftCard)
      .createQueryBuilder('g')
      .where('g.id = :id', { id })
      .andWhere(reachCondition('g', includeAccepted), { reachOrg: organizer.id })
      .getCount();
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
