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
import { User } from '../auth/user.entity';
import { Event } from '../organizers/event.entity';
import { Organizer } from '../organizers/organizer.entity';

/**
 * A team of an organizer (spec "Team"): which events it reaches and which permissions it grants, stored as
 * colon-form permission lists. The legacy `can_*` booleans are derived at the API edge.
 */
@Entity('team')
export class Team {
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

  @Column({ type: 'boolean', default: false })
  allEvents!: boolean;

  @ManyToMany(() => Event, { onDelete: 'CASCADE' })
  @JoinTable({
    name: 'team_limit_event',
    joinColumn: { name: 'team_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'event_id', referencedColumnName: 'id' },
  })
  limitEvents?: Event[];

  @Column({ type: 'boolean', default: false })
  require2fa!: boolean;

  @Column({ type: 'boolean', default: false })
  allEventPermissions!: boolean;

  @Column({ type: 'text', array: true, default: '{}' })
  limitEventPermissions!: string[];

  @Column({ type: 'boolean', default: false })
  allOrganizerPermissions!: boolean;

  @Column({ type: 'text', array: true, default: '{}' })
  limitOrganizerPermissions!: string[];

  @ManyToMany(() => User, { onDelete: 'CASCADE' })
  @JoinTable({
    name: 'team_member',
    joinColumn: { name: 'team_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'user_id', referencedColumnName: 'id' },
  })
  members?: User[];
}
