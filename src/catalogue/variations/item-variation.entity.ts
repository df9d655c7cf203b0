import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { I18nString } from '../../common/values/i18n';
import { Item } from '../items/item.entity';

/**
 * A variation of an item (spec "Item variation"; compat §3.11). `default_price` null means the item's price.
 */
@Entity('item_variation')
export class ItemVariation {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  itemId!: number;

  @ManyToOne(() => Item, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'item_id' })
  item?: Item;

  @Column({ type: 'jsonb' })
  value!: I18nString;

  @Column({ type: 'numeric', precision: 13, scale: 2, nullable: true })
  defaultPrice!: string | null;

  @Column({ type: 'numeric', precision: 13, scale: 2, nullable: true })
  freePriceSuggestion!: string | null;

  @Column({ type: 'numeric', precision: 13, scale: 2, nullable: true })
  originalPrice!: string | null;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ type: 'jsonb', nullable: true })
  description!: I18nString | null;

  @Column({ type: 'int', default: 0 })
  position!: number;

  @Column({ type: 'boolean', default: false })
  checkinAttention!: boolean;

  @Column({ type: 'text', nullable: true })
  checkinText!: string | null;

  @Column({ type: 'boolean', default: false })
  requireApproval!: boolean;

  @Column({ type: 'boolean', default: false })
  requireMembership!: boolean;

  @Column({ type: 'boolean', default: false })
  requireMembershipHidden!: boolean;

  @Column({ type: 'int', array: true, default: '{}' })
  requireMembershipTypes!: number[];

  @Column({ type: 'boolean', default: true })
  allSalesChannels!: boolean;

  @Column({ type: 'text', array: true, default: '{}' })
  limitSalesChannels!: string[];

  @Column({ type: 'timestamptz', nullable: true })
  availableFrom!: Date | null;

  @Column({ type: 'varchar', length: 10, default: 'hide' })
  availableFromMode!: string;

  @Column({ type: 'timestamptz', nullable: true })
  availableUntil!: Date | null;

  @Column({ type: 'varchar', length: 10, default: 'hide' })
  availableUntilMode!: string;

  @Column({ type: 'boolean', default: false })
  hideWithoutVoucher!: boolean;

  @Column({ type: 'jsonb', default: {} })
  metaData!: Record<string, string>;
}
