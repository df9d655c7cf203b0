import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { OrderPosition } from './order-position.entity';

/**
 * A print of a position's ticket, badge or certificate recorded by a client (pretix print logs, `POST
 * E/orderpositions/{id}/printlog/`), shown in the position's `print_logs`. Written only by `PrintLogs`.
 */
@Entity('print_log')
export class PrintLog {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  positionId!: number;

  @ManyToOne(() => OrderPosition, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'position_id' })
  position?: OrderPosition;

  /** Whether the print job resulted in a print (as the client reports it). */
  @Column({ type: 'boolean', default: true })
  successful!: boolean;

  /** When it was printed (as the client reports it, UTC). */
  @Column({ type: 'timestamptz' })
  datetime!: Date;

  /** Source of the print job, e.g. the app's name. */
  @Column({ type: 'varchar', length: 255 })
  source!: string;

  /** `admission`, `badge`, `certificate` or `other`. */
  @Column({ type: 'varchar', length: 255 })
  type!: string;

  /** Client-dependent data. */
  @Column({ type: 'jsonb', default: {} })
  info!: Record<string, unknown>;

  /**
   * The number (`device_id`, per organizer) of the device that recorded the print (pretix `PrintLog.device`), or
   * null. No foreign key: devices sit above the orders context.
   */
  @Column({ type: 'int', nullable: true })
  deviceId!: number | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;
}
