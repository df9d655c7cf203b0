import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Organizer } from '../organizers/organizer.entity';

/**
 * A customer account of an organizer (pretix `Customer`; compat §3 "customers"). `identifier` is generated
 * (7 characters of `ABCDEFGHJKLMNPQRSTUVWXYZ23456789`), unique across organizers and never changed; `email` is
 * stored lower-cased and unique per organizer. `passwordHash` is a bcrypt hash, or null (no usable password).
 */
@Entity('customer')
@Index('uq_customer_identifier', ['identifier'], { unique: true })
@Index('uq_customer_organizer_email', ['organizerId', 'email'], { unique: true })
export class Customer {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  organizerId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer?: Organizer;

  @Column({ type: 'varchar', length: 190 })
  identifier!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalIdentifier!: string | null;

  /** Lower-cased; null after anonymization. */
  @Column({ type: 'varchar', length: 190, nullable: true })
  email!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  phone!: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  passwordHash!: string | null;

  /** The full name built from `nameParts` ("" when there are none). */
  @Column({ type: 'varchar', length: 255, default: '' })
  nameCached!: string;

  @Column({ type: 'jsonb', default: {} })
  nameParts!: Record<string, string>;

  @Column({ type: 'boolean', default: true })
  isActive!: boolean;

  @Column({ type: 'boolean', default: true })
  isVerified!: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  lastLogin!: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  dateJoined!: Date;

  @Column({ type: 'varchar', length: 50, default: 'en' })
  locale!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastModified!: Date;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;
}
