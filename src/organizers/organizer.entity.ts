import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An organizer: the tenancy root that owns teams, events, gift cards and media (compat §4.1). */
@Entity('organizer')
export class Organizer {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Index('uq_organizer_slug', { unique: true })
  @Column({ type: 'varchar', length: 50 })
  slug!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
