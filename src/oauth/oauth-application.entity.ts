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

/**
 * An OAuth 2.0 client registered by a user (spec "Authentication" 3): a confidential (or public) client with one or more
 * exact redirect URIs. Only the SHA-256 of the client secret is stored; the secret is shown once.
 */
@Entity('oauth_application')
export class OAuthApplication {
  @PrimaryGeneratedColumn()
  id!: number;

  /** The user who registered it (its owner). */
  @Index()
  @Column({ type: 'int' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Index('uq_oauth_application_client_id', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  clientId!: string;

  /** SHA-256 hex of the client secret. */
  @Column({ type: 'char', length: 64 })
  clientSecretHash!: string;

  /**
   * False for a public client (a native or browser app that cannot keep a secret): it authenticates with its
   * `client_id` alone and must use PKCE (README "Security"). Its stored secret hash is of a secret never shown.
   */
  @Column({ type: 'boolean', default: true })
  confidential!: boolean;

  /** Registered redirect URIs, compared by exact string equality. */
  @Column({ type: 'text', array: true })
  redirectUris!: string[];

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
