import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Organizer } from '../organizers/organizer.entity';

/**
 * The acceptor organizer accepts gift cards issued by the issuer organizer (pretix's "gift card acceptance").
 * While `active`, the acceptor lists, retrieves and transacts the issuer's cards with `include_accepted=true`;
 * with `reusable_media` also, the acceptor's medium lookup finds the issuer's media (compat §3.3).
 */
@Entity('giftcard_acceptance')
@Index('uq_giftcard_acceptance_issuer_acceptor', ['issuerId', 'acceptorId'], { unique: true })
@Index('ix_giftcard_acceptance_acceptor', ['acceptorId', 'issuerId'])
@Check('ck_giftcard_acceptance_other_organizer', '"issuer_id" <> "acceptor_id"')
export class GiftCardAcceptance {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  issuerId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issuer_id' })
  issuer?: Organizer;

  @Column({ type: 'int' })
  acceptorId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'acceptor_id' })
  acceptor?: Organizer;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  /** Whether the acceptor's medium lookup may find the issuer's reusable media. */
  @Column({ type: 'boolean', default: false })
  reusableMedia!: boolean;
}
