import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CheckinSeamQueries } from '../checkin-seam/checkin-seam.queries';

const seam = new CheckinSeamQueries();
const lastScanIsExit = (alias: string) => seam.lastScanIsExit(alias);
const hasExitScan = (alias: string) => seam.hasExitScan(alias);

/** The counts of one product, as stored or as recomputed from the rows. */
export interface ProductCounts {
  paid: number;
  pending: number;
  exited: number;
}

/** A product whose stored counts differ from the rows. */
export interface CountDrift {
  event_id: number;
  item_id: number;
  variation_id: number | null;
  subevent_id: number | null;
  stored: ProductCounts;
  actual: ProductCounts;
}

/** What one check found (and repaired, unless it was a dry run). */
export interface QuotaCountReport {
  /** Products with stored counts or counted rows. */
  products: number;
  drift: CountDrift[];
  /** Order positions whose exit state (`order_position.exited`) disagreed with their last successful scan. */
  exitStates: number;
  repaired: boolean;
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

const LAST_SCAN_IS_EXIT = `COALESCE(${lastScanIsExit('p')}, false)`;

const sameProduct = (a: string, b: string) =>
  `${a}.item_id = ${b}.item_id AND ${a}.variation_id IS NOT DISTINCT FROM ${b}.variation_id
   AND ${a}.subevent_id IS NOT DISTINCT FROM ${b}.subevent_id`;

/**
 * The consistency check of the maintained quota counts (issue 7 "Availability from maintained counts"): recomputes
 * every product's paid, pending and exited counts and every position's exit state from the rows and compares them
 * with what the triggers stored (table `product_sales`, `order_position.exited`). The comparison reads one
 * snapshot (REPEATABLE READ), in which counts and rows always agree unless something bypassed the triggers, so
 * sales running meanwhile cause no false reports. A repair then locks only the drifted products' count rows (every
 * writer of those products waits on them) and sets them from the rows as they are at that moment. Used by the CLI
 * command `check-quotas` and by the scheduler (every `QUOTA_CHECK_INTERVAL_MS`).
 */
@Injectable()
export class QuotaCountCheck {
  private readonly logger = new Logger('QuotaCountCheck');

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * @param options `eventId`: only this event (default all); `repair`: fix what differs (default true)
   */
  async run(options: { eventId?: number | null; repair?: boolean } = {}): Promise<QuotaCountReport> {
    const eventId = options.eventId ?? null;
    const repair = options.repair ?? true;
    const found = await this.db.transaction('REPEATABLE READ', async (em) => ({
      exitStates: await this.wrongExitStates(em, eventId),
      ...(await this.compare(em, eventId)),
    }));
    if (repair && found.exitStates.length > 0) await this.repairExitStates(found.exitStates);
    // Exit states repaired move the counts through the triggers: compare again before repairing counts.
    const counts =
      repair && found.exitStates.length > 0
        ? await this.db.transaction('REPEATABLE READ', (em) => this.compare(em, eventId))
        : found;
    if (repair && counts.drift.length > 0) await this.repairCounts(counts.drift);
    const report: QuotaCountReport = {
      products: counts.products,
      drift: counts.drift,
      exitStates: found.exitStates.length,
      repaired: repair && (counts.drift.length > 0 || found.exitStates.length > 0),
    };
    if (report.drift.length > 0 || report.exitStates > 0) {
      this.logger.warn(
        `quota counts drifted: ${report.drift.length} product(s), ${report.exitStates} exit state(s)` +
          `${report.repaired ? ', repaired' : ''}: ${JSON.stringify(report.drift.slice(0, 20))}`,
      );
    }
    return report;
  }

  /** Positions whose stored exit state differs from their last successful scan. */
  private async wrongExitStates(em: EntityManager, eventId: number | null): Promise<number[]> {
    const rows: { id: number }[] = await em.query(
      `SELECT p.id FROM order_position p
        WHERE ($1::int IS NULL OR p.event_id = $1::int)
          AND (p.exited OR ${hasExitScan('p')})
          AND p.exited IS DISTINCT FROM ${LAST_SCAN_IS_EXIT}`,
      [eventId],
    );
    return rows.map((r) => r.id);
  }

  private async repairExitStates(ids: readonly number[]): Promise<void> {
    await this.db.query(`UPDATE order_position p SET exited = ${LAST_SCAN_IS_EXIT} WHERE p.id = ANY($1)`, [
      [...ids],
    ]);
  }

  /** Stored against recomputed counts, in one statement. */
  private async compare(
    em: EntityManager,
    eventId: number | null,
  ): Promise<{ products: number; drift: CountDrift[] }> {
    const rows: (Omit<CountDrift, 'stored' | 'actual'> & {
      stored: ProductCounts | null;
      actual: ProductCounts | null;
    })[] = await em.query(
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
    const zero: ProductCounts = { paid: 0, pending: 0, exited: 0 };
    const drift: CountDrift[] = [];
    for (const row of rows) {
      const stored = row.stored ?? zero;
      const actual = row.actual ?? zero;
      if (
        stored.paid !== actual.paid ||
        stored.pending !== actual.pending ||
        stored.exited !== actual.exited
      ) {
        drift.push({ ...row, stored, actual });
      }
    }
    return { products: rows.length, drift };
  }

  /**
   * Sets the drifted products' counts from the rows: their count rows are created if missing and locked in
   * product order first, so no writer of those products runs in between.
   */
  private async repairCounts(drift: readonly CountDrift[]): Promise<void> {
    const keys = {
      events: drift.map((d) => d.event_id),
      items: drift.map((d) => d.item_id),
      variations: drift.map((d) => d.variation_id),
      subevents: drift.map((d) => d.subevent_id),
    };
    await this.db.transaction(async (em) => {
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
    });
  }
}
