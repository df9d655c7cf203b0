import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Item } from '../../catalogue/items/item.entity';
import { ItemVariation } from '../../catalogue/variations/item-variation.entity';
import { Event } from '../../organizers/event.entity';
import { CheckinList } from '../checkin-list.entity';

/**
 * An automatic check-in rule of an event (pretix 2025+ plugin `autocheckin`, `E/auto_checkin_rules/`): when an
 * order is placed (`mode` `placed`) or paid (`paid`), each of its positions that the rule's filters match is
 * checked in on the rule's list (or, without a list, on every list of the event that admits the position's
 * product and date). Filters: sales channels (`all_sales_channels` or `limit_sales_channels`), products and
 * variations (`all_products` or the two limit lists), payment providers (`all_payment_methods` or
 * `limit_payment_methods`, paid mode only). Deleting the list deletes the rule (pretix `on_delete=CASCADE`).
 */
@Entity('auto_checkin_rule')
export class AutoCheckinRule {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  /** The list to check in on; null: every matching list of the event. */
  @Index()
  @Column({ type: 'int', nullable: true })
  listId!: number | null;

  @ManyToOne(() => CheckinList, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'list_id' })
  list?: CheckinList;

  /** `placed` or `paid`. */
  @Column({ type: 'varchar', length: 100, default: 'placed' })
  mode!: string;

  @Column({ type: 'boolean', default: true })
  allSalesChannels!: boolean;

  /** Sales channel identifiers, sorted (used when `allSalesChannels` is false). */
  @Column({ type: 'text', array: true, default: '{}' })
  limitSalesChannels!: string[];

  @Column({ type: 'boolean', default: true })
  allProducts!: boolean;

  @Column({ type: 'boolean', default: true })
  allPaymentMethods!: boolean;

  /** Payment provider identifiers, sorted (used when `allPaymentMethods` is false). */
  @Column({ type: 'text', array: true, default: '{}' })
  limitPaymentMethods!: string[];

  @OneToMany(() => AutoCheckinRuleItem, (i) => i.rule)
  items?: AutoCheckinRuleItem[];
}

/** A product of a rule's `limit_products`. */
@Entity('auto_checkin_rule_item')
export class AutoCheckinRuleItem {
  @PrimaryColumn({ type: 'int' })
  ruleId!: number;

  @ManyToOne(() => AutoCheckinRule, (r) => r.items, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'rule_id' })
  rule?: AutoCheckinRule;

  @Index()
  @PrimaryColumn({ type: 'int' })
  itemId!: number;

  @ManyToOne(() => Item, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'item_id' })
  item?: Item;
}

/** A variation of a rule's `limit_variations`. */
@Entity('auto_checkin_rule_variation')
export class AutoCheckinRuleVariation {
  @PrimaryColumn({ type: 'int' })
  ruleId!: number;

  @ManyToOne(() => AutoCheckinRule, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'rule_id' })
  rule?: AutoCheckinRule;

  @Index()
  @PrimaryColumn({ type: 'int' })
  variationId!: number;

  @ManyToOne(() => ItemVariation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'variation_id' })
  variation?: ItemVariation;
}
