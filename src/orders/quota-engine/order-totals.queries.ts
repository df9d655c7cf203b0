import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlFragment, sqlFragment } from '../../common/persistence/sql-fragment';
import { ORDER_TOTAL_STRIPES } from './order-totals.entity';

/** An event's order totals of one status, as stored (summed stripes) and as recomputed from the orders. */
export interface OrderTotalsRow {
  event_id: number;
  status: string;
  stored_count: number;
  stored_total: string;
  actual_count: number;
  actual_total: string;
}

/** The totals every event and status should have, from the orders (the definition the trigger maintains). */
const ACTUAL = `SELECT event_id, status, COUNT(*)::int AS count, SUM(total) AS total
    FROM orders WHERE $1::int IS NULL OR event_id = $1::int GROUP BY event_id, status`;

/**
 * The SQL of the maintained order totals (`order_totals`, migration `LiveFigureCounters`): the fragment the live
 * figures read, and the statements of their check. Stateless; each method runs on the caller's EntityManager.
 */
@Injectable()
export class OrderTotalsQueries {
  /**
   * Fragment: a SELECT of the event's totals by status, rows `(status text, count int, total text)` (the sum of
   * the orders' `total` as numeric text with two decimals); statuses without orders are absent. `eventId` is an
   * `int` expression of the caller's statement. Reads at most 4 × stripes rows through the primary key.
   */
  static byEvent(eventId: string): SqlFragment {
    return sqlFragment(`SELECT status::text AS status, SUM(count)::int AS count, SUM(total)::numeric(15,2)::text AS total
           FROM order_totals WHERE event_id = ${eventId} GROUP BY status HAVING SUM(count) <> 0`);
  }

  /** Stored against recomputed totals (of `eventId`, or all) where they differ; one statement, no lock. */
  drift(em: EntityManager, eventId: number | null): Promise<OrderTotalsRow[]> {
    return em.query(
      `WITH actual AS (${ACTUAL}),
            stored AS (SELECT event_id, status, SUM(count)::int AS count, SUM(total) AS total FROM order_totals
                        WHERE $1::int IS NULL OR event_id = $1::int GROUP BY event_id, status)
       SELECT COALESCE(a.event_id, s.event_id) AS event_id, COALESCE(a.status, s.status) AS status,
              COALESCE(s.count, 0) AS stored_count, COALESCE(s.total, 0)::numeric(15,2)::text AS stored_total,
              COALESCE(a.count, 0) AS actual_count, COALESCE(a.total, 0)::numeric(15,2)::text AS actual_total
         FROM actual a FULL JOIN stored s ON s.event_id = a.event_id AND s.status = a.status
        WHERE COALESCE(s.count, 0) <> COALESCE(a.count, 0) OR COALESCE(s.total, 0) <> COALESCE(a.total, 0)`,
      [eventId],
    );
  }

  /**
   * Sets the totals of `eventIds` from the orders as they are now, in the caller's transaction: every stripe of
   * those events is created and locked first (in key order, as the trigger upserts), so no writer of their
   * orders runs in between; then stripe 0 gets the recount and the others zero. Three statements.
   */
  async repair(em: EntityManager, eventIds: readonly number[]): Promise<void> {
    const ids = [...new Set(eventIds)].sort((a, b) => a - b);
    await em.query(
      `INSERT INTO order_totals (event_id, status, slot)
         SELECT e, s, g FROM unnest($1::int[]) e, unnest(ARRAY['c', 'e', 'n', 'p']) s,
                generate_series(0, ${ORDER_TOTAL_STRIPES - 1}) g
          ORDER BY 1, 2, 3
         ON CONFLICT DO NOTHING`,
      [ids],
    );
    await em.query(
      `SELECT 1 FROM order_totals WHERE event_id = ANY($1::int[]) ORDER BY event_id, status, slot FOR UPDATE`,
      [ids],
    );
    await em.query(
      `WITH actual AS (SELECT event_id, status, COUNT(*)::int AS count, SUM(total) AS total FROM orders
                        WHERE event_id = ANY($1::int[]) GROUP BY event_id, status)
       UPDATE order_totals t
          SET count = CASE WHEN t.slot = 0 THEN COALESCE(a.count, 0) ELSE 0 END,
              total = CASE WHEN t.slot = 0 THEN COALESCE(a.total, 0) ELSE 0 END
         FROM order_totals k
         LEFT JOIN actual a ON a.event_id = k.event_id AND a.status = k.status
        WHERE k.event_id = ANY($1::int[]) AND t.event_id = k.event_id AND t.status = k.status AND t.slot = k.slot`,
      [ids],
    );
  }
}
