import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import { Throttled } from '../common/errors';
import { AppConfig } from '../config/app-config';

const THROTTLER_NAME = 'auth-failures';

/**
 * Rate limit of failed authentications per client address (issue 7 "Abuse"), counted in `@nestjs/throttler`'s
 * storage: only presented credentials that fail count; past `AUTH_FAILURE_LIMIT` failures within
 * `AUTH_FAILURE_WINDOW_S` seconds, further failures answer 429 with `Retry-After` until the window has passed. A
 * request whose credential is valid is never throttled. Counts are per API process.
 */
@Injectable()
export class FailedAuthThrottle {
  private readonly windowMs: number;

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly config: AppConfig,
  ) {
    this.windowMs = config.authFailureWindowS * 1000;
  }

  /**
   * Counts one failed authentication of `address`.
   * @returns null within the limit, else the seconds until the address may fail again (for `Retry-After`)
   */
  async failed(address: string): Promise<number | null> {
    const record = await this.storage.increment(
      `auth-failure:${address}`,
      this.windowMs,
      this.config.authFailureLimit,
      this.windowMs,
      THROTTLER_NAME,
    );
    return record.isBlocked ? Math.max(1, record.timeToBlockExpire) : null;
  }
}

/** 429 in DRF's words (`{"detail": "Request was throttled. Expected available in N seconds."}`, `Retry-After`). */
export function throttled(seconds: number): Throttled {
  return new Throttled(seconds);
}
