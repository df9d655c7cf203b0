import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The sequencer's one row (`id = 1`): where in the audit log's `(xid, id)` order it has numbered up to, the last
 * sequence given, and the last sequence pruned (a cursor below it has lost entries: 410).
 */
@Entity('change_feed_state')
export class ChangeFeedState {
  @PrimaryColumn({ type: 'smallint' })
  id!: number;

  /** `xid` of the last numbered log entry (0 before the first). */
  @Column({ type: 'bigint', default: 0 })
  lastXid!: string;

  /** `id` of the last numbered log entry (0 before the first). */
  @Column({ type: 'bigint', default: 0 })
  lastLogEntryId!: string;

  /** The last sequence given (0 before the first). */
  @Column({ type: 'bigint', default: 0 })
  lastSequence!: string;

  /** Every entry with a sequence up to this one has been pruned (0: none). */
  @Column({ type: 'bigint', default: 0 })
  prunedThrough!: string;
}
