import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AsyncLocalStorage } from 'async_hooks';
import type {
  DataSource,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';
import { Conflict } from '../errors';
import { IdempotencyQueries } from './idempotency.queries';

export const CONCURRENT_KEY_DETAIL = 'Concurrent request with idempotency key.';

/**
 * The keyed write a request performs, as the transactions of its handler see it (README "Idempotent writes": a
 * committed write keeps its key bound to its result).
 */
export interface IdempotentWrite {
  /** The request's `idempotency_record` id. */
  recordId: string;
  /** Whether the handler still runs; transactions after the answer (or outside the handler) are not its write. */
  open: boolean;
  /** What the write created (e.g. an order id), named by the service before its commit; stored with the key. */
  reference: string | null;
  /**
   * Set when this request resumes an earlier run of the same key whose write committed but whose answer was
   * lost: the reference that run stored. A resumed request may not commit a write.
   */
  resumed: string | null;
  /** Whether a transaction of this very request has committed with the record. */
  committed: boolean;
}

const writes = new AsyncLocalStorage<IdempotentWrite>();

/** Runs `fn` (the rest of a keyed request) with `write` as its keyed write. */
export function runIdempotentWrite<T>(write: IdempotentWrite, fn: () => T): T {
  return writes.run(write, fn);
}

/**
 * Names what the current keyed request created (e.g. the order's id), so that a retry after a lost answer can
 * answer with it ({@link resumedWriteResult}). Call inside the write's transaction, before its commit: the
 * reference is stored with the key by that commit. A no-op outside a keyed request.
 */
export function bindWriteResult(reference: string): void {
  const write = writes.getStore();
  if (write?.open) write.reference = reference;
}

/**
 * The reference an earlier run of this keyed request bound with its committed write, when this request is a
 * retry of a run whose answer was lost (server or database failure after the commit); null otherwise. A service
 * that binds references answers a resumed request by presenting that object instead of writing again.
 */
export function resumedWriteResult(): string | null {
  const write = writes.getStore();
  return write?.open ? write.resumed : null;
}

/**
 * Binds the idempotency key to every write transaction of a keyed request, in that transaction (README
 * "Idempotent writes"): just before COMMIT of an outermost transaction that wrote something (it has a transaction
 * id), the request's `idempotency_record` row is marked `committed` (with the bound reference). So the change and
 * the key's binding commit together or not at all, whatever happens after (connection cut, process stopped,
 * database restarted): the record of a committed write is never freed for a second run, and a retry resumes it.
 * When the record is gone or already bound by another run (taken over, or this request resumes a committed
 * run), the transaction is rolled back instead with 409 `Concurrent request with idempotency key.`
 * (`Retry-After: 5`). Writes outside TypeORM transactions (single auto-committed statements) are not covered.
 */
@Injectable()
export class IdempotentCommits implements EntitySubscriberInterface {
  private readonly bound = new WeakSet<QueryRunner>();

  constructor(
    @InjectDataSource() db: DataSource,
    private readonly queries: IdempotencyQueries,
  ) {
    db.subscribers.push(this);
  }

  async beforeTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    const write = writes.getStore();
    const runner = event.queryRunner;
    this.bound.delete(runner);
    // Depth 1: the outermost transaction (savepoints of nested ones are released at depth > 1). TypeORM keeps
    // the depth in a protected field of its query runners.
    const depth = (runner as unknown as { transactionDepth?: number }).transactionDepth;
    if (!write?.open || depth !== 1) return;
    if (!(await this.queries.transactionWrote(runner.manager))) return;
    const bound = await this.queries.bindCommitted(
      runner.manager,
      write.recordId,
      write.reference,
      write.committed,
    );
    if (bound !== 1) throw new Conflict(CONCURRENT_KEY_DETAIL, 5);
    this.bound.add(runner);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const write = writes.getStore();
    if (write && this.bound.delete(event.queryRunner)) write.committed = true;
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    this.bound.delete(event.queryRunner);
  }
}
