import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { findManyInOne, findOneInOne, paginateInOne, RelatedSpec, relatedValue } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { Discount } from './discount.entity';
import type { DiscountProducts } from './discount.presenter';

/** One product of a discount: a condition (`kind` 'condition') or benefit ('benefit') item. */
export interface DiscountProductRow {
  kind: 'condition' | 'benefit';
  discount_id: number;
  item_id: number;
}

/**
 * Condition and benefit item ids of discount `d`, ascending, as subqueries of its own statement (style.md "Data
 * access").
 */
const DISCOUNT_PRODUCTS: RelatedSpec<DiscountProducts> = {
  condition: relatedValue<number[]>(
    "SELECT coalesce(array_agg(c.item_id ORDER BY c.item_id), '{}') FROM discount_condition_item c WHERE c.discount_id = d.id",
  ),
  benefit: relatedValue<number[]>(
    "SELECT coalesce(array_agg(b.item_id ORDER BY b.item_id), '{}') FROM discount_benefit_item b WHERE b.discount_id = d.id",
  ),
};

/**
 * The SQL of the catalogue's `discount`, `discount_condition_item` and `discount_benefit_item` tables (compat
 * §3.25): list and detail pages with their product lists, the product lists, the reference check. Stateless;
 * every method runs on the caller's `em`.
 */
@Injectable()
export class DiscountQueries {
  /**
   * One page of the event's discounts with their product lists, in one statement, presented by `present`.
   * Filter `active`; ordering `id`, `position` (default `position,id`).
   * @throws ValidationFailed on a malformed filter; NotFound "Invalid page."
   */
  async page<T>(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (discount: Discount, products: DiscountProducts) => T,
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(Discount)
      .createQueryBuilder('d')
      .where('d.event_id = :event', { event: eventId });
    const active = filters.bool('active');
    if (active !== undefined) qb.andWhere('d.active = :active', { active });
    applyOrdering(qb, filters, { id: 'd.id', position: 'd.position' }, ['position', 'id']);
    return paginateInOne(qb, page, DISCOUNT_PRODUCTS, present);
  }

  /** The discounts with these ids (any event; the caller scopes) with their products, in one statement. */
  many<T>(
    em: EntityManager,
    ids: readonly number[],
    present: (discount: Discount, products: DiscountProducts) => T,
  ): Promise<T[]> {
    const qb = em.getRepository(Discount).createQueryBuilder('d').where('d.id = ANY(:ids)', { ids });
    return findManyInOne(qb, DISCOUNT_PRODUCTS, present);
  }

  /**
   * One discount of the event with its product lists, in one statement.
   * @throws NotFound
   */
  async one<T>(
    em: EntityManager,
    eventId: number,
    id: number,
    present: (discount: Discount, products: DiscountProducts) => T,
  ): Promise<T> {
    const qb = em
      .getRepository(Discount)
      .createQueryBuilder('d')
      .where('d.id = :id AND d.event_id = :event', { id, event: eventId });
    return findOneInOne(qb, DISCOUNT_PRODUCTS, present);
  }

  /** The condition and benefit items of the discounts, by item id; one statement. */
  async productRows(em: EntityManager, ids: readonly number[]): Promise<DiscountProductRow[]> {
    return em.query(
      `SELECT 'condition' AS kind, discount_id, item_id FROM discount_condition_item WHERE discount_id = ANY($1)
       UNION ALL
       SELECT 'benefit' AS kind, discount_id, item_id FROM discount_benefit_item WHERE discount_id = ANY($1)
       ORDER BY item_id`,
      [ids],
    );
  }

  /**
   * Replaces the rows of both join tables of a discount: per table a DELETE, then an INSERT of the ids when there
   * are any (two to four statements).
   */
  async writeProducts(
    em: EntityManager,
    discountId: number,
    conditionItemIds: readonly number[],
    benefitItemIds: readonly number[],
  ): Promise<void> {
    for (const [table, ids] of [
      ['discount_condition_item', conditionItemIds],
      ['discount_benefit_item', benefitItemIds],
    ] as const) {
      await em.query(`DELETE FROM ${table} WHERE discount_id = $1`, [discountId]);
      if (ids.length > 0) {
        await em.query(`INSERT INTO ${table} (discount_id, item_id) SELECT $1, unnest($2::int[])`, [
          discountId,
          ids,
        ]);
      }
    }
  }

  /** The ids among `ids` that are items of the event, share-locked (`FOR KEY SHARE`, id order); one statement. */
  async itemsOfEventForWrite(em: EntityManager, eventId: number, ids: readonly number[]): Promise<{ id: number }[]> {
    return em.query('SELECT id FROM item WHERE event_id = $1 AND id = ANY($2) ORDER BY id FOR KEY SHARE', [
      eventId,
      ids,
    ]);
  }
}
