import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { OrderTotalsQueries, OrderTotalsRow } from './order-totals.queries';
import { ProductCounts, QuotaEngineQueries } from './quota-engine.queries';

export type { ProductCounts } from './quota-engine.queries';

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
  /** Events and statuses whose maintained order totals (`order_totals`, the live figures) differed. */
  orderTotals: OrderTotalsRow[];
  repaired: boolean;
}

/**
 * The consistency check of the maintained quota counts (architecture.md "Concurrency": the maintained per-product
 * sales counts): recomputes every product's paid, pending and exited counts and every position's exit state from
 * the rows ({@link QuotaEngineQueries}) and compares them with what the triggers stored (table `product_sales`, `order_position.exited`). The comparison reads one
 * snapshot (REPEATABLE READ), in which counts and rows always agree unless something bypassed the triggers, so
 * sales running meanwhile cause no false reports. A repair then locks only the drifted products' count rows (every
 * writer of those products waits on them) and sets them from the rows as they are at that moment. Used by the CLI
 * command `check-quotas` and by the scheduler (every `QUOTA_CHECK_INTERVAL_MS`). The same check covers the event
 * order totals of the live figures (`order_totals`, {@link OrderTotalsQueries}): compared in the same snapshot,
 * repaired under the locks of all their stripes.
 */
@Injectable()
export class QuotaCountCheck {
  private readonly logger = new Logger('QuotaCountCheck');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queries: QuotaEngineQueries,
    private readonly totals: OrderTotalsQueries,
  ) {}

  /**
   * @param options `eventId`: only this event (default all); `repair`: fix what differs (default true)
   */
  async run(options: { eventId?: number | null; repair?: boolean } = {}): Promise<QuotaCountReport> {
    const eventId = options.eventId ?? null;
    const repair = options.repair ?? true;
    const found = await this.db.transaction('REPEATABLE READ', async (em) => ({
      exitStates: await this.wrongExitStates(em, eventId),
      orderTotals: await this.totals.drift(em, eventId),
      ...(await this.compare(em, eventId)),
    }));
    if (repair && found.orderTotals.length > 0) {
      await this.db.transaction((em) => this.totals.repair(em, found.orderTotals.map((t) => t.event_id)));
    }
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
      orderTotals: found.orderTotals,
      repaired:
        repair && (counts.drift.length > 0 || found.exitStates.length > 0 || found.orderTotals.length > 0),
    };
    if (report.drift.length > 0 || report.exitStates > 0 || report.orderTotals.length > 0) {
      this.logger.warn(
        `quota counts drifted: ${report.drift.length} product(s), ${report.exitStates} exit state(s), ` +
          `${report.orderTotals.length} order total(s)` +
          `${report.repaired ? ', repaired' : ''}: ${JSON.stringify(report.drift.slice(0, 20))}`,
      );
    }
    return report;
  }

  /** Positions whose stored exit state differs from their last successful scan. */
  private wrongExitStates(em: EntityManager, eventId: number | null): Promise<number[]> {
    return this.queries.wrongExitStates(em, eventId);
  }

  private async repairExitStates(ids: readonly number[]): Promise<void> {
    await this.queries.repairExitStates(this.db.manager, ids);
  }

  /** Stored against recomputed counts, in one statement. */
  private async compare(
    em: EntityManager,
    eventId: number | null,
  ): Promise<{ products: number; drift: CountDrift[] }> {
    const rows = await this.queries.productCounts(em, eventId);
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
      await this.queries.lockCountRows(em, keys);
      await this.queries.setCountsFromRows(em, keys);
    });
  }
}
