import { Injectable } from '@nestjs/common';
import type { Client } from 'pg';
import type { EntityManager } from 'typeorm';

/** An `idempotency_record` row as the interceptor reads it (compat §1.8; `id` as text, bigint). */
export interface IdempotencyRecordRow {
  id: string;
  fingerprint: string;
  status: number | null;
  headers: Record<string, string>;
  body: string | null;
  expires: Date;
  committed: boolean;
  reference: string | null;
}

/**
 * The statements of idempotency keys (compat §1.8): the `idempotency_record` table and its advisory locks. The
 * record's session-level locks run on the dedicated lock session (a pg `Client`, first parameter of those
 * methods); the rest on the caller's EntityManager. Stateless.
 */
@Injectable()
export class IdempotencyQueries {
  /**
   * Inserts the record of a first request and takes the session-level advisory lock on it (`id + 2^40`), one
   * statement on the lock session. @returns the new id, or none when (credential, key) already has a record
   */
  async insertLocked(
    client: Client,
    credential: string,
    key: string,
    fingerprint: string,
    ttlMs: number,
  ): Promise<{ id: string }[]> {
    const result = await client.query(
      `WITH ins AS (
         INSERT INTO idempotency_record (credential_hash, key, fingerprint, status, headers, expires)
         VALUES ($1, $2, $3, NULL, '{}', now() + ($4 || ' milliseconds')::interval)
         ON CONFLICT (credential_hash, key) DO NOTHING RETURNING id)
       SELECT id::text AS id, pg_advisory_lock(id + 1099511627776) FROM ins`,
      [credential, key, fingerprint, String(ttlMs)],
    );
    return result.rows as { id: string }[];
  }

  /** Tries the session-level advisory lock `lockKey` on the lock session. @returns whether it was had */
  async tryAdvisoryLock(client: Client, lockKey: string): Promise<boolean> {
    const result = await client.query('SELECT pg_try_advisory_lock($1::bigint) AS locked', [lockKey]);
    const rows = result.rows as { locked: boolean }[];
    return rows[0]?.locked === true;
  }

  /** Releases the session-level advisory lock `lockKey` on the lock session. */
  async advisoryUnlock(client: Client, lockKey: string): Promise<void> {
    await client.query('SELECT pg_advisory_unlock($1::bigint)', [lockKey]);
  }

  /** Deletes the record `id` (expired), whatever its state. */
  async deleteRecord(em: EntityManager, id: string): Promise<void> {
    await em.query('DELETE FROM idempotency_record WHERE id = $1', [id]);
  }

  /** The record of (credential, key), or of the record id alone when `key` is undefined; no lock. */
  async read(
    em: EntityManager,
    credentialOrId: string,
    key?: string,
  ): Promise<IdempotencyRecordRow | undefined> {
    const rows = await em.query<IdempotencyRecordRow[]>(
      `SELECT id::text AS id, fingerprint, status, headers, body, expires, committed, reference
         FROM idempotency_record WHERE ${key === undefined ? 'id = $1' : 'credential_hash = $1 AND key = $2'}`,
      key === undefined ? [credentialOrId] : [credentialOrId, key],
    );
    return rows[0];
  }

  /** Tries the transaction-level advisory lock `lockKey` in `em`'s transaction. @returns whether it was had */
  async tryTransactionLock(em: EntityManager, lockKey: string): Promise<boolean> {
    const [{ free }]: { free: boolean }[] = await em.query(
      'SELECT pg_try_advisory_xact_lock($1::bigint) AS free',
      [lockKey],
    );
    return free;
  }

  /** Deletes the record `id` when it still runs (no status) and did not commit a write. */
  async deleteRunning(em: EntityManager, id: string): Promise<void> {
    await em.query('DELETE FROM idempotency_record WHERE id = $1 AND status IS NULL AND NOT committed', [id]);
  }

  /** Deletes the record `id` unless a write committed with it (waits for the row lock of a commit in progress). */
  async deleteUncommitted(em: EntityManager, id: string): Promise<void> {
    await em.query('DELETE FROM idempotency_record WHERE id = $1 AND NOT committed', [id]);
  }

  /** Stores the answer (status, replayed headers, body in base64) of the record `id`. */
  async storeAnswer(
    em: EntityManager,
    id: string,
    status: number,
    headers: Record<string, string>,
    body: string,
  ): Promise<void> {
    await em.query(
      'UPDATE idempotency_record SET status = $2, headers = $3::jsonb, body = $4 WHERE id = $1',
      [id, status, JSON.stringify(headers), body],
    );
  }

  /** Deletes expired records. @returns how many */
  async purgeExpired(em: EntityManager): Promise<number> {
    const result: [unknown[], number] = await em.query(
      'DELETE FROM idempotency_record WHERE expires < now()',
    );
    return result[1];
  }

  /** Whether `em`'s transaction has written something (it has a transaction id). */
  async transactionWrote(em: EntityManager): Promise<boolean> {
    const [{ wrote }] = await em.query<{ wrote: boolean }[]>(
      'SELECT txid_current_if_assigned() IS NOT NULL AS wrote',
    );
    return wrote;
  }

  /**
   * Marks the running record `recordId` committed (with `reference` when given) in `em`'s transaction, unless it
   * is gone, answered, or committed by another run (`alreadyCommitted`: by this request). @returns rows updated
   */
  async bindCommitted(
    em: EntityManager,
    recordId: string,
    reference: string | null,
    alreadyCommitted: boolean,
  ): Promise<number> {
    const [, bound] = await em.query<[unknown, number]>(
      `UPDATE idempotency_record SET committed = true, reference = COALESCE($2, reference)
        WHERE id = $1 AND status IS NULL AND (NOT committed OR $3)`,
      [recordId, reference, alreadyCommitted],
    );
    return bound;
  }
}
