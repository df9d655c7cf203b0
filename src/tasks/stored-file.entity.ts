import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A generated file (invoice PDF, export, mail attachment) kept in PostgreSQL (architecture.md: PostgreSQL is the
 * system of record, generated files included), deleted by the scheduler after `expires`.
 */
@Entity('stored_file')
export class StoredFile {
  /** Random UUID (unguessable; appears in download URLs). */
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** What the file is (`export`, `invoice_pdf`, `mail_attachment`, ...). */
  @Column({ type: 'varchar', length: 32 })
  kind!: string;

  @Column({ type: 'varchar', length: 255 })
  filename!: string;

  @Column({ type: 'varchar', length: 127 })
  contentType!: string;

  @Column({ type: 'bytea' })
  content!: Buffer;

  /** Size in bytes. */
  @Column({ type: 'int' })
  size!: number;

  @Column({ type: 'int', nullable: true })
  organizerId!: number | null;

  /** The task that produced the file, if any. */
  @Index()
  @Column({ type: 'uuid', nullable: true })
  taskId!: string | null;

  /**
   * The credential that uploaded the file (`POST /api/v1/upload`: `team_token`, `user` or `device`, and its id);
   * only it may use the file. Null for generated files.
   */
  @Column({ type: 'varchar', length: 16, nullable: true })
  credentialKind!: string | null;

  @Column({ type: 'int', nullable: true })
  credentialId!: number | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  /** Null: kept until its owner deletes it. */
  @Index()
  @Column({ type: 'timestamptz', nullable: true })
  expires!: Date | null;
}
