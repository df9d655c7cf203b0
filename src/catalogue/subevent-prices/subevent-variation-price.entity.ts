import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { SubEvent } from '../../organizers/subevents/subevent.entity';
import { ItemVariation } from '../variations/item-variation.entity';

/** The price of a variation on one date of a series (`variation_price_overrides`); null: default. */
@Entity('subevent_variation_price')
@Index('uq_subevent_variation_price', ['subeventId', 'variationId'], { unique: true })
export class SubEventVariationPrice {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  subeventId!: number;

  @ManyToOne(() => SubEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subevent_id' })
  subevent?: SubEvent;

  @Index()
  @Column({ type: 'int' })
  variationId!: number;

  @ManyToOne(() => ItemVariation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'variation_id' })
  variation?: ItemVariation;

  /** Money string; null: the variation's default price. */
  @Column({ type: 'numeric', precision: 13, scale: 2, nullable: true })
  price!: string | null;

  /** Not sold on this date (pretix 2026 `disabled`). */
  @Column({ type: 'boolean', default: false })
  disabled!: boolean;

  /** Sold on this date only from this time on (null: no bound). */
  @Column({ type: 'timestamptz', nullable: true })
  availableFrom!: Date | null;

  /** Sold on this date only until this time (null: no bound). */
  @Column({ type: 'timestamptz', nullable: true })
  availableUntil!: Date | null;
}
