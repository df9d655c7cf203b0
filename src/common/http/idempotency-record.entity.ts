import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A stored response for `X-Idempotency-Key` (compat §1.8): one per (credential, key), kept 24 hours. While the
 * first request runs, `status` is null and a repeat answers 409.
 */
@Entity('idempotency_record')
@Index('uq_idempotency_credential_key', ['credentialHash', 'key'], { unique: true })
export class IdempotencyRecord {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  /** SHA-256 of the `Authorization` header: keys are scoped per credential. */
  @Column({ type: 'char', length: 64 })
  credentialHash!: string;

  @Column({ type: 'varchar', length: 255 })
  key!: string;

  /** SHA-256 of method, path with query, and raw body: a repeat must be the same request. */
  @Column({ type: 'char', length: 64 })
  fingerprint!: string;

  /** Response status; null while the first request is still running. */
  @Column({ type: 'int', nullable: true })
  status!: number | null;

  @Column({ type: 'jsonb', default: {} })
  headers!: Record<string, string>;

  /**
   * Whether the request's write committed: set in the write's own transaction, so a committed write's key is never
   * freed for a second run (README "Idempotent writes").
   */
  @Column({ type: 'boolean', default: false })
  committed!: boolean;

  /** What the committed write created (e.g. an order id), for a retry whose answer was lost. */
  @Column({ type: 'text', nullable: true })
  reference!: string | null;

  /** Response body, base64. */
  @Column({ type: 'text', nullable: true })
  body!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @Index()
  @Column({ type: 'timestamptz' })
  expires!: Date;
}
