import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { I18nString } from '../../common/values/i18n';
import { Organizer } from '../../organizers/organizer.entity';

/** A membership type of an organizer (spec "Membership type"; compat §3.6). */
@Entity('membership_type')
export class MembershipType {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  organizerId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer?: Organizer;

  @Column({ type: 'jsonb' })
  name!: I18nString;

  @Column({ type: 'boolean', default: false })
  transferable!: boolean;

  @Column({ type: 'boolean', default: false })
  allowParallelUsage!: boolean;

  /** Maximum uses; null means unlimited. */
  @Column({ type: 'int', nullable: true })
  maxUsages!: number | null;
}
