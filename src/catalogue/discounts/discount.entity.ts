import {
  Column,
  Entity,
  Index,
  JoinColumn,
  JoinTable,
  ManyToMany,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Event } from '../../organizers/event.entity';
import { Item } from '../items/item.entity';

/** An automatic discount of one event (spec "Discount"; compat §3.25). */
@Entity('discount')
export class Discount {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ type: 'varchar', length: 255 })
  internalName!: string;

  @Column({ type: 'int', default: 0 })
  position!: number;

  @Column({ type: 'boolean', default: true })
  allSalesChannels!: boolean;

  @Column({ type: 'text', array: true, default: '{}' })
  limitSalesChannels!: string[];

  @Column({ type: 'timestamptz', nullable: true })
  availableFrom!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  availableUntil!: Date | null;

  /** `mixed`, `same` or `distinct`. */
  @Column({ type: 'varchar', length: 10, default: 'mixed' })
  subeventMode!: string;

  @Column({ type: 'timestamptz', nullable: true })
  subeventDateFrom!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  subeventDateUntil!: Date | null;

  @Column({ type: 'boolean', default: true })
  conditionAllProducts!: boolean;

  @ManyToMany(() => Item, { onDelete: 'CASCADE' })
  @JoinTable({
    name: 'discount_condition_item',
    joinColumn: { name: 'discount_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'item_id', referencedColumnName: 'id' },
  })
  conditionLimitProducts?: Item[];

  @Column({ type: 'boolean', default: true })
  conditionApplyToAddons!: boolean;

  @Column({ type: 'boolean', default: false })
  conditionIgnoreVoucherDiscounted!: boolean;

  @Column({ type: 'int', default: 0 })
  conditionMinCount!: number;

  @Column({ type: 'numeric', precision: 13, scale: 2, default: 0 })
  conditionMinValue!: string;

  @Column({ type: 'numeric', precision: 10, scale: 2, default: 0 })
  benefitDiscountMatchingPercent!: string;

  @Column({ type: 'int', nullable: true })
  benefitOnlyApplyToCheapestNMatches!: number | null;

  @Column({ type: 'boolean', default: true })
  benefitSameProducts!: boolean;

  @ManyToMany(() => Item, { onDelete: 'CASCADE' })
  @JoinTable({
    name: 'discount_benefit_item',
    joinColumn: { name: 'discount_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'item_id', referencedColumnName: 'id' },
  })
  benefitLimitProducts?: Item[];

  @Column({ type: 'boolean', default: true })
  benefitApplyToAddons!: boolean;

  @Column({ type: 'boolean', default: false })
  benefitIgnoreVoucherDiscounted!: boolean;
}
