import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Organizer } from '../organizers/organizer.entity';
import type { SeatingLayout } from './seating-layout.rules';

/** A seating plan of an organizer (compat §3.5): a name and a layout of zones, rows and seats. */
@Entity('seating_plan')
export class SeatingPlan {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  organizerId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer?: Organizer;

  @Column({ type: 'varchar', length: 190 })
  name!: string;

  @Column({ type: 'jsonb' })
  layout!: SeatingLayout;
}
