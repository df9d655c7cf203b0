import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { OrderPosition } from '../orders/order-position.entity';

/**
 * A scan of a ticket (entry or exit). The check-in issue adds lists, gates and devices; the quota engine reads
 * exits now: a ticket whose last successful scan is an exit frees its place on quotas with `release_after_exit`.
 */
@Entity('checkin')
@Index('ix_checkin_position_time', ['positionId', 'datetime'])
export class Checkin {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  positionId!: number;

  @ManyToOne(() => OrderPosition, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'position_id' })
  position?: OrderPosition;

  /** Check-in list id (the check-in issue adds the key). */
  @Column({ type: 'int', nullable: true })
  listId!: number | null;

  /** `entry` or `exit`. */
  @Column({ type: 'varchar', length: 10, default: 'entry' })
  type!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  datetime!: Date;

  @Column({ type: 'boolean', default: true })
  successful!: boolean;
}
