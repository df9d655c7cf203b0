import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Organizer } from '../organizers/organizer.entity';
import { GiftCard } from './giftcard.entity';

/**
 * One change of a gift card's value (spec "Gift card transaction"; compat §3.4): the initial value, a PATCH of
 * `value` (the difference) or a `transact/` call. Never changed or deleted.
 */
@Entity('giftcard_transaction')
@Index('ix_giftcard_transaction_card', ['giftcardId', 'id'])
export class GiftCardTransaction {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  giftcardId!: number;

  @ManyToOne(() => GiftCard, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'giftcard_id' })
  giftcard?: GiftCard;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  datetime!: Date;

  /** Amount, positive or negative, `numeric(13,2)`. */
  @Column({ type: 'numeric', precision: 13, scale: 2 })
  value!: string;

  @Column({ type: 'text', nullable: true })
  text!: string | null;

  /** Additional data of the client (compat §3.4 `info`). */
  @Column({ type: 'jsonb', nullable: true })
  info!: Record<string, unknown> | null;

  /** The organizer that booked the transaction (the issuer, or an organizer accepting its cards). */
  @Index()
  @Column({ type: 'int' })
  acceptorId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'acceptor_id' })
  acceptor?: Organizer;
}
