import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One failed login on the OAuth login page, by lower-cased e-mail address (the login throttle counts them). */
@Entity('oauth_login_failure')
@Index('idx_oauth_login_failure_email', ['email', 'created'])
export class OAuthLoginFailure {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
