import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The change feed (issue 27 §1): one row per audit log entry that changed a resource, numbered by the sequencer
 * (`ChangeSequencer`) in the order `(xid, id)` of the settled log, so `sequence` grows in commit order and a
 * reader that remembers the last sequence it saw never misses a later-committed change. Kept
 * `CHANGE_FEED_RETENTION_DAYS` (by `sequenced_at`); no foreign keys (the log and the objects are other contexts').
 */
@Entity('change_feed_entry')
@Index('ix_change_feed_entry_organizer_sequence', ['organizerId', 'sequence'])
@Index('ux_change_feed_entry_log_entry', ['logEntryId', 'resource'], { unique: true })
export class ChangeFeedEntry {
  /** Position in the feed: 1, 2, 3, … without gaps at the time of numbering (pruning removes a prefix). */
  @PrimaryColumn({ type: 'bigint' })
  sequence!: string;

  /** The audit log entry (`log_entry.id`); the change's `id` is derived from it. */
  @Column({ type: 'bigint' })
  logEntryId!: string;

  @Column({ type: 'int' })
  organizerId!: number;

  /** The event of an event-scoped resource (for `event`: itself); null for organizer-scoped ones. */
  @Column({ type: 'int', nullable: true })
  eventId!: number | null;

  /** Resource name (`order`, `item`, …; src/sync/change-resources.ts). */
  @Column({ type: 'varchar', length: 40 })
  resource!: string;

  /** Database id of the changed object. */
  @Column({ type: 'int' })
  objectId!: number;

  /** The object's key when known at numbering time (`{"code": "ABC12"}`), else null (taken from its data). */
  @Column({ type: 'jsonb', nullable: true })
  key!: Record<string, string | number> | null;

  /** The audit action (`pretix.event.order.placed`). */
  @Column({ type: 'varchar', length: 100 })
  action!: string;

  /**
   * True for a restatement: the entry of another resource whose answer the same change altered (the order of a
   * check-in, whose positions show their check-ins); its id is `chg_<log entry id>.<resource>`.
   */
  @Column({ type: 'boolean', default: false })
  restated!: boolean;

  /** True when the action deleted the object. */
  @Column({ type: 'boolean', default: false })
  deletes!: boolean;

  /** When the change happened (the log entry's time: its transaction's start). */
  @Column({ type: 'timestamptz' })
  occurredAt!: Date;

  /** When the sequencer numbered it (non-decreasing in `sequence`): what retention counts from. */
  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  sequencedAt!: Date;
}
