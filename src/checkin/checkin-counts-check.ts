import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Periodic } from '../common/contributions';
import { CheckinCountsQueries, CheckinCountsRow } from './checkin-counts.queries';

/** What one check found (and repaired, unless it was a dry run). */
export interface CheckinCountsReport {
  /** Lists whose maintained counts differed from their scans. */
  drift: CheckinCountsRow[];
  repaired: boolean;
}

/**
 * The consistency check of the maintained check-in list counts of the live figures (`checkin_list_counts`,
 * migration `LiveFigureCounters`): recomputes every list's checked-in and inside positions from its successful
 * scans and compares them with the stored stripes in one snapshot (REPEATABLE READ, where they agree unless
 * something bypassed the trigger); a repair locks the drifted lists' stripes and sets them from the scans as
 * they are then. Run by the scheduler's `quota-check` job beside the quota count check (every
 * `QUOTA_CHECK_INTERVAL_MS`).
 */
@Injectable()
export class CheckinCountsCheck {
  private readonly logger = new Logger('CheckinCountsCheck');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queries: CheckinCountsQueries,
  ) {}

  /** @param options `eventId`: only this event (default all); `repair`: fix what differs (default true) */
  async run(options: { eventId?: number | null; repair?: boolean } = {}): Promise<CheckinCountsReport> {
    const repair = options.repair ?? true;
    const drift = await this.db.transaction('REPEATABLE READ', (em) =>
      this.queries.drift(em, options.eventId ?? null),
    );
    if (repair && drift.length > 0) {
      await this.db.transaction((em) =>
        this.queries.repair(
          em,
          drift.map((d) => d.list_id),
        ),
      );
      this.logger.warn(`check-in list counts drifted, repaired: ${JSON.stringify(drift.slice(0, 20))}`);
    }
    return { drift, repaired: repair && drift.length > 0 };
  }

  /** Checks every list and repairs the wrong ones (the scheduler's `quota-check` job). */
  @Periodic('checkin.counts-check')
  repairAll(): Promise<CheckinCountsReport> {
    return this.run({ repair: true });
  }
}
