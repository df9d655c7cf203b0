import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { I18nString } from '../../common/values/i18n';
import { Event } from '../../organizers/event.entity';

/** A category of items of one event (compat §3.9). */
@Entity('item_category')
export class ItemCategory {
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

  @Column({ type: 'jsonb', default: {} })
  description!: I18nString;

  @Column({ type: 'int', default: 0 })
  position!: number;

  @Column({ type: 'boolean', default: false })
  isAddon!: boolean;

  /** `null`, `both`, `only` (newer pretix). */
  @Column({ type: 'varchar', length: 10, nullable: true })
  crossSellingMode!: string | null;

  /** `always`, `products`, `discounts` or null. */
  @Column({ type: 'varchar', length: 10, nullable: true })
  crossSellingCondition!: string | null;

  @Column({ type: 'int', array: true, default: '{}' })
  crossSellingMatchProducts!: number[];
}
