import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChangeSourceQueries, SettledEntryRow } from '../../audit/change-source.queries';
import { Periodic } from '../../common/contributions';
import { AppConfig } from '../../config/app-config';
import { changeTargetOf, ChangeKey } from '../change-resources';
import { ChangeFeedQueries, FeedEntryInput } from './change-feed.queries';

/** Log entries one sequencer round reads at most. */
export const SEQUENCER_BATCH = 5000;

/** Entries one pruning round deletes at most (the worker runs rounds until none is left, up to 20 per tick). */
const PRUNE_BATCH = 10000;

/**
 * Numbers the change feed (issue 27 §1; architecture.md "Change feed order"). Why a sequencer and not a cursor
 * over `log_entry` itself: ids from a sequence are not commit order, and `(xid, id)` is commit-safe only below the
 * oldest running transaction, which is a property of the moment of reading, not of the row. The sequencer turns it
 * into a plain, dense, monotonic `sequence` once: under a transaction-level advisory lock (one sequencer at a time
 * across replicas; a second one skips instead of waiting) it reads the log entries after its position in
 * `(xid, id)` order whose `xid` is below `pg_snapshot_xmin(pg_current_snapshot())` (every transaction below it has
 * ended, so no entry can later appear before them), maps each to its resource (src/sync/change-resources.ts),
 * numbers them `last + 1, last + 2, ...` and moves its position, in one transaction. Readers then page by
 * `sequence` alone (one index range, a plain integer cursor, permission filters in SQL on the feed's own columns)
 * and never see a later number before an earlier one, since numbers are committed in order.
 *
 * Run by every feed read before it reads (so a change is in the feed as soon as its transaction and all older
 * ones have ended) and by the worker's tick (`sync.sequence-changes`). A long-running transaction holds the
 * watermark back: entries of later transactions wait until it ends (by design: that is what makes it gap-free);
 * `idle in transaction` sessions should be bounded by `idle_in_transaction_session_timeout`.
 */
@Injectable()
export class ChangeSequencer {
  private readonly logger = new Logger('ChangeFeed');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly source: ChangeSourceQueries,
    private readonly queries: ChangeFeedQueries,
    private readonly config: AppConfig,
  ) {}

  /**
   * One round: numbers up to `limit` settled log entries. Four statements at most (lock and position, the log
   * entries, the numbered rows with the new position; BEGIN/COMMIT).
   * @returns the number of log entries read (0: nothing new, or another sequencer is at work)
   */
  async round(limit = SEQUENCER_BATCH): Promise<number> {
    return this.db.transaction(async (em) => {
      const state = await this.queries.lockState(em);
      if (!state) return 0;
      const entries = await this.source.settledAfter(em, state.lastXid, state.lastLogEntryId, limit);
      if (entries.length === 0) return 0;
      const last = entries[entries.length - 1];
      await this.queries.append(em, state, toFeedEntries(entries), { xid: last.xid, logEntryId: last.id });
      return entries.length;
    });
  }

  /** The worker's tick: rounds until the settled log is numbered (at most 20 rounds). @returns entries read */
  @Periodic('sync.sequence-changes')
  async catchUp(): Promise<number> {
    let total = 0;
    for (let i = 0; i < 20; i++) {
      const n = await this.round();
      total += n;
      if (n < SEQUENCER_BATCH) break;
    }
    return total;
  }

  /**
   * The worker's tick: deletes feed entries numbered more than `CHANGE_FEED_RETENTION_DAYS` ago (the audit log
   * stays); a cursor before them then answers 410. @returns entries deleted
   */
  @Periodic('sync.prune-changes')
  async prune(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.config.changeFeedRetentionDays * 86_400_000);
    let total = 0;
    for (let i = 0; i < 20; i++) {
      const n = await this.queries.prune(this.db.manager, before, PRUNE_BATCH);
      total += n;
      if (n < PRUNE_BATCH) break;
    }
    if (total > 0) this.logger.log(`pruned ${total} change feed entries`);
    return total;
  }
}

/**
 * The feed rows of a batch of log entries, numbered 1, 2, ... in log order; entries outside the feed are left
 * out. A check-in (logged on its order) gives two rows: the `checkin`, and the `order` restated (its answer shows
 * the check-ins of its positions; id `chg_<n>.order`). A key the entry does not tell is taken from a deletion of the same object later in the batch (a deleted
 * order's code), else left to the reader (who takes it from the object's data).
 */
export function toFeedEntries(entries: readonly SettledEntryRow[]): FeedEntryInput[] {
  const out: FeedEntryInput[] = [];
  const keys = new Map<string, ChangeKey>();
  for (const e of entries) {
    const target = changeTargetOf({
      contentType: e.content_type,
      objectId: e.object_id,
      actionType: e.action_type,
      eventId: e.event_id,
      data: e.data,
    });
    if (!target) continue;
    if (target.key) keys.set(`${target.resource}:${target.objectId}`, target.key);
    const row = {
      log_entry_id: e.id,
      organizer_id: e.organizer_id,
      event_id: target.eventId,
      action: e.action_type,
      occurred_at: e.datetime,
    };
    out.push({
      ...row,
      n: out.length + 1,
      resource: target.resource,
      object_id: target.objectId,
      key: target.key,
      restated: false,
      deletes: target.deletes,
    });
    // A check-in also changes its order's answer (positions show their check-ins): the order is restated.
    if (target.resource !== 'order' && e.content_type === 'order' && e.object_id !== null) {
      out.push({
        ...row,
        n: out.length + 1,
        resource: 'order',
        object_id: e.object_id,
        key: null,
        restated: true,
        deletes: false,
      });
    }
  }
  for (const row of out) row.key ??= keys.get(`${row.resource}:${row.object_id}`) ?? null;
  return out;
}
