import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import {
  findManyInOne,
  findOneInOne,
  paginateInOne,
  Related,
  relatedValue,
  RelatedSpec,
} from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { Decimal } from '../../common/values/money';
import { SqlFragment, sqlFragment } from '../../common/persistence/sql-fragment';
import { Item } from './item.entity';

/**
 * The SQL of the catalogue's `item` table (compat §3.10): the list and detail pages (with what the caller reads
 * in the same statement), the references an item write checks, item locks, and the lookups other resources use.
 * Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class ItemQueries {
  /**
   * Fragment, scalar subquery: what decides whether the item whose id is the SQL expression `itemId` issues tickets,
   * as a JSON array `[admission, generate_tickets]` (the latter null: the event's settings decide). Alias `ti`.
   */
  static ticketFlagsOf(itemId: string): SqlFragment {
    return sqlFragment(
      `(SELECT jsonb_build_array(ti.admission, ti.generate_tickets) FROM item ti WHERE ti.id = ${itemId})`,
    );
  }

  /**
   * Fragment, scalar subquery: what ticket layouts print of the item whose id is the SQL expression `itemId` and the
   * variation `variationId` (may be NULL), as JSON `{n, d, c, v, vd}`: item name and description, category name,
   * variation value and description (i18n objects or null). Aliases `pi`, `pc`, `pv` (pdf_data, compat §4.4).
   */
  static printLabelsOf(itemId: string, variationId: string): SqlFragment {
    return sqlFragment(
      `(SELECT jsonb_build_object('n', pi.name, 'd', pi.description,
        'c', (SELECT pc.name FROM item_category pc WHERE pc.id = pi.category_id),
        'v', (SELECT pv.value FROM item_variation pv WHERE pv.id = ${variationId}),
        'vd', (SELECT pv.description FROM item_variation pv WHERE pv.id = ${variationId}))
        FROM item pi WHERE pi.id = ${itemId})`,
    );
  }

  /**
   * One page of the event's items with `related` read in the same statement, presented by `present`. Filters
   * `active`, `admission`, `free_price`, `category`, `tax_rate` (`None`/zero also match items without a rule),
   * `search`; ordering `id`, `position` (default `position,id`).
   * @throws ValidationFailed on malformed filters; NotFound "Invalid page."
   */
  async page<R, T>(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
    related: RelatedSpec<R>,
    present: (item: Item, related: R) => T,
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(Item)
      .createQueryBuilder('i')
      .where('i.event_id = :event', { event: eventId });
    for (const [param, column] of [
      ['active', 'active'],
      ['admission', 'admission'],
      ['free_price', 'free_price'],
    ] as const) {
      const value = filters.bool(param);
      if (value !== undefined) qb.andWhere(`i.${column} = :${param}`, { [param]: value });
    }
    const category = filters.int('category');
    if (category !== undefined) qb.andWhere('i.category_id = :category', { category });
    const taxRate = filters.raw('tax_rate') === 'None' ? '0' : filters.decimal('tax_rate');
    if (taxRate !== undefined) {
      const rate =
        'EXISTS (SELECT 1 FROM tax_rule t WHERE t.id = i.tax_rule_id AND t.rate = :taxRate::numeric)';
      qb.andWhere(new Decimal(taxRate).isZero() ? `(i.tax_rule_id IS NULL OR ${rate})` : rate, { taxRate });
    }
    const pattern = filters.contains('search');
    if (pattern !== undefined) {
      qb.andWhere(
        '(upper(i.internal_name) LIKE upper(:search) OR EXISTS (SELECT 1 FROM jsonb_each_text(i.name) AS n WHERE upper(n.value) LIKE upper(:search)))',
        { search: pattern },
      );
    }
    applyOrdering(qb, filters, { id: 'i.id', position: 'i.position' }, ['position', 'id']);
    return paginateInOne(qb, page, related, present);
  }

  /**
   * One item of the event with `related`, in one statement.
   * @throws NotFound
   */
  async one<R, T>(
    em: EntityManager,
    eventId: number,
    id: number,
    related: RelatedSpec<R>,
    present: (item: Item, related: R) => T,
  ): Promise<T> {
    const qb = em
      .getRepository(Item)
      .createQueryBuilder('i')
      .where('i.id = :id AND i.event_id = :event', { id, event: eventId });
    return findOneInOne(qb, related, present);
  }

  /** The items with these ids (any event; the caller scopes) with `related`, in one statement (change feed). */
  many<R, T>(
    em: EntityManager,
    ids: readonly number[],
    related: RelatedSpec<R>,
    present: (item: Item, related: R) => T,
  ): Promise<T[]> {
    const qb = em.getRepository(Item).createQueryBuilder('i').where('i.id = ANY(:ids)', { ids });
    return findManyInOne(qb, related, present);
  }

  /**
   * `related` of one item (any event; the caller loaded it), in one statement.
   * @throws NotFound
   */
  async relatedOf<R>(em: EntityManager, itemId: number, related: RelatedSpec<R>): Promise<R> {
    const qb = em.getRepository(Item).createQueryBuilder('i').where('i.id = :id', { id: itemId });
    return findOneInOne(qb, related, (_row, r) => r);
  }

  /**
   * The organizer's channel identifiers, as a subquery of the item's statement (`fragment`:
   * `SalesChannelDirectory.identifiersOfEventSql`).
   */
  channelsOfItem(fragment: SqlFragment): Related<string[]> {
    return relatedValue<string[]>(fragment);
  }

  /** The rate (decimal text) of the tax rule of the item aliased `i`, as a subquery of the item's statement. */
  taxRateOfItem(): Related<string | null> {
    return relatedValue<string | null>('SELECT t.rate::text FROM tax_rule t WHERE t.id = i.tax_rule_id');
  }

  /** Whether `id` is an item of the event; share-locks it (`FOR KEY SHARE`); one statement. */
  async itemOfEventForWrite(em: EntityManager, eventId: number, id: number): Promise<boolean> {
    const rows: unknown[] = await em.query(
      'SELECT 1 FROM item WHERE id = $1 AND event_id = $2 FOR KEY SHARE',
      [id, eventId],
    );
    return rows.length > 0;
  }

  /** The rate of tax rule `id` of the event (zero or one row), share-locked (`FOR KEY SHARE`); one statement. */
  async taxRuleRateForWrite(em: EntityManager, eventId: number, id: number): Promise<{ rate: string }[]> {
    return em.query('SELECT rate FROM tax_rule WHERE id = $1 AND event_id = $2 FOR KEY SHARE', [id, eventId]);
  }

  /** Whether `id` is a quota of the event; share-locks it (`FOR KEY SHARE`); one statement. */
  async quotaOfEventForWrite(em: EntityManager, eventId: number, id: number): Promise<boolean> {
    const rows: unknown[] = await em.query(
      'SELECT 1 FROM quota WHERE id = $1 AND event_id = $2 FOR KEY SHARE',
      [id, eventId],
    );
    return rows.length > 0;
  }

  /**
   * Locks item rows `FOR UPDATE` in id order, whatever event they belong to (ids that do not exist are skipped):
   * writes that check a rule spanning two items (bundles) take both locks in one statement, so that two such
   * writes never deadlock.
   */
  async lockItems(em: EntityManager, ids: readonly number[]): Promise<void> {
    const distinct = [...new Set(ids)].sort((a, b) => a - b);
    await em.query('SELECT id FROM item WHERE id = ANY($1) ORDER BY id FOR UPDATE', [distinct]);
  }

  /**
   * Ids among `ids` that are membership types of the organizer (compat §3.6), share-locked (`FOR KEY SHARE`)
   * until the transaction ends so that a concurrent delete of a type waits for this write. One statement, none
   * for no ids.
   */
  async existingMembershipTypes(
    em: EntityManager,
    organizerId: number,
    ids: readonly number[],
  ): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows: { id: number }[] = await em.query(
      'SELECT id FROM membership_type WHERE organizer_id = $1 AND id = ANY($2) ORDER BY id FOR KEY SHARE',
      [organizerId, [...new Set(ids)]],
    );
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** Which of `ids` are items of the event (seat category mappings, compat §3.18). One statement, none for no ids. */
  async eventItemIds(em: EntityManager, eventId: number, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows: { id: number }[] = await em.query(
      'SELECT id FROM item WHERE event_id = $1 AND id = ANY($2::int[])',
      [eventId, ids],
    );
    return new Set(rows.map((r) => r.id));
  }
}
