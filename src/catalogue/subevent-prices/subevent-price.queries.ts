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
  disabled: boolean;
  available_from: Date | null;
  available_until: Date | null;
}

/** One override to store: the item or variation id, its price (null: default) and its availability. */
export interface OverrideWrite {
  ref: number;
  price: string | null;
  disabled: boolean;
  /** UTC ISO 8601 or null. */
  available_from: string | null;
  available_until: string | null;
}

/** The availability of a product on a date as sales read it: keyed `s<date>/i<item>` or `s<date>/v<variation>`. */
export interface OverrideRuleRow {
  key: string;
  price: string | null;
  disabled: boolean;
  available_from: Date | null;
  available_until: Date | null;
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
   * Replaces the item (`kind` 'i') or variation ('v') overrides of a date: deletes them, then inserts `rows`
   * (when not empty); one or two statements.
   */
  async replaceOverrides(
    em: EntityManager,
    kind: 'i' | 'v',
    subeventId: number,
    rows: readonly OverrideWrite[],
  ): Promise<void> {
    const [table, column] =
      kind === 'i' ? ['subevent_item_price', 'item_id'] : ['subevent_variation_price', 'variation_id'];
    await em.query(`DELETE FROM ${table} WHERE subevent_id = $1`, [subeventId]);
    if (rows.length === 0) return;
    await em.query(
      `INSERT INTO ${table} (subevent_id, ${column}, price, disabled, available_from, available_until)
         SELECT $1, k.ref, k.price, k.disabled, k.available_from, k.available_until
           FROM unnest($2::int[], $3::numeric[], $4::boolean[], $5::timestamptz[], $6::timestamptz[])
             AS k(ref, price, disabled, available_from, available_until)`,
      [
        subeventId,
        rows.map((r) => r.ref),
        rows.map((r) => r.price),
        rows.map((r) => r.disabled),
        rows.map((r) => r.available_from),
        rows.map((r) => r.available_until),
      ],
    );
  }

  /** The price overrides of the dates, by kind, date, item/variation id; one statement. */
  async overrides(em: EntityManager, subeventIds: readonly number[]): Promise<PriceOverrideRow[]> {
    return em.query(
      `SELECT 'i' AS kind, subevent_id, item_id AS ref, price, disabled, available_from, available_until
         FROM subevent_item_price WHERE subevent_id = ANY($1)
       UNION ALL
       SELECT 'v', subevent_id, variation_id, price, disabled, available_from, available_until
         FROM subevent_variation_price WHERE subevent_id = ANY($1)
       ORDER BY kind, subevent_id, ref`,
      [[...subeventIds]],
    );
  }

  /**
   * The overrides of the dates that change a sale (a price, `disabled` or a window), keyed `s<subevent>/i<item>`
   * or `s<subevent>/v<variation>`; one statement.
   */
  async overrideRules(em: EntityManager, subeventIds: readonly number[]): Promise<OverrideRuleRow[]> {
    return em.query(
      `SELECT 's' || subevent_id || '/i' || item_id AS key, price, disabled, available_from, available_until
         FROM subevent_item_price
        WHERE subevent_id = ANY($1)
          AND (price IS NOT NULL OR disabled OR available_from IS NOT NULL OR available_until IS NOT NULL)
       UNION ALL
       SELECT 's' || subevent_id || '/v' || variation_id, price, disabled, available_from, available_until
         FROM subevent_variation_price
        WHERE subevent_id = ANY($1)
          AND (price IS NOT NULL OR disabled OR available_from IS NOT NULL OR available_until IS NOT NULL)`,
      [subeventIds],
    );
  }
}
