import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'crypto';
import type { Request, Response } from 'express';
import { from, Observable, switchMap } from 'rxjs';
import { DataSource } from 'typeorm';
import { Conflict, InvalidRequest, StoredResponse, UnprocessableRequest } from '../errors';
import { CONCURRENT_KEY_DETAIL, IdempotentWrite, runIdempotentWrite } from './idempotent-commit';
import { IdempotencyLocks, idempotencyLockKey } from './idempotency-locks';
import { IdempotencyQueries, IdempotencyRecordRow } from './idempotency.queries';
import { API_PREFIX } from './route-registry';

/** How long a stored response is replayed (compat §1.8). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Longest idempotency key (characters). */
export const IDEMPOTENCY_KEY_MAX = 255;
/** Response headers worth replaying. */
const REPLAYED_HEADERS = [
  'content-type',
  'location',
  'retry-after',
  'last-modified',
  'x-page-generated',
  'etag',
];
const METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Paths whose answers are never stored: OAuth token responses would sit in clear in the table. */
const NEVER_STORED = `/${API_PREFIX}/oauth/`;
const CONCURRENT = CONCURRENT_KEY_DETAIL;
/**
 * A committed write whose answer was lost and that bound no reference to answer with (README "Idempotent writes").
 */
export const ANSWER_LOST_DETAIL =
  'The request with this idempotency key was carried out, but its answer was lost. Read the resource to see the result.';

export interface RawBodyRequest extends Request {
  rawBody?: Buffer;
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/**
 * Whether an answer is stored for replay: not 409 (a lock timeout or a concurrent key), 429 or any 5xx, so the
 * client may retry them with the same key and the request runs again.
 */
export const storesAnswer = (status: number): boolean => status !== 409 && status !== 429 && status < 500;

/** Whether a request with an idempotency key takes part: writes under `/api/v1/`, never `/api/v1/oauth/`. */
export const idempotentRequest = (method: string, path: string): boolean =>
  METHODS.has(method) && path.startsWith(`/${API_PREFIX}/`) && !path.startsWith(NEVER_STORED);

type StoredRow = IdempotencyRecordRow;

/**
 * `X-Idempotency-Key` on every POST/PUT/PATCH/DELETE under `/api/v1/` (compat §1.8), as a global interceptor, so
 * it runs after authentication: a request that fails authentication stores nothing.
 * - The first response for (credential, key) is stored for 24 hours and replayed byte for byte on repeats, also
 *   when the first client gave up before the answer (the record is never dropped because the connection closed).
 * - A repeat while the first request runs answers 409 `Concurrent request with idempotency key.` with
 *   `Retry-After: 5`. "Runs" means: its record is locked by the live session of the process serving it
 *   ({@link IdempotencyLocks}); a record left running by a dead process or a restarted database is taken over at
 *   once.
 * - 409, 429 and 5xx answers are not stored; `/api/v1/oauth/` is never stored.
 * - Better than pretix: a repeat with the same key but another method, path or body answers 422.
 * - A write that committed keeps its key (README "Idempotent writes"): the record is marked `committed` in the
 *   write's own transaction ({@link IdempotentCommits}), and a committed record is never freed, whatever the
 *   answer was (a 5xx after the commit, a cut connection, a stopped process or database). A retry whose first run
 *   committed but stored no answer resumes it: the handler runs again with {@link resumedWriteResult} naming what
 *   the first run created, and answers with it (stored then); a write that bound no reference answers 409
 *   {@link ANSWER_LOST_DETAIL} (no `Retry-After`).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly locks: IdempotencyLocks,
    private readonly queries: IdempotencyQueries,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<RawBodyRequest>();
    const key = req.headers['x-idempotency-key'];
    if (typeof key !== 'string' || key === '' || !idempotentRequest(req.method, req.path)) {
      return next.handle();
    }
    const res = context.switchToHttp().getResponse<Response>();
    return from(this.begin(req, res, key)).pipe(
      switchMap((write) => runIdempotentWrite(write, () => next.handle())),
    );
  }

  /**
   * Becomes the first request for the key (record inserted and locked, response captured), or resumes a
   * committed run whose answer was lost, or throws what the client gets instead: the stored response, 409 while
   * the first runs, 422 for another request under the key.
   */
  private async begin(req: RawBodyRequest, res: Response, key: string): Promise<IdempotentWrite> {
    if (key.length > IDEMPOTENCY_KEY_MAX) {
      throw new InvalidRequest(`The idempotency key may have at most ${IDEMPOTENCY_KEY_MAX} characters.`);
    }
    const credential = sha256(req.headers.authorization ?? '');
    const fingerprint = sha256(
      Buffer.concat([Buffer.from(`${req.method} ${req.originalUrl}\n`), req.rawBody ?? Buffer.alloc(0)]),
    );
    for (let attempt = 0; attempt < 3; attempt++) {
      const id = await this.locks.insertLocked(credential, key, fingerprint, IDEMPOTENCY_TTL_MS);
      if (id !== null) return this.capture(res, id, null);
      const row = await this.read(credential, key);
      if (!row) continue; // forgotten in between (not stored): try to become the first request
      if (new Date(row.expires).getTime() < Date.now()) {
        await this.queries.deleteRecord(this.db.manager, row.id);
        continue;
      }
      if (row.status === null && !row.committed) {
        if (await this.takeOverDead(row.id)) continue;
        throw new Conflict(CONCURRENT, 5);
      }
      if (row.fingerprint !== fingerprint) {
        throw new UnprocessableRequest(
          'This idempotency key was already used for a different request (method, path or body).',
        );
      }
      if (row.status === null) return this.resume(res, row);
      throw new StoredResponse(row.status, row.headers, row.body ? Buffer.from(row.body, 'base64') : null);
    }
    throw new Conflict(CONCURRENT, 5);
  }

