import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { OrderPosition } from '../orders/entities/order-position.entity';
import { Event } from '../organizers/event.entity';
import { CheckinList } from './checkin-list.entity';

/**
 * A scan of a ticket, successful or not (spec "Check-in list"; compat §3.21, §3.22): redeems, failed attempts on
 * known tickets, failed scans uploaded by scanners (`failed_checkins/`, possibly without a position), and the
 * automatic exits of `exit_all_at`. A ticket whose last successful scan is an exit frees its place on quotas with
 * `release_after_exit` (maintained by a trigger into the quota counts, migration `ProductSalesCounts`). A `nonce`
 * is stored once per ticket and list among successful scans and once among failed ones (failed scans without a
 * ticket: once per list), partial unique indexes of the migration `CheckinNoncePerPosition` (README "Security",
 * "Check-in").
 */
@Entity('checkin')
@Index('ix_checkin_position_time', ['positionId', 'datetime'])
@Index('ix_checkin_list_changed', ['listId', 'changedXid'])
@Index('uq_checkin_nonce_ok', { synchronize: false })
@Index('uq_checkin_nonce_failed', { synchronize: false })
@Index('ix_checkin_list_id', ['listId', 'id'])
@Index('ix_checkin_list_annul_event', ['listId', 'annulEventId'])
export class Checkin {
  @PrimaryGeneratedColumn()
  id!: number;

  /** Null for a failed scan of an unknown barcode. */
  @Column({ type: 'int', nullable: true })
  positionId!: number | null;

  @ManyToOne(() => OrderPosition, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'position_id' })
  position?: OrderPosition;

  /** Event of the scan (set for every scan made through the API; older rows may lack it). */
  @Index()
  @Column({ type: 'int', nullable: true })
  eventId!: number | null;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Index()
  @Column({ type: 'int', nullable: true })
  listId!: number | null;

  @ManyToOne(() => CheckinList, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'list_id' })
  list?: CheckinList;

  /** `entry` or `exit`. */
  @Column({ type: 'varchar', length: 10, default: 'entry' })
  type!: string;

  /** When the scan happened (as the scanner says), UTC. */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  datetime!: Date;

  /** When the server stored it, UTC. */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'boolean', default: true })
  successful!: boolean;

  /** Reason code of a failed scan (compat §3.21), null for successful ones. */
  @Column({ type: 'varchar', length: 50, nullable: true })
  errorReason!: string | null;

  @Column({ type: 'text', nullable: true })
  errorExplanation!: string | null;

  @Column({ type: 'boolean', default: false })
  forced!: boolean;

  @Column({ type: 'boolean', default: false })
  autoCheckedIn!: boolean;

  @Column({ type: 'varchar', length: 190, nullable: true })
  nonce!: string | null;

  @Column({ type: 'text', nullable: true })
  rawBarcode!: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  rawSourceType!: string | null;

  @Column({ type: 'int', nullable: true })
  rawItemId!: number | null;

  @Column({ type: 'int', nullable: true })
  rawVariationId!: number | null;

  @Column({ type: 'int', nullable: true })
  rawSubeventId!: number | null;

  /**
   * The last transaction that changed what a scanner's mirror shows of this row (`pg_current_xact_id()`; kept by
   * the triggers of migration `ScannerDeltaStamps`, never written by the application; 0 before it).
   */
  @Column({ name: 'changed_xid', type: 'bigint', default: '0', select: false, insert: false, update: false })
  changedXid?: string;

  /**
   * pretix's `device_id` of the device that made the scan (its number inside the organizer), null for team tokens
   * and OAuth. No foreign key: devices belong to a context above check-in.
   */
  @Column({ type: 'int', nullable: true })
  deviceId!: number | null;

  /** The gate of that device at the time of the scan (no foreign key, as `deviceId`). */
  @Column({ type: 'int', nullable: true })
  gateId!: number | null;

  /**
   * Offline double entry (README "Check-in", batch): on the later-dated of two forced offline entries of one
   * ticket, stored as failed `already_redeemed`, the entry it lost to: `{device_id, gate, datetime, checkin_id}`.
   */
  @Column({ type: 'jsonb', nullable: true })
  conflict!: CheckinConflict | null;

  /**
   * The number of the annulment in the live stream of the list (`E/checkinlists/{list}/stream/`): drawn from the
   * check-in id sequence when the scan is annulled, so check-ins and annulments of a list share one order for
   * `Last-Event-ID` resumption; null for a scan never annulled (or annulled before the stream existed).
   */
  @Column({ type: 'int', nullable: true })
  annulEventId!: number | null;
}

/** The entry an offline double entry lost to (see {@link Checkin.conflict}); datetime ISO UTC. */
export interface CheckinConflict {
  device_id: number | null;
  gate: number | null;
  datetime: string;
  checkin_id: number;
}
