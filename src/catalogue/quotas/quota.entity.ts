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

/**
 * A quota: a capacity shared by items and variations (spec "Quota"; compat §3.14). `size` null is unlimited.
 * Reservations lock quota rows (`SELECT ... FOR UPDATE`, id order) and nothing else (architecture.md
 * "Concurrency"). `subevent_id` gets its foreign key with the series issue.
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

  @Column({ type: 'int', nullable: true })
  subeventId!: number | null;

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
