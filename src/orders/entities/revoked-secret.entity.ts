import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Event } from '../../organizers/event.entity';
import { OrderPosition } from './order-position.entity';

/**
 * A ticket secret that was replaced (compat §4.4 `regenerate_secrets`; pretix's revoked ticket secrets): scanning
 * it answers `revoked` (compat §3.21), or checks the position in when forced.
 */
@Entity('revoked_secret')
@Index('ix_revoked_secret_event_secret', ['eventId', 'secret'])
@Index('ix_revoked_secret_event_changed', ['eventId', 'changedXid'])
export class RevokedSecret {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Index()
  @Column({ type: 'int' })
  positionId!: number;

  @ManyToOne(() => OrderPosition, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'position_id' })
  position?: OrderPosition;

  @Column({ type: 'varchar', length: 190 })
  secret!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  /**
   * The last transaction that changed what a scanner's mirror shows of this row (`pg_current_xact_id()`; kept by
   * the triggers of migration `ScannerDeltaStamps`, never written by the application; 0 before it).
   */
  @Column({ name: 'changed_xid', type: 'bigint', default: '0', select: false, insert: false, update: false })
  changedXid?: string;
}
