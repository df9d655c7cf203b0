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
import { ItemVariation } from '../variations/item-variation.entity';
import { SubEvent } from '../../organizers/subevents/subevent.entity';

/**
 * A quota: a capacity shared by items and variations (spec "Quota"; compat §3.14). `size` null is unlimited.
 * Reservations lock quota rows (`SELECT ... FOR UPDATE`, id order) and nothing else (architecture.md
 * "Concurrency").
 */
@Entity('quota')
export class Quota {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  /** Date of a series (null for events without dates); deleted with the date. */
  @Index()
  @Column({ type: 'int', nullable: true })
  subeventId!: number | null;

  @ManyToOne(() => SubEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subevent_id' })
  subevent?: SubEvent | null;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'int', nullable: true })
  size!: number | null;

  @Column({ type: 'boolean', default: false })
  closeWhenSoldOut!: boolean;

  @Column({ type: 'boolean', default: false })
  closed!: boolean;

  @Column({ type: 'boolean', default: false })
  releaseAfterExit!: boolean;

  @Column({ type: 'boolean', default: false })
  ignoreForEventAvailability!: boolean;

  @ManyToMany(() => Item, { onDelete: 'CASCADE' })
  @JoinTable({
    name: 'quota_item',
    joinColumn: { name: 'quota_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'item_id', referencedColumnName: 'id' },
  })
  items?: Item[];

  @ManyToMany(() => ItemVariation, { onDelete: 'CASCADE' })
  @JoinTable({
    name: 'quota_variation',
    joinColumn: { name: 'quota_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'variation_id', referencedColumnName: 'id' },
  })
  variations?: ItemVariation[];
}
