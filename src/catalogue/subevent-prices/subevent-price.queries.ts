import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A catalogue row a price override refers to (item or variation) with its (item's) event. */
export interface OverrideTargetRow {
  id: number;
  event_id: number;
}

/** One price override of a date: of an item (`kind` 'i') or a variation ('v'); `price` null = default price. */
export interface PriceOverrideRow {
  kind: 'i' | 'v';
  subevent_id: number;
  ref: number;
  price: string | null;
}

/**
 * The SQL of the price overrides of dates (`subevent_item_price`, `subevent_variation_price`; compat §3.17).
 * Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class SubEventPriceQueries {
  /** Items by id (any event) with their event; one statement. */
  async itemEvents(em: EntityManager, ids: readonly number[]): Promise<OverrideTargetRow[]> {
    return em.query('SELECT id, event_id FROM item WHERE id = ANY($1)', [ids]);
  }

  /** Variations by id (any event) with their item's event; one statement. */
  async variationEvents(em: EntityManager, ids: readonly number[]): Promise<OverrideTargetRow[]> {
    return em.query(
      'SELECT v.id, i.event_id FROM item_variation v JOIN item i ON i.id = v.item_id WHERE v.id = ANY($1)',
      [ids],
    );
  }

  /**
   * Replaces the item price overrides of a date: deletes them, then (when `itemIds` is not empty) inserts
   * `itemIds[i]` at `prices[i]` (money strings or null); one or two statements.
   */
  async replaceItemPrices(
    em: EntityManager,
    subeventId: number,
    itemIds: readonly number[],
    prices: readonly (string | null)[],
  ): Promise<void> {
    await em.query('DELETE FROM subevent_item_price WHERE subevent_id = $1', [subeventId]);
    if (itemIds.length > 0) {
      await em.query(
        `INSERT INTO subevent_item_price (subevent_id, item_id, price)
           SELECT $1, k.item_id, k.price FROM unnest($2::int[], $3::numeric[]) AS k(item_id, price)`,
        [subeventId, itemIds, prices],
      );
    }
  }

  /** {@link replaceItemPrices} for the variation price overrides of a date; one or two statements. */
  async replaceVariationPrices(
    em: EntityManager,
    subeventId: number,
    variationIds: readonly number[],
    prices: readonly (string | null)[],
  ): Promise<void> {
    await em.query('DELETE FROM subevent_variation_price WHERE subevent_id = $1', [subeventId]);
    if (variationIds.length > 0) {
      await em.query(
        `INSERT INTO subevent_variation_price (subevent_id, variation_id, price)
           SELECT $1, k.variation_id, k.price FROM unnest($2::int[], $3::numeric[]) AS k(variation_id, price)`,
        [subeventId, variationIds, prices],
      );
    }
  }

  /** The price overrides of the dates, by kind, date, item/variation id; one statement. */
  async overrides(em: EntityManager, subeventIds: readonly number[]): Promise<PriceOverrideRow[]> {
    return em.query(
      `SELECT 'i' AS kind, subevent_id, item_id AS ref, price FROM subevent_item_price WHERE subevent_id = ANY($1)
       UNION ALL
       SELECT 'v', subevent_id, variation_id, price FROM subevent_variation_price WHERE subevent_id = ANY($1)
       ORDER BY kind, subevent_id, ref`,
      [[...subeventIds]],
    );
  }

  /** Non-null override prices of the dates keyed `s<subevent>/i<item>` or `s<subevent>/v<variation>`; one statement. */
  async overridePrices(em: EntityManager, subeventIds: readonly number[]): Promise<{ key: string; price: string }[]> {
    return em.query(
      `SELECT 's' || subevent_id || '/i' || item_id AS key, price FROM subevent_item_price
        WHERE subevent_id = ANY($1) AND price IS NOT NULL
       UNION ALL
       SELECT 's' || subevent_id || '/v' || variation_id, price FROM subevent_variation_price
        WHERE subevent_id = ANY($1) AND price IS NOT NULL`,
      [subeventIds],
    );
  }
}
