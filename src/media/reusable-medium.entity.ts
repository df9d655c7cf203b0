import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { GiftCard } from '../giftcards/giftcard.entity';
import { OrderPosition } from '../orders/entities/order-position.entity';
import { Organizer } from '../organizers/organizer.entity';

/** Medium types of the core system (spec "Reusable medium"). */
export const MEDIUM_TYPES = ['barcode', 'nfc_uid', 'nfc_mf0aes'] as const;
export type MediumType = (typeof MEDIUM_TYPES)[number];

/**
 * A reusable medium of an organizer: a physical token (barcode card, NFC chip) standing in for a ticket or a gift
 * card (spec "Reusable medium"; compat §3.3). `identifier` is unique per organizer and type; `type` and
 * `identifier` never change. The links are cleared when the linked order position or gift card disappears.
 */
@Entity('reusable_medium')
@Index('uq_reusable_medium_organizer_type_identifier', ['organizerId', 'type', 'identifier'], {
  unique: true,
})
@Index('ix_reusable_medium_organizer_updated', ['organizerId', 'updated'])
export class ReusableMedium {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  organizerId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer?: Organizer;

  @Column({ type: 'varchar', length: 32 })
  type!: MediumType;

  @Column({ type: 'varchar', length: 200 })
  identifier!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  expires!: Date | null;

  /** Identifier of the organizer's customer account the medium belongs to; cleared when it is anonymized. */
  @Column({ type: 'varchar', length: 190, nullable: true })
  customer!: string | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  linkedOrderpositionId!: number | null;

  @ManyToOne(() => OrderPosition, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'linked_orderposition_id' })
  linkedOrderposition?: OrderPosition | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  linkedGiftcardId!: number | null;

  @ManyToOne(() => GiftCard, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'linked_giftcard_id' })
  linkedGiftcard?: GiftCard | null;

  /** Internal data that depends on the type (compat §3.3 `info`); not for client data. */
  @Column({ type: 'jsonb', default: {} })
  info!: Record<string, unknown>;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;
}
