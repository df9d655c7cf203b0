import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { AppConfig } from '../../config/app-config';
import { IdempotencyQueries } from './idempotency.queries';

/**
 * Advisory-lock keys of idempotency records: the record id moved above the 32-bit range that the other advisory
 * locks of this service use (`hashtext(...)`), so the two never collide.
 */
export const idempotencyLockKey = (id: string): string => (BigInt(id) + (1n << 40n)).toString();

/**
 * The liveness of running idempotent requests (compat §1.8; README "Idempotent writes": a client that gives
 * up leaves no key stuck). A dedicated PostgreSQL session of this process inserts each first request's record and,
 * in the same statement, takes a session-level advisory lock on it; the lock is released when the response is
 * stored. The lock lives exactly as long as this process and its session: when the process dies, or the database
 * restarts, PostgreSQL drops it, and a retry that finds a record still "running" but unlocked takes the key over
 * at once (instead of 409 for minutes for an order that was never created).
 */
@Injectable()
export class IdempotencyLocks implements OnApplicationShutdown {
  private readonly logger = new Logger('Idempotency');
  private session: Promise<Client> | null = null;
  /** Records locked by requests of this process (session-level advisory locks are reentrant within the session). */
  private readonly held = new Set<string>();

  constructor(
    private readonly config: AppConfig,
    private readonly queries: IdempotencyQueries,
  ) {}

  /**
   * Inserts the record of a first request and locks it, in one statement on the lock session.
   * @returns the new record's id, or null when (credential, key) already has a record
   */
  async insertLocked(
    credential: string,
    key: string,
    fingerprint: string,
    ttlMs: number,
  ): Promise<string | null> {
    const rows = await this.queries.insertLocked(await this.client(), credential, key, fingerprint, ttlMs);
    const id = rows[0]?.id ?? null;
    if (id !== null) this.held.add(id);
    return id;
  }

  /**
   * Locks an existing record on the lock session when nobody holds its lock, neither another process nor a
   * request of this one (a committed record whose request ended without storing its answer, resumed by a retry).
   * @returns whether the lock was had
   */
  async tryLock(id: string): Promise<boolean> {
    if (this.held.has(id)) return false;
    this.held.add(id);
    let locked = false;
    try {
      locked = await this.queries.tryAdvisoryLock(await this.client(), idempotencyLockKey(id));
    } finally {
      if (!locked) this.held.delete(id);
    }
    return locked;
  }

  /** Releases the lock of a record whose request has ended (its response stored or forgotten). */
  async release(id: string): Promise<void> {
    this.held.delete(id);
    await this.queries.advisoryUnlock(await this.client(), idempotencyLockKey(id));
  }

  onApplicationShutdown(): Promise<void> {
    const session = this.session;
    this.session = null;
    return session ? session.then((c) => c.end()).catch(() => undefined) : Promise.resolve();
  }

  /** The lock session, (re)connected on demand; a broken session is dropped, and its locks die with it. */
  private client(): Promise<Client> {
    if (!this.session) {
      const client = new Client({
        connectionString: this.config.databaseUrl,
        application_name: 'idempotency',
      });
      const drop = () => {
        if (this.session === connecting) this.session = null;
      };
      client.on('error', (err) => {
        this.logger.warn(`idempotency lock session lost: ${err.message}`);
        drop();
      });
      client.on('end', drop);
      const connecting: Promise<Client> = client.connect().then(() => client);
      connecting.catch(drop);
      this.session = connecting;
    }
    return this.session;
  }
}
