import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** `waiting` (queued), `running`, `succeeded`, `failed` (architecture.md "Async tasks"). */
export type TaskState = 'waiting' | 'running' | 'succeeded' | 'failed';

/**
 * One asynchronous task (an export, a shred, an invoice rendering): the row clients poll through the spec's
 * 202/409/410/417 endpoints. Created with its queue job (the job id is the task id) and updated by the worker.
 */
@Entity('async_task')
@Index('ix_async_task_state_started', ['state', 'started'])
export class AsyncTask {
  /** Random UUID: unguessable, used in URLs. */
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** What the task does (`shredder.export`, `diagnostic.sleep`, ...); also the job name. */
  @Column({ type: 'varchar', length: 64 })
  kind!: string;

  @Column({ type: 'varchar', length: 32 })
  queue!: string;

  /** Credential that started the task: `team_token` or `user`, and its id; only it may poll the task. */
  @Column({ type: 'varchar', length: 16 })
  credentialKind!: string;

  @Column({ type: 'int' })
  credentialId!: number;

  @Column({ type: 'int', nullable: true })
  organizerId!: number | null;

  @Column({ type: 'int', nullable: true })
  eventId!: number | null;

  @Column({ type: 'varchar', length: 10, default: 'waiting' })
  state!: TaskState;

  /** Input of the task (JSON, as the starting endpoint validated it). */
  @Column({ type: 'jsonb', default: {} })
  input!: Record<string, unknown>;

  /** Failure message for clients, or a short success note. */
  @Column({ type: 'text', nullable: true })
  message!: string | null;

  /** File the task produced (export, PDF), in `stored_file`. */
  @Column({ type: 'uuid', nullable: true })
  resultFileId!: string | null;

  /** Progress in percent (0-100) while running. */
  @Column({ type: 'smallint', nullable: true })
  progress!: number | null;

  /** Runs started so far (a worker that died mid-run leaves its run counted). */
  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  started!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  finished!: Date | null;

  /** After this moment the task is gone for clients (404/410) and the scheduler deletes it. */
  @Index()
  @Column({ type: 'timestamptz' })
  expires!: Date;
}
