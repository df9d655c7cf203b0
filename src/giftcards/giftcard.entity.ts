import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { OrderPosition } from '../orders/entities/order-position.entity';
import { Organizer } from '../organizers/organizer.entity';

/**
 * A gift card of an issuing organizer (spec "Gift card"; compat §3.4). `value` is the current balance, kept in
 * step with the sum of its transactions by the writer (every change of value is one `giftcard_transaction` row
 * in the same transaction); the CHECK constraint is the backstop that it never becomes negative.
 */
@Entity('giftcard')
@Index('uq_giftcard_issuer_secret', ['issuerId', 'secret'], { unique: true })
@Check('ck_giftcard_value_not_negative', '"value" >= 0')
export class GiftCard {
  @PrimaryGeneratedColumn()
  id!: number;

  /** The organizer that issued the card and is responsible for it. */
  @Column({ type: 'int' })
  issuerId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issuer_id' })
  issuer?: Organizer;

  /** The gift card code; fixed after creation. */
  @Column({ type: 'varchar', length: 190 })
  secret!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  issuance!: Date;

  /** Current balance, `numeric(13,2)` (a string from the driver). */
  @Column({ type: 'numeric', precision: 13, scale: 2, default: 0 })
  value!: string;

  /** ISO 4217 code; fixed after creation. */
  @Column({ type: 'varchar', length: 3 })
  currency!: string;

  /** Test-mode card; fixed after creation. */
  @Column({ type: 'boolean', default: false })
  testmode!: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  expires!: Date | null;

  /** Special terms. */
  @Column({ type: 'text', nullable: true })
  conditions!: string | null;

  /** The order position that "owns" the card (may see its transactions); cleared when the order is deleted. */
  @Index()
  @Column({ type: 'int', nullable: true })
  ownerTicketId!: number | null;

  @ManyToOne(() => OrderPosition, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'owner_ticket_id' })
  ownerTicket?: OrderPosition | null;
}
