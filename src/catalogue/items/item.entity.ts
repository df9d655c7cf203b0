import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { I18nString } from '../../common/values/i18n';
import { Event } from '../../organizers/event.entity';
import { ItemCategory } from '../categories/item-category.entity';
import { MembershipType } from '../membership-types/membership-type.entity';
import { Quota } from '../quotas/quota.entity';
import { TaxRule } from '../tax-rules/tax-rule.entity';

/**
 * An item (product) of one event (compat §3.10). Money columns are `numeric(13,2)` and come back from the driver
 * as strings. `has_variations` is fixed at creation.
 */
@Entity('item')
export class Item {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'jsonb' })
  name!: I18nString;

  @Column({ type: 'varchar', length: 255, nullable: true })
  internalName!: string | null;

  @Column({ type: 'numeric', precision: 13, scale: 2 })
  defaultPrice!: string;

  @Index()
  @Column({ type: 'int', nullable: true })
  categoryId!: number | null;

  @ManyToOne(() => ItemCategory, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'category_id' })
  category?: ItemCategory | null;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ type: 'jsonb', nullable: true })
  description!: I18nString | null;

  @Column({ type: 'boolean', default: false })
  freePrice!: boolean;

  @Column({ type: 'numeric', precision: 13, scale: 2, nullable: true })
  freePriceSuggestion!: string | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  taxRuleId!: number | null;

  /** A rule in use cannot be deleted (403 first; the key is the backstop). */
  @ManyToOne(() => TaxRule, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'tax_rule_id' })
  taxRule?: TaxRule | null;

  @Column({ type: 'boolean', default: false })
  admission!: boolean;

  @Column({ type: 'boolean', default: false })
  personalized!: boolean;

  @Column({ type: 'boolean', default: false })
  issueGiftcard!: boolean;

  @Column({ type: 'int', default: 0 })
  position!: number;

  @Column({ type: 'boolean', nullable: true })
  generateTickets!: boolean | null;

  @Column({ type: 'boolean', default: true })
  allowWaitinglist!: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  availableFrom!: Date | null;

  @Column({ type: 'varchar', length: 10, default: 'hide' })
  availableFromMode!: string;

  @Column({ type: 'timestamptz', nullable: true })
  availableUntil!: Date | null;

  @Column({ type: 'varchar', length: 10, default: 'hide' })
  availableUntilMode!: string;

  @Column({ type: 'boolean', default: false })
  requireBundling!: boolean;

  @Column({ type: 'boolean', default: false })
  requireVoucher!: boolean;

  @Column({ type: 'boolean', default: false })
  hideWithoutVoucher!: boolean;

  @Column({ type: 'boolean', default: true })
  allowCancel!: boolean;

  @Column({ type: 'int', nullable: true })
  minPerOrder!: number | null;

  @Column({ type: 'int', nullable: true })
  maxPerOrder!: number | null;

  /** Quota id whose availability hides this item (pretix `hidden_if_available`). */
  @Index()
  @Column({ type: 'int', nullable: true })
  hiddenIfAvailable!: number | null;

  @ManyToOne(() => Quota, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'hidden_if_available' })
  hiddenIfAvailableQuota?: Quota | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  hiddenIfItemAvailable!: number | null;

  @ManyToOne(() => Item, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'hidden_if_item_available' })
  hiddenIfItemAvailableItem?: Item | null;

  /** `hide` (default) or `info`: how the item shows while `hidden_if_item_available` is available (pretix 2025+). */
  @Column({ type: 'varchar', length: 16, default: 'hide' })
  hiddenIfItemAvailableMode!: string;

  @Column({ type: 'boolean', default: false })
  checkinAttention!: boolean;

  @Column({ type: 'text', nullable: true })
  checkinText!: string | null;

  @Column({ type: 'boolean', default: false })
  hasVariations!: boolean;

  @Column({ type: 'boolean', default: false })
  requireApproval!: boolean;

  @Column({ type: 'boolean', nullable: true })
  showQuotaLeft!: boolean | null;

  @Column({ type: 'numeric', precision: 13, scale: 2, nullable: true })
  originalPrice!: string | null;

  @Column({ type: 'jsonb', default: {} })
  metaData!: Record<string, string>;

  @Column({ type: 'boolean', default: false })
  requireMembership!: boolean;

  @Column({ type: 'boolean', default: false })
  requireMembershipHidden!: boolean;

  @Column({ type: 'int', array: true, default: '{}' })
  requireMembershipTypes!: number[];

  @Index()
  @Column({ type: 'int', nullable: true })
  grantMembershipType!: number | null;

  @ManyToOne(() => MembershipType, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'grant_membership_type' })
  grantMembershipTypeRef?: MembershipType | null;

  @Column({ type: 'boolean', default: true })
  grantMembershipDurationLikeEvent!: boolean;

  @Column({ type: 'int', default: 0 })
  grantMembershipDurationDays!: number;

  @Column({ type: 'int', default: 0 })
  grantMembershipDurationMonths!: number;

  @Column({ type: 'varchar', length: 20, nullable: true })
  mediaPolicy!: string | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  mediaType!: string | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  validityMode!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  validityFixedFrom!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  validityFixedUntil!: Date | null;

  @Column({ type: 'int', nullable: true })
  validityDynamicDurationMinutes!: number | null;

  @Column({ type: 'int', nullable: true })
  validityDynamicDurationHours!: number | null;

  @Column({ type: 'int', nullable: true })
  validityDynamicDurationDays!: number | null;

  @Column({ type: 'int', nullable: true })
  validityDynamicDurationMonths!: number | null;

  @Column({ type: 'boolean', default: false })
  validityDynamicStartChoice!: boolean;

  @Column({ type: 'int', nullable: true })
  validityDynamicStartChoiceDayLimit!: number | null;

  @Column({ type: 'boolean', default: true })
  allSalesChannels!: boolean;

  @Column({ type: 'text', array: true, default: '{}' })
  limitSalesChannels!: string[];
}
