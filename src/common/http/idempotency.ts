import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'crypto';
import type { NextFunction, Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { API_PREFIX } from './route-registry';

/** How long a stored response is replayed (compat §1.8). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A first request still "running" after this long is considered crashed and may be taken over. */
const STALE_RUNNING_MS = 10 * 60 * 1000;
/** Answers that are never stored, so the client may retry with the same key. */
const NOT_STORED = new Set([409, 429, 503]);
/** Response headers worth replaying. */
const REPLAYED_HEADERS = ['content-type', 'location', 'retry-after', 'last-modified', 'x-page-generated'];
const METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface RawBodyRequest extends Request {
  rawBody?: Buffer;
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

interface StoredRow {
  id: string;
  fingerprint: string;
  status: number | null;
  headers: Record<string, string>;
  body: string | null;
  created: Date;
  expires: Date;
}

/**
 * `X-Idempotency-Key` on every POST/PUT/PATCH/DELETE under `/api/v1/` (compat §1.8):
 * - the first response for (credential, key) is stored for 24 hours and replayed byte for byte on repeats;
 * - a repeat while the first request runs answers 409 `Concurrent request with idempotency key.` with
 *   `Retry-After: 5`;
 * - 409, 429 and 503 answers are not stored, so the same key can be retried;
 * - better than pretix: a repeat with the same key but a different method, path or body answers 422 instead of
 *   replaying an unrelated response.
 * The store is a PostgreSQL table; the unique (credential, key) index makes concurrent first requests safe.
 */
@Injectable()
export class IdempotencyMiddleware {
  private readonly logger = new Logger('Idempotency');

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Express middleware function. */
  handler() {
    return (req: RawBodyRequest, res: Response, next: NextFunction): void => {
      const key = req.headers['x-idempotency-key'];
      if (
        typeof key !== 'string' ||
        key === '' ||
        !METHODS.has(req.method) ||
        !req.path.startsWith(`/${API_PREFIX}/`)
      ) {
        next();
        return;
      }
      this.handle(req, res, next, key).catch((err: unknown) => next(err));
    };
  }

  private async handle(req: RawBodyRequest, res: Response, next: NextFunction, key: string): Promise<void> {
    if (key.length > 255) {
      res.status(400).json({ detail: 'The idempotency key may have at most 255 characters.' });
      return;
    }
    const credential = sha256(req.headers.authorization ?? '');
    const fingerprint = sha256(
      Buffer.concat([Buffer.from(`${req.method} ${req.originalUrl}\n`), req.rawBody ?? Buffer.alloc(0)]),
    );
    for (let attempt = 0; attempt < 2; attempt++) {
      const inserted: { id: string }[] = await this.db.query(
        `INSERT INTO idempotency_record (credential_hash, key, fingerprint, status, headers, expires)
         VALUES ($1, $2, $3, NULL, '{}', now() + ($4 || ' milliseconds')::interval)
         ON CONFLICT (credential_hash, key) DO NOTHING RETURNING id`,
        [credential, key, fingerprint, String(IDEMPOTENCY_TTL_MS)],
      );
      if (inserted.length > 0) {
        this.capture(res, inserted[0].id);
        next();
        return;
      }
      const rows: StoredRow[] = await this.db.query(
        `SELECT id, fingerprint, status, headers, body, created, expires FROM idempotency_record
          WHERE credential_hash = $1 AND key = $2`,
        [credential, key],
      );
      const row = rows[0];
      if (!row) continue; // deleted in between (not stored): try to become the first request
      const stale = row.status === null && Date.now() - new Date(row.created).getTime() > STALE_RUNNING_MS;
      if (new Date(row.expires).getTime() < Date.now() || stale) {
        await this.db.query('DELETE FROM idempotency_record WHERE id = $1', [row.id]);
        continue;
      }
      if (row.status === null) {
        res.setHeader('Retry-After', '5');
        res.status(409).json({ detail: 'Concurrent request with idempotency key.' });
        return;
      }
      if (row.fingerprint !== fingerprint) {
        res.status(422).json({
          detail: 'This idempotency key was already used for a different request (method, path or body).',
        });
        return;
      }
      for (const [name, value] of Object.entries(row.headers)) res.setHeader(name, value);
      res.status(row.status);
      res.end(row.body ? Buffer.from(row.body, 'base64') : undefined);
      return;
    }
    res.setHeader('Retry-After', '5');
    res.status(409).json({ detail: 'Concurrent request with idempotency key.' });
  }

  /**
   * Records the response of the first request (or forgets it for 409/429/503) before it is sent, so that a
   * repeat arriving right after the response always finds it stored.
   */
  private capture(res: Response, id: string): void {
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
      this.store(res, id, Buffer.concat(chunks))
        .catch((err: unknown) => this.logger.error(`storing idempotent response failed: ${String(err)}`))
        .finally(() => end(chunk, ...rest));
      return res;
    }) as Response['end'];
    res.on('close', () => {
      if (!res.writableFinished) {
        this.db
          .query('DELETE FROM idempotency_record WHERE id = $1 AND status IS NULL', [id])
          .catch((err: unknown) => this.logger.error(`releasing idempotency key failed: ${String(err)}`));
      }
    });
  }

  private async store(res: Response, id: string, body: Buffer): Promise<void> {
    const status = res.statusCode;
    if (NOT_STORED.has(status)) {
      await this.db.query('DELETE FROM idempotency_record WHERE id = $1', [id]);
      return;
    }
    const headers = Object.fromEntries(
      REPLAYED_HEADERS.filter((h) => res.getHeader(h) !== undefined).map((h) => [
        h,
        String(res.getHeader(h)),
      ]),
    );
    await this.db.query(
      'UPDATE idempotency_record SET status = $2, headers = $3::jsonb, body = $4 WHERE id = $1',
      [id, status, JSON.stringify(headers), body.toString('base64')],
    );
  }
}

/** Deletes expired idempotency records (run by the worker's scheduler tick); returns how many. */
export async function purgeExpiredIdempotencyRecords(db: DataSource): Promise<number> {
  const result: [unknown[], number] = await db.query('DELETE FROM idempotency_record WHERE expires < now()');
  return result[1];
}
