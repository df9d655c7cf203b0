import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { User } from '../auth/user.entity';
import { OAuthApplication } from './oauth-application.entity';

/**
 * An authorization code (RFC 6749 §4.1.2): single use, valid 10 minutes, bound to the client, the redirect URI,
 * the user, the organizers and scopes consented to and the PKCE challenge (S256 only). Only its SHA-256 is stored.
 */
@Entity('oauth_authorization_code')
export class OAuthAuthorizationCode {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  applicationId!: number;

  @ManyToOne(() => OAuthApplication, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id' })
  application?: OAuthApplication;

  @Index()
  @Column({ type: 'int' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Index('uq_oauth_authorization_code_hash', { unique: true })
  @Column({ type: 'char', length: 64 })
  codeHash!: string;

  @Column({ type: 'text' })
  redirectUri!: string;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  /** Organizers consented to (ids of the organizers context). */
  @Column({ type: 'int', array: true })
  organizerIds!: number[];

  /** PKCE S256 challenge, or null when the client sent none. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  codeChallenge!: string | null;

  @Index()
  @Column({ type: 'timestamptz' })
  expires!: Date;

  /** Set when the code was exchanged; a second exchange revokes the tokens issued with it. */
  @Column({ type: 'boolean', default: false })
  used!: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
