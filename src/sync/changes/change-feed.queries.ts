import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** The sequencer's position (`change_feed_state`), bigints as decimal text. */
export interface SequencerState {
  lastXid: string;
  lastLogEntryId: string;
  lastSequence: string;
}

/** One entry to number: `n` is its 1-based place in the batch (its sequence is `lastSequence + n`). */
export interface FeedEntryInput {
  n: number;
  log_entry_id: string;
  organizer_id: number;
  event_id: number | null;
  resource: string;
  object_id: number;
  key: Record<string, string | number> | null;
  action: string;
  restated: boolean;
  deletes: boolean;
  occurred_at: Date;
}

/** One row of a feed page. */
export interface FeedRow {
  sequence: string;
  log_entry_id: string;
  event_id: number | null;
  resource: string;
  object_id: number;
  key: Record<string, string | number> | null;
  action: string;
  restated: boolean;
  deletes: boolean;
  occurred_at: string;
}

/** Which events' entries of one resource a credential reads: all, or those of `events`. */
export interface ResourceGrant {
  resource: string;
  all_events: boolean;
  events: number[];
}

/** A page of the feed and where the organizer's feed ends, read in one snapshot. */
export interface FeedPageRows {
  rows: FeedRow[];
  /** The organizer's highest sequence (any resource), or null when it has none. */
  head: string | null;
  /** Every entry up to this sequence has been pruned. */
  prunedThrough: string;
}

/** Advisory lock key of the sequencer (one at a time, across replicas): "chgfeed" in ASCII. */
const SEQUENCER_LOCK = 0x6368676665656;

/**
 * The SQL of the change feed's own tables (`change_feed_entry`, `change_feed_state`; issue 27 §1). Stateless;
 * every method runs on the caller's `em`.
 */
@Injectable()
export class ChangeFeedQueries {
  /**
   * Takes the sequencer's transaction-level advisory lock without waiting and reads its position, in one
   * statement. @returns null when another sequencer holds the lock (this one then does nothing)
   */
  async lockState(em: EntityManager): Promise<SequencerState | null> {
    const rows: { locked: boolean; last_xid: string; last_log_entry_id: string; last_sequence: string }[] =
      await em.query(
        `SELECT pg_try_advisory_xact_lock($1::bigint) AS locked, last_xid::text, last_log_entry_id::text,
                last_sequence::text
           FROM change_feed_state WHERE id = 1`,
        [SEQUENCER_LOCK],
      );
    const row = rows[0];
    if (!row?.locked) return null;
    return { lastXid: row.last_xid, lastLogEntryId: row.last_log_entry_id, lastSequence: row.last_sequence };
  }

  /**
   * Numbers `entries` (sequence `state.lastSequence + n`) and moves the position to `(xid, logEntryId)` (the last
   * log entry read, numbered or not), in one statement.
   */
  async append(
    em: EntityManager,
    state: SequencerState,
    entries: readonly FeedEntryInput[],
    to: { xid: string; logEntryId: string },
  ): Promise<void> {
    await em.query(
      `WITH input AS (
              SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(n int, log_entry_id bigint, organizer_id int,
                event_id int, resource text, object_id int, key jsonb, action text, restated boolean,
                deletes boolean, occurred_at timestamptz)),
            ins AS (
              INSERT INTO change_feed_entry (sequence, log_entry_id, organizer_id, event_id, resource, object_id, key,
                                             action, restated, deletes, occurred_at)
              SELECT $2::bigint + r.n, r.log_entry_id, r.organizer_id, r.event_id, r.resource, r.object_id, r.key,
                     r.action, r.restated, r.deletes, r.occurred_at
                FROM input r ORDER BY r.n)
       UPDATE change_feed_state
          SET last_xid = $3::bigint, last_log_entry_id = $4::bigint, last_sequence = $2::bigint + $5::int
        WHERE id = 1`,
      [JSON.stringify(entries), state.lastSequence, to.xid, to.logEntryId, entries.length],
    );
  }

  /**
   * Up to `limit` entries of the organizer after sequence `after`, in sequence order, of the resources and events
   * `grants` allow (optionally only `resources`, only the event `eventId`), with the organizer's head and the
   * pruning mark, in one statement (index `ix_change_feed_entry_organizer_sequence`).
   */
  async page(
    em: EntityManager,
    organizerId: number,
    after: string,
    grants: readonly ResourceGrant[],
    resources: readonly string[] | null,
    eventId: number | null,
    limit: number,
  ): Promise<FeedPageRows> {
    const rows: { rows: FeedRow[]; head: string | null; pruned: string }[] = await em.query(
      `WITH g AS (
              SELECT * FROM jsonb_to_recordset($2::jsonb) AS g(resource text, all_events boolean, events int[])),
            page AS (
              SELECT c.sequence::text AS sequence, c.log_entry_id::text AS log_entry_id, c.event_id, c.resource,
                     c.object_id, c.key, c.action, c.restated, c.deletes, c.occurred_at
                FROM change_feed_entry c
                JOIN g ON g.resource = c.resource AND (g.all_events OR c.event_id = ANY(g.events))
               WHERE c.organizer_id = $1 AND c.sequence > $3::bigint
                 AND ($4::text[] IS NULL OR c.resource = ANY($4::text[]))
                 AND ($5::int IS NULL OR c.event_id = $5::int)
               ORDER BY c.sequence
               LIMIT $6)
       SELECT COALESCE((SELECT json_agg(page ORDER BY page.sequence::bigint) FROM page), '[]'::json) AS rows,
              (SELECT max(sequence)::text FROM change_feed_entry WHERE organizer_id = $1) AS head,
              (SELECT pruned_through::text FROM change_feed_state WHERE id = 1) AS pruned`,
      [organizerId, JSON.stringify(grants), after, resources, eventId, limit],
    );
    return { rows: rows[0].rows, head: rows[0].head, prunedThrough: rows[0].pruned ?? '0' };
  }

  /**
   * Deletes up to `limit` of the oldest entries numbered before `before` (a prefix of the feed: `sequenced_at`
   * does not decrease with the sequence) and raises the pruning mark, in one statement.
   * @returns the number of entries deleted
   */
  async prune(em: EntityManager, before: Date, limit: number): Promise<number> {
    const rows: { n: number }[] = await em.query(
      `WITH oldest AS (SELECT sequence, sequenced_at FROM change_feed_entry ORDER BY sequence LIMIT $2),
            gone AS (
              DELETE FROM change_feed_entry
               WHERE sequence IN (SELECT sequence FROM oldest WHERE sequenced_at < $1)
               RETURNING sequence),
            mark AS (
              UPDATE change_feed_state
                 SET pruned_through = GREATEST(pruned_through, (SELECT max(sequence) FROM gone))
               WHERE id = 1 AND EXISTS (SELECT 1 FROM gone))
       SELECT count(*)::int AS n FROM gone`,
      [before, limit],
    );
    return rows[0]?.n ?? 0;
  }
}
