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
 * One issued access token with its refresh token (spec "Authentication" 4-6). Only SHA-256 hashes are stored.
 * Refreshing revokes both halves of the row and inserts a new row that keeps `authorizationCodeId`, so a reused
 * code revokes every token descended from it. Revoking the access token alone leaves the refresh token usable.
 */
@Entity('oauth_token')
export class OAuthToken {
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

  /** The code the first token of this chain was issued for (no foreign key: codes are pruned). */
  @Index()
  @Column({ type: 'int', nullable: true })
  authorizationCodeId!: number | null;

  @Index('uq_oauth_token_access_hash', { unique: true })
  @Column({ type: 'char', length: 64 })
  accessTokenHash!: string;

  @Column({ type: 'timestamptz' })
  accessExpires!: Date;

  @Column({ type: 'boolean', default: false })
  accessRevoked!: boolean;

  @Index('uq_oauth_token_refresh_hash', { unique: true })
  @Column({ type: 'char', length: 64 })
  refreshTokenHash!: string;

  @Column({ type: 'boolean', default: false })
  refreshRevoked!: boolean;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  /** Organizers granted at consent (ids of the organizers context). */
  @Column({ type: 'int', array: true })
  organizerIds!: number[];

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
