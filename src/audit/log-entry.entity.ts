import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The audit log: one row per mutation, with pretix's action names (compat §5). It is the single source that
 * `Last-Modified` (compat §1.7) and, later, webhooks read.
 */
@Entity('log_entry')
@Index('ix_log_entry_event_type_time', ['eventId', 'contentType', 'datetime'])
@Index('ix_log_entry_object', ['contentType', 'objectId'])
@Index('ix_log_entry_xid', ['xid', 'id'])
export class LogEntry {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Index()
  @Column({ type: 'int' })
  organizerId!: number;

  @Column({ type: 'int', nullable: true })
  eventId!: number | null;

  /** Kind of object (`item`, `team`, `quota`, ...). */
  @Column({ type: 'varchar', length: 50 })
  contentType!: string;

  @Column({ type: 'int', nullable: true })
  objectId!: number | null;

  @Column({ type: 'varchar', length: 100 })
  actionType!: string;

  @Column({ type: 'jsonb', default: {} })
  data!: Record<string, unknown>;

  @Column({ type: 'int', nullable: true })
  userId!: number | null;

  @Column({ type: 'int', nullable: true })
  apiTokenId!: number | null;

  /**
   * The device that wrote the entry (its database id; pretix `LogEntry.device`), or null. No foreign key: devices
   * sit above the audit context.
   */
  @Column({ type: 'int', nullable: true })
  deviceId!: number | null;

  /**
   * The OAuth application through which `userId` acted (its database id), or null. No foreign key: OAuth sits
   * above the audit context.
   */
  @Column({ type: 'int', nullable: true })
  oauthApplicationId!: number | null;

  /**
   * What an update changed, `{"<column>": {"old": …, "new": …}}`, filled by the `log_entry_changes` trigger from
   * the rows the transaction updated (migrations/…-AuditLogApi.ts); null when nothing was recorded.
   */
  @Column({ type: 'jsonb', nullable: true })
  changes!: Record<string, { old: unknown; new: unknown }> | null;

  @CreateDateColumn({ type: 'timestamptz' })
  datetime!: Date;

  /**
   * The writing transaction's id (`pg_current_xact_id()`, as bigint; set by the trigger `log_entry_stamp_xid`, so
   * no write path can forget it): the change feed orders entries by `(xid, id)` and takes only those below the
   * oldest running transaction (src/sync/changes/). Entries older than the change feed have 0.
   */
  @Column({ type: 'bigint', default: '0', select: false, insert: false, update: false })
  xid?: string;
}
