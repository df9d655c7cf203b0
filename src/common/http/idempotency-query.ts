import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'crypto';
import { DataSource } from 'typeorm';
import { Conflict, NotFound, StoredResponse } from '../errors';
import { CONCURRENT_KEY_DETAIL } from './idempotent-commit';
import { IdempotencyQueries } from './idempotency.queries';

/** pretix's answer to a query without a key. */
export const NO_KEY_DETAIL = 'No idempotency key given.';
/** pretix's answer to a key this credential has not used (or whose record expired). */
export const KEY_NOT_SEEN_DETAIL = 'Idempotency key not seen before.';

/**
 * `GET /api/v1/idempotency_query` (pretix `IdempotencyQueryView`; compat §1.8): what a write with an idempotency
 * key answered, asked for without repeating the write. The key comes as `?key=` (pretix) or as the
 * `X-Idempotency-Key` header; it is looked up for the request's credential (SHA-256 of its `Authorization` header,
 * as the interceptor stores it).
 */
@Injectable()
export class IdempotencyQuery {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queries: IdempotencyQueries,
  ) {}

  /**
   * The stored answer of (credential, key), replayed byte for byte with its status and headers (one statement).
   * @throws NotFound {@link NO_KEY_DETAIL} without a key, {@link KEY_NOT_SEEN_DETAIL} for an unknown or expired key
   * @throws Conflict `Concurrent request with idempotency key.` (409, `Retry-After: 5`) while the write runs or
   *   has no stored answer yet
   * @throws StoredResponse the stored answer
   */
  async answer(authorization: string | undefined, key: string | undefined): Promise<never> {
    if (!key) throw new NotFound(NO_KEY_DETAIL);
    const credential = createHash('sha256')
      .update(authorization ?? '')
      .digest('hex');
    const row = await this.queries.read(this.db.manager, credential, key);
    if (!row || new Date(row.expires).getTime() < Date.now()) throw new NotFound(KEY_NOT_SEEN_DETAIL);
    if (row.status === null) throw new Conflict(CONCURRENT_KEY_DETAIL, 5);
    throw new StoredResponse(row.status, row.headers, row.body ? Buffer.from(row.body, 'base64') : null);
  }
}
