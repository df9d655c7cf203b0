import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A person with an account (spec "User profile"). Users reach organizers only through team membership; they
 * authenticate with OAuth access tokens. E-mail addresses are unique case-insensitively (index from the
 * migration).
 */
@Entity('user_account')
@Index('uq_user_account_email_ci', { synchronize: false })
export class User {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  fullname!: string | null;

  /** bcrypt hash. */
  @Column({ type: 'varchar', length: 255 })
  passwordHash!: string;

  @Column({ type: 'varchar', length: 50, default: 'en' })
  locale!: string;

  @Column({ type: 'varchar', length: 100, default: 'UTC' })
  timezone!: string;

  @Column({ type: 'boolean', default: false })
  isStaff!: boolean;

  @Column({ type: 'boolean', default: true })
  isActive!: boolean;

  /** Whether the user has two-factor authentication set up (team member `require_2fa`). */
  @Column({ type: 'boolean', default: false })
  requires2fa!: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
