import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { MembershipType } from '../catalogue/membership-types/membership-type.entity';
import { Organizer } from '../organizers/organizer.entity';
import { Customer } from './customer.entity';

/**
 * A membership of a customer (pretix `Membership`; compat §3 "memberships"): of one membership type of the
 * customer's organizer, valid from `dateStart` to `dateEnd` (UTC). `organizerId` repeats the customer's organizer
 * (every query is scoped by it). `canceled` is kept for pretix's validity rules; the API does not show it.
 */
@Entity('membership')
@Index('ix_membership_organizer_id', ['organizerId', 'id'])
export class Membership {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  organizerId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer?: Organizer;

  @Index()
  @Column({ type: 'int' })
  customerId!: number;

  @ManyToOne(() => Customer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'customer_id' })
  customer?: Customer;

  @Index()
  @Column({ type: 'int' })
  membershipTypeId!: number;

  @ManyToOne(() => MembershipType, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'membership_type_id' })
  membershipType?: MembershipType;

  @Column({ type: 'boolean', default: false })
  testmode!: boolean;

  @Column({ type: 'timestamptz' })
  dateStart!: Date;

  @Column({ type: 'timestamptz' })
  dateEnd!: Date;

  /** Null after the customer's anonymization. */
  @Column({ type: 'jsonb', nullable: true })
  attendeeNameParts!: Record<string, string> | null;

  @Column({ type: 'boolean', default: false })
  canceled!: boolean;

  /** The order position whose paid order granted the membership (pretix `granted_in`), or null. */
  @Index()
  @Column({ type: 'int', nullable: true })
  grantedInPositionId!: number | null;
}
