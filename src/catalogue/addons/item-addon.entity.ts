import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ItemCategory } from '../categories/item-category.entity';
import { Item } from '../items/item.entity';

/** An add-on configuration of an item: products of a category chosen with it (spec "Item add-on"; compat §3.12). */
@Entity('item_addon')
@Index('uq_item_addon_category', ['baseItemId', 'addonCategoryId'], { unique: true })
export class ItemAddon {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  baseItemId!: number;

  @ManyToOne(() => Item, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'base_item_id' })
  baseItem?: Item;

  @Index()
  @Column({ type: 'int' })
  addonCategoryId!: number;

  @ManyToOne(() => ItemCategory, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'addon_category_id' })
  addonCategory?: ItemCategory;

  @Column({ type: 'int', default: 0 })
  minCount!: number;

  @Column({ type: 'int', default: 1 })
  maxCount!: number;

  @Column({ type: 'int', default: 0 })
  position!: number;

  @Column({ type: 'boolean', default: false })
  multiAllowed!: boolean;

  @Column({ type: 'boolean', default: false })
  priceIncluded!: boolean;
}