  /** The record of (credential, key), or of the record id alone. */
  private async read(credentialOrId: string, key?: string): Promise<StoredRow | undefined> {
    return this.queries.read(this.db.manager, credentialOrId, key);
  }

  /**
   * Resumes a record whose write committed but whose request ended without storing an answer: locks it (409
   * while another request holds it), then answers the stored response if one came in between, 409
   * {@link ANSWER_LOST_DETAIL} when the write bound no reference, else lets the handler answer with the reference.
   */
  private async resume(res: Response, row: StoredRow): Promise<IdempotentWrite> {
    if (!(await this.locks.tryLock(row.id))) throw new Conflict(CONCURRENT, 5);
    let now: StoredRow | undefined;
    try {
      now = await this.read(row.id);
    } catch (err) {
      await this.locks.release(row.id).catch(() => undefined);
      throw err;
    }
    if (!now || now.status !== null || now.reference === null) {
      await this.locks.release(row.id);
      if (now?.status != null) {
        throw new StoredResponse(now.status, now.headers, now.body ? Buffer.from(now.body, 'base64') : null);
      }
      if (!now) throw new Conflict(CONCURRENT, 5);
      throw new Conflict(ANSWER_LOST_DETAIL);
    }
    this.logger.warn(`idempotency record ${row.id}: committed, answer lost; resumed`);
    return this.capture(res, row.id, now.reference);
  }

  /**
   * Deletes a running record whose owner is gone: nobody holds its advisory lock (the owner's session ended with
   * its process or the database). A live owner stores its answer before it unlocks, so a record found unlocked
   * and still running has no owner.
   * @returns whether the record was taken over
   */
  private takeOverDead(id: string): Promise<boolean> {
    return this.db.transaction(async (em) => {
      if (!(await this.queries.tryTransactionLock(em, idempotencyLockKey(id)))) return false;
      await this.queries.deleteRunning(em, id);
      this.logger.warn(`idempotency record ${id} left running by a dead request: taken over`);
      return true;
    });
  }

  /**
   * Records the response of the first request (or forgets it, see {@link storesAnswer}) before it is sent, so a
   * repeat arriving right after the response finds it stored; then releases the record's lock. Whether the
   * client is still connected does not matter.
   */
  private capture(res: Response, id: string, resumed: string | null): IdempotentWrite {
    const keyed: IdempotentWrite = { recordId: id, open: true, reference: null, resumed, committed: false };
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (Buffer.isBuffer(chunk)) chunks.push(chunk);
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
      else if (typeof chunk === 'string') {
        chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
      }
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      collect(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as Response['write'];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      collect(chunk, rest[0]);
      keyed.open = false;
      this.store(res, id, Buffer.concat(chunks))
        .catch((err: unknown) => this.logger.error(`storing idempotent response failed: ${String(err)}`))
        .then(() => this.locks.release(id))
        .catch((err: unknown) => this.logger.warn(`releasing idempotency lock failed: ${String(err)}`))
        .finally(() => end(chunk, ...rest));
      return res;
    }) as Response['end'];
    return keyed;
  }

  private async store(res: Response, id: string, body: Buffer): Promise<void> {
    const status = res.statusCode;
    if (!storesAnswer(status)) {
      // A committed write keeps its record (README "Idempotent writes"): the database knows, also when the
      // commit's outcome was unknown here (the row lock makes this wait for a commit still in progress).
      await this.queries.deleteUncommitted(this.db.manager, id);
      return;
    }
    const headers = Object.fromEntries(
      REPLAYED_HEADERS.filter((h) => res.getHeader(h) !== undefined).map((h) => [
        h,
        String(res.getHeader(h)),
      ]),
    );
    await this.queries.storeAnswer(this.db.manager, id, status, headers, body.toString('base64'));
  }
}

/** Deletes expired idempotency records (run by the worker's scheduler tick); returns how many. */
export async function purgeExpiredIdempotencyRecords(db: DataSource): Promise<number> {
  return new IdempotencyQueries().purgeExpired(db.manager);
}
