import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Event } from '../../organizers/event.entity';
import { OrderPosition } from '../entities/order-position.entity';

/**
 * A ticket secret that is or was blocked (pretix's blocked ticket secrets, `E/blockedsecrets/`): what scanners
 * download to refuse blocked tickets offline. One row per event and secret, kept after unblocking with `blocked`
 * false; `updated` moves on every change (feeds `updated_since`). Written only by `PositionBlocking`.
 */
@Entity('blocked_secret')
@Index('uq_blocked_secret_event_secret', ['eventId', 'secret'], { unique: true })
@Index('ix_blocked_secret_event_updated', ['eventId', 'updated'])
@Index('ix_blocked_secret_event_changed', ['eventId', 'changedXid'])
export class BlockedSecret {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  /** The position the secret belongs (or belonged) to; null once that position is gone. */
  @Index()
  @Column({ type: 'int', nullable: true })
  positionId!: number | null;

  @ManyToOne(() => OrderPosition, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'position_id' })
  position?: OrderPosition | null;

  @Column({ type: 'varchar', length: 190 })
  secret!: string;

  @Column({ type: 'boolean' })
  blocked!: boolean;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated!: Date;

  /**
   * The last transaction that changed what a scanner's mirror shows of this row (`pg_current_xact_id()`; kept by
   * the triggers of migration `ScannerDeltaStamps`, never written by the application; 0 before it).
   */
  @Column({ name: 'changed_xid', type: 'bigint', default: '0', select: false, insert: false, update: false })
  changedXid?: string;
}
