import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Event } from '../../organizers/event.entity';
import { Item } from '../items/item.entity';
import { Quota } from '../quotas/quota.entity';
import { ItemVariation } from '../variations/item-variation.entity';
import { SubEvent } from '../../organizers/subevents/subevent.entity';

/**
 * A voucher (spec "Voucher"; compat §3.23). Codes are unique per event case-insensitively (index from the
 * migration). `redeemed` and `budget_used` are maintained by order creation. `seat_id` is null until vouchers
 * take seats; a partial unique index (migration `SeatedSales`) lets one voucher hold a seat.
 */
@Entity('voucher')
@Index('uq_voucher_event_code_ci', { synchronize: false })
@Index('ix_voucher_blocking', ['eventId', 'blockQuota'])
@Index('uq_voucher_seat', { synchronize: false })
export class Voucher {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @Column({ type: 'varchar', length: 255 })
  code!: string;

  @Column({ type: 'int', default: 1 })
  maxUsages!: number;

  @Column({ type: 'int', default: 0 })
  redeemed!: number;

  @Column({ type: 'int', default: 1 })
  minUsages!: number;

  @Column({ type: 'timestamptz', nullable: true })
  validUntil!: Date | null;

  @Column({ type: 'boolean', default: false })
  blockQuota!: boolean;

  @Column({ type: 'boolean', default: false })
  allowIgnoreQuota!: boolean;

  /** `none`, `set`, `subtract` or `percent`. */
  @Column({ type: 'varchar', length: 20, default: 'none' })
  priceMode!: string;

  @Column({ type: 'numeric', precision: 13, scale: 2, default: 0 })
  value!: string;

  @Index()
  @Column({ type: 'int', nullable: true })
  itemId!: number | null;

  @ManyToOne(() => Item, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'item_id' })
  item?: Item | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  variationId!: number | null;

  @ManyToOne(() => ItemVariation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'variation_id' })
  variation?: ItemVariation | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  quotaId!: number | null;

  @ManyToOne(() => Quota, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'quota_id' })
  quota?: Quota | null;

  @Column({ type: 'int', nullable: true })
  seatId!: number | null;

  @Column({ type: 'varchar', length: 255, default: '' })
  tag!: string;

  @Column({ type: 'text', default: '' })
  comment!: string;

  /** Date of a series (null for events without dates); deleted with the date. */
  @Index()
  @Column({ type: 'int', nullable: true })
  subeventId!: number | null;

  @ManyToOne(() => SubEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subevent_id' })
  subevent?: SubEvent | null;

  @Column({ type: 'boolean', default: true })
  showHiddenItems!: boolean;

  @Column({ type: 'boolean', default: false })
  allAddonsIncluded!: boolean;

  @Column({ type: 'boolean', default: false })
  allBundlesIncluded!: boolean;

  @Column({ type: 'numeric', precision: 13, scale: 2, nullable: true })
  budget!: string | null;

  @Column({ type: 'numeric', precision: 13, scale: 2, default: 0 })
  budgetUsed!: string;
}
