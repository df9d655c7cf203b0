import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Team } from './team.entity';

/** An open invitation of an e-mail address without an account into a team (spec "Team invite"). */
@Entity('team_invite')
export class TeamInvite {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  teamId!: number;

  @ManyToOne(() => Team, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id' })
  team?: Team;

  @Column({ type: 'varchar', length: 254 })
  email!: string;

  /** Secret of the invitation link sent by e-mail. */
  @Column({ type: 'varchar', length: 64 })
  token!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
