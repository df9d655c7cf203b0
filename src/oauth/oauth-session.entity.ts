import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A login session of the OAuth pages, in the shape `connect-pg-simple` reads and writes (`sid`, `sess`,
 * `expire`). Mapped here only so that the migrations and the entities agree; the store writes it.
 */
@Entity('oauth_session')
export class OAuthSession {
  @PrimaryColumn({ type: 'varchar' })
  sid!: string;

  @Column({ type: 'json' })
  sess!: unknown;

  @Index('idx_oauth_session_expire')
  @Column({ type: 'timestamp', precision: 6 })
  expire!: Date;
}
