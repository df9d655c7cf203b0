import { Injectable } from '@nestjs/common';
import { createHash } from 'crypto';
import { ServiceUnavailable } from '../common/errors';
import { CounterHit, RedisCounters } from '../common/rate-limit/redis-counters';

/**
 * Login attempts allowed per e-mail address (account) within {@link LOGIN_FAILURE_WINDOW_S} (README "Security").
 */
export const LOGIN_FAILURE_LIMIT = 10;
/** Login attempts allowed per client address within {@link LOGIN_FAILURE_WINDOW_S} (README "Security"). */
export const LOGIN_ADDRESS_LIMIT = 50;
/** Window of the login throttle, seconds (15 minutes, from the first attempt). */
export const LOGIN_FAILURE_WINDOW_S = 900;

const accountKey = (email: string): string =>
  `login-account:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
const addressKey = (address: string): string => `login-address:${address}`;

/**
 * Throttle of the login page (README "Security", "Logging in"), per account (e-mail address) and per client
 * address: every attempt is counted atomically in Redis *before* the password is checked, so parallel attempts
 * cannot all pass a check made before any of them failed; past {@link LOGIN_FAILURE_LIMIT} attempts for an account
 * or {@link LOGIN_ADDRESS_LIMIT} from an address within {@link LOGIN_FAILURE_WINDOW_S}, the answer is 429 until
 * the window ends, without checking the password. A successful login gives its attempt back, so successful logins
 * do not count. Shared by every replica (Redis).
 */
@Injectable()
export class LoginThrottle {
  constructor(private readonly counters: RedisCounters) {}

  /**
   * Counts one login attempt of `email` from `address`.
   * @returns null when the password may be checked, else the seconds until the next attempt is allowed
   * @throws ServiceUnavailable (503) while Redis does not answer: logins fail closed rather than go uncounted
   */
  async attempt(email: string, address: string): Promise<number | null> {
    const windowMs = LOGIN_FAILURE_WINDOW_S * 1000;
    const hits: CounterHit[] = [
      { key: accountKey(email), windowMs },
      { key: addressKey(address), windowMs },
    ];
    let account, client;
    try {
      [account, client] = await this.counters.hit(hits);
    } catch {
      throw new ServiceUnavailable();
    }
    const over = [
      account.count > LOGIN_FAILURE_LIMIT ? account.ttlMs : 0,
      client.count > LOGIN_ADDRESS_LIMIT ? client.ttlMs : 0,
    ];
    const waitMs = Math.max(...over);
    return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : null;
  }

  /** Gives back the attempt of a login that succeeded (best effort: a lost give-back only counts one attempt). */
  async succeeded(email: string, address: string): Promise<void> {
    await this.counters.undo([accountKey(email), addressKey(address)]).catch(() => undefined);
  }
}
