import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Item } from '../items/item.entity';
import { ItemVariation } from '../variations/item-variation.entity';

/** A product included in an item (spec "Item bundle"; compat §3.13). */
@Entity('item_bundle')
export class ItemBundle {
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
  bundledItemId!: number;

  @ManyToOne(() => Item, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'bundled_item_id' })
  bundledItem?: Item;

  @Index()
  @Column({ type: 'int', nullable: true })
  bundledVariationId!: number | null;

  @ManyToOne(() => ItemVariation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'bundled_variation_id' })
  bundledVariation?: ItemVariation | null;

  @Column({ type: 'int', default: 1 })
  count!: number;

  @Column({ type: 'numeric', precision: 13, scale: 2, default: 0 })
  designatedPrice!: string;
}
