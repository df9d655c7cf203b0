import { Injectable, Logger } from '@nestjs/common';
import { Throttled } from '../common/errors';
import { RedisCounters } from '../common/rate-limit/redis-counters';
import { AppConfig } from '../config/app-config';

/**
 * Rate limit of failed authentications per client address (README "Security", "Client addresses and proxies"):
 * only presented credentials that fail count; past `AUTH_FAILURE_LIMIT` failures within `AUTH_FAILURE_WINDOW_S`
 * seconds (a fixed window from the first failure), further failures answer 429 with `Retry-After` until the window
 * has passed. A request whose credential is valid is never throttled. Counted in Redis ({@link RedisCounters}: one
 * atomic INCR + expiry), so every replica shares the count. The address is express's `req.ip`, which believes
 * `X-Forwarded-For` only from the proxies `TRUST_PROXY` names. While Redis is down, failures are not counted
 * (the 401 stands; a warning is logged).
 */
@Injectable()
export class FailedAuthThrottle {
  private readonly logger = new Logger('FailedAuthThrottle');

  constructor(
    private readonly counters: RedisCounters,
    private readonly config: AppConfig,
  ) {}

  /**
   * Counts one failed authentication of `address`.
   * @returns null within the limit, else the seconds until the address may fail again (for `Retry-After`)
   */
  async failed(address: string): Promise<number | null> {
    try {
      const [state] = await this.counters.hit([
        { key: `auth-failure:${address}`, windowMs: this.config.authFailureWindowS * 1000 },
      ]);
      return state.count > this.config.authFailureLimit ? Math.max(1, Math.ceil(state.ttlMs / 1000)) : null;
    } catch (err) {
      this.logger.warn(`failed authentication of ${address} not counted: ${(err as Error).message}`);
      return null;
    }
  }
}

/** 429 in DRF's words (`{"detail": "Request was throttled. Expected available in N seconds."}`, `Retry-After`). */
export function throttled(seconds: number): Throttled {
  return new Throttled(seconds);
}
