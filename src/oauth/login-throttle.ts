import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { OAuthLoginFailure } from './oauth-login-failure.entity';

/** Failed logins allowed per e-mail address within {@link LOGIN_FAILURE_WINDOW_S} (issue 12). */
export const LOGIN_FAILURE_LIMIT = 10;
/** Window of the login throttle, seconds (15 minutes). */
export const LOGIN_FAILURE_WINDOW_S = 900;

/**
 * Throttle of the login page by e-mail address (issue 12): after {@link LOGIN_FAILURE_LIMIT} failed logins within
 * {@link LOGIN_FAILURE_WINDOW_S}, every further try for that address answers 429 until the oldest failure leaves
 * the window. Successful logins do not count. Counted in PostgreSQL, so every replica sees the same count.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @InjectRepository(OAuthLoginFailure) private readonly failures: Repository<OAuthLoginFailure>,
  ) {}

  /** Seconds until `email` may try again, or null when it may try now. */
  async retryAfter(email: string): Promise<number | null> {
    const rows: { n: number; wait: number | null }[] = await this.failures.query(
      `SELECT count(*)::int AS n,
              ceil(extract(epoch FROM min(created) + make_interval(secs => $2) - now()))::int AS wait
         FROM oauth_login_failure WHERE email = $1 AND created > now() - make_interval(secs => $2)`,
      [email.trim().toLowerCase(), LOGIN_FAILURE_WINDOW_S],
    );
    const { n, wait } = rows[0];
    return n >= LOGIN_FAILURE_LIMIT ? Math.max(1, wait ?? 1) : null;
  }

  /** Counts one failed login of `email`. */
  async failed(email: string): Promise<void> {
    await this.failures.insert({ email: email.trim().toLowerCase().slice(0, 254) });
  }
}
