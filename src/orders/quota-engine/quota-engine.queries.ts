import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CheckinSeamQueries } from '../checkin-seam/checkin-seam.queries';

/** The counts of one product, as stored or as recomputed from the rows. */
export interface ProductCounts {
  paid: number;
  pending: number;
  exited: number;
}

/** A product's stored and recomputed counts (null: no count row, or no counted rows). */
export interface ProductCountsRow {
  event_id: number;
  item_id: number;
  variation_id: number | null;
  subevent_id: number | null;
  stored: ProductCounts | null;
  actual: ProductCounts | null;
}

/** The product keys of count rows to repair, in parallel arrays. */
export interface ProductKeys {
  events: number[];
  items: number[];
  variations: (number | null)[];
  subevents: (number | null)[];
}

/** The counts every product should have, from the rows (the definition the triggers maintain). */
const ACTUAL = `
  SELECT p.event_id, p.item_id, p.variation_id, p.subevent_id,
         COUNT(*) FILTER (WHERE o.status = 'p')::int AS paid,
         COUNT(*) FILTER (WHERE o.status = 'n')::int AS pending,
         COUNT(*) FILTER (WHERE o.status = 'p' AND p.exited)::int AS exited
    FROM order_position p JOIN orders o ON o.id = p.order_id
   WHERE NOT p.canceled AND o.status IN ('n', 'p') AND ($1::int IS NULL OR p.event_id = $1::int)
   GROUP BY p.event_id, p.item_id, p.variation_id, p.subevent_id`;

const seam = new CheckinSeamQueries();

const LAST_SCAN_IS_EXIT = `COALESCE(${seam.lastScanIsExit('p')}, false)`;

const sameProduct = (a: string, b: string) =>
  `${a}.item_id = ${b}.item_id AND ${a}.variation_id IS NOT DISTINCT FROM ${b}.variation_id
   AND ${a}.subevent_id IS NOT DISTINCT FROM ${b}.subevent_id`;

/**
 * The statements of the quota engine's count check (architecture.md "Concurrency": the maintained per-product
 * sales counts, table `product_sales`, and the exit states `order_position.exited`). Stateless; each method runs
 * on the caller's EntityManager.
 */
@Injectable()
export class QuotaEngineQueries {
  /**
   * Positions (of `eventId`, or all) whose stored exit state differs from their last successful scan (the check-in
   * seam's fragments); one statement, no lock.
   */
  async wrongExitStates(em: EntityManager, eventId: number | null): Promise<number[]> {
    const rows: { id: number }[] = await em.query(
      `SELECT p.id FROM order_position p
        WHERE ($1::int IS NULL OR p.event_id = $1::int)
          AND (p.exited OR ${seam.hasExitScan('p')})
          AND p.exited IS DISTINCT FROM ${LAST_SCAN_IS_EXIT}`,
      [eventId],
    );
    return rows.map((r) => r.id);
  }

  /** Sets the exit state of positions `ids` from their last successful scan (one statement; row locks). */
  async repairExitStates(em: EntityManager, ids: readonly number[]): Promise<void> {
    await em.query(`UPDATE order_position p SET exited = ${LAST_SCAN_IS_EXIT} WHERE p.id = ANY($1)`, [
      [...ids],
    ]);
  }

  /** Stored against recomputed counts of every product (of `eventId`, or all), in one statement; no lock. */
  productCounts(em: EntityManager, eventId: number | null): Promise<ProductCountsRow[]> {
    return em.query(
      `WITH actual AS (${ACTUAL}),
            stored AS (SELECT * FROM product_sales WHERE $1::int IS NULL OR event_id = $1::int)
       SELECT COALESCE(a.event_id, s.event_id) AS event_id, COALESCE(a.item_id, s.item_id) AS item_id,
              COALESCE(a.variation_id, s.variation_id) AS variation_id,
              COALESCE(a.subevent_id, s.subevent_id) AS subevent_id,
              CASE WHEN s.id IS NULL THEN NULL
                   ELSE jsonb_build_object('paid', s.paid, 'pending', s.pending, 'exited', s.exited) END AS stored,
              CASE WHEN a.item_id IS NULL THEN NULL
                   ELSE jsonb_build_object('paid', a.paid, 'pending', a.pending, 'exited', a.exited) END AS actual
         FROM actual a FULL JOIN stored s ON ${sameProduct('a', 's')}`,
      [eventId],
    );
  }

  /**
   * Creates the missing count rows of the products `keys`, then locks them all in product order (`FOR UPDATE`);
   * two statements, for the caller's transaction.
   */
  async lockCountRows(em: EntityManager, keys: ProductKeys): Promise<void> {
    await em.query(
      `INSERT INTO product_sales (event_id, item_id, variation_id, subevent_id)
         SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::int[])
             AS k(event_id, item_id, variation_id, subevent_id)
          ORDER BY item_id, COALESCE(variation_id, 0), COALESCE(subevent_id, 0)
         ON CONFLICT (item_id, (COALESCE(variation_id, 0)), (COALESCE(subevent_id, 0))) DO NOTHING`,
      [keys.events, keys.items, keys.variations, keys.subevents],
    );
    await em.query(
      `SELECT ps.id FROM product_sales ps
           JOIN unnest($1::int[], $2::int[], $3::int[]) AS k(item_id, variation_id, subevent_id)
             ON ${sameProduct('ps', 'k')}
          ORDER BY ps.item_id, COALESCE(ps.variation_id, 0), COALESCE(ps.subevent_id, 0)
            FOR UPDATE OF ps`,
      [keys.items, keys.variations, keys.subevents],
    );
  }

  /** Sets the count rows of the products `keys` from the rows as they are now (one statement; row locks). */
  async setCountsFromRows(em: EntityManager, keys: ProductKeys): Promise<void> {
    await em.query(
      `UPDATE product_sales ps
            SET paid = COALESCE(a.paid, 0), pending = COALESCE(a.pending, 0), exited = COALESCE(a.exited, 0)
           FROM unnest($1::int[], $2::int[], $3::int[]) AS k(item_id, variation_id, subevent_id)
           LEFT JOIN LATERAL (
             SELECT COUNT(*) FILTER (WHERE o.status = 'p')::int AS paid,
                    COUNT(*) FILTER (WHERE o.status = 'n')::int AS pending,
                    COUNT(*) FILTER (WHERE o.status = 'p' AND p.exited)::int AS exited
               FROM order_position p JOIN orders o ON o.id = p.order_id
              WHERE NOT p.canceled AND o.status IN ('n', 'p') AND ${sameProduct('p', 'k')}
           ) a ON true
          WHERE ${sameProduct('ps', 'k')}`,
      [keys.items, keys.variations, keys.subevents],
    );
  }
}
