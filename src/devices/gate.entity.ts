import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Organizer } from '../organizers/organizer.entity';

/**
 * A gate of an organizer (pretix `Gate`): a named entrance that devices and check-in lists can be assigned to.
 * `identifier` is unique per organizer (compared case-insensitively, as pretix does); generated when omitted.
 */
@Entity('gate')
@Index('uq_gate_organizer_identifier', ['organizerId', 'identifier'], { unique: true })
export class Gate {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  organizerId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer?: Organizer;

  @Column({ type: 'varchar', length: 190 })
  name!: string;

  @Column({ type: 'varchar', length: 190 })
  identifier!: string;
}
