import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import connectPgSimple from 'connect-pg-simple';
import cookieParser from 'cookie-parser';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'crypto';
import { doubleCsrf } from 'csrf-csrf';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import session from 'express-session';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';

/** Where the page cookies are sent: the OAuth pages only, never the API. */
export const OAUTH_COOKIE_PATH = '/api/v1/oauth';
/** Name of the session cookie (HttpOnly, SameSite=Lax, Secure over https). */
export const SESSION_COOKIE = 'oauth_session';
/** Name of the CSRF cookie (double-submit, bound to the session when logged in). */
export const CSRF_COOKIE = 'oauth_csrf';
/** Name of the hidden form input carrying the CSRF token. */
export const CSRF_FIELD = 'csrf_token';
/** Lifetime of a login session, milliseconds. */
const SESSION_MAX_AGE_MS = 12 * 60 * 60 * 1000;

declare module 'express-session' {
  interface SessionData {
    /** The logged-in user. */
    userId?: number;
  }
}

/**
 * Sessions and CSRF protection of the OAuth pages (README "OAuth 2.0 applications"): `express-session` with the
 * PostgreSQL store of `connect-pg-simple` (table `oauth_session`, no state in process memory), `cookie-parser`,
 * and `csrf-csrf`'s double-submit tokens bound to the session (before login: to the anonymous visitor, which
 * protects the login form itself). Expired sessions are deleted by the worker's scheduler.
 */
@Injectable()
export class OAuthSessions {
  private readonly secret: string;
  private readonly csrf: ReturnType<typeof doubleCsrf>;
  readonly middleware: RequestHandler[];

  constructor(config: AppConfig, @InjectDataSource() db: DataSource) {
    this.secret = config.sessionSecret || randomBytes(32).toString('hex');
    const PgStore = connectPgSimple(session);
    const pool = (db.driver as unknown as { master: Pool }).master;
    const store = new PgStore({
      pool,
      tableName: 'oauth_session',
      createTableIfMissing: false,
      pruneSessionInterval: false,
    });
    this.csrf = doubleCsrf({
      getSecret: () => this.secret,
      getSessionIdentifier: (req) => (req.session?.userId ? req.sessionID : 'anonymous'),
      cookieName: CSRF_COOKIE,
      cookieOptions: { sameSite: 'lax', path: OAUTH_COOKIE_PATH, secure: false, httpOnly: true },
      getCsrfTokenFromRequest: (req) => {
        const value = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
        return typeof value === 'string' ? value : undefined;
      },
    });
    this.middleware = [
      cookieParser(),
      session({
        store,
        secret: this.secret,
        name: SESSION_COOKIE,
        resave: false,
        saveUninitialized: false,
        rolling: false,
        // Secure cookies follow express's `trust proxy` (TRUST_PROXY), not any X-Forwarded-Proto.
        proxy: undefined,
        cookie: {
          httpOnly: true,
          sameSite: 'lax',
          secure: 'auto',
          path: OAUTH_COOKIE_PATH,
          maxAge: SESSION_MAX_AGE_MS,
        },
      }),
    ];
  }

  /** A CSRF token for a form of this request (the cookie's one while it is valid for this session; sets the cookie). */
  token(req: Request, res: Response): string {
    return this.csrf.generateCsrfToken(req, res, {
      overwrite: false,
      cookieOptions: { sameSite: 'lax', path: OAUTH_COOKIE_PATH, secure: req.secure, httpOnly: true },
    });
  }

  /**
   * Whether the posted form carries a valid CSRF token for this session: the form's token equals the cookie's,
   * and the cookie's HMAC (csrf-csrf's format `<hmac>.<random>` over the session identifier) is right. Both
   * comparisons are constant-time (`crypto.timingSafeEqual` over SHA-256 digests, so lengths do not leak either;
   * README "Security"), unlike the library's own `===`.
   */
  valid(req: Request): boolean {
    const cookie = (req.cookies as Record<string, unknown> | undefined)?.[CSRF_COOKIE];
    const sent = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
    if (typeof cookie !== 'string' || typeof sent !== 'string' || cookie === '' || sent === '') return false;
    const sameToken = constantTimeEqual(cookie, sent);
    const [mac, random, ...rest] = cookie.split('.');
    if (!mac || !random || rest.length > 0) return false;
    const id = req.session?.userId ? req.sessionID : 'anonymous';
    const expected = createHmac('sha256', this.secret)
      .update([id.length, id, random.length, random].join('!'))
      .digest('hex');
    return constantTimeEqual(mac, expected) && sameToken;
  }

  /** The logged-in user's id, or null. */
  userOf(req: Request): number | null {
    return req.session?.userId ?? null;
  }

  /** Logs `userId` in on a fresh session id (no session fixation). */
  login(req: Request, userId: number): Promise<void> {
    return new Promise((resolve, reject) => {
      req.session.regenerate((err) => {
        if (err) return reject(err as Error);
        req.session.userId = userId;
        req.session.save((e) => (e ? reject(e as Error) : resolve()));
      });
    });
  }

  /** Ends the session. */
  logout(req: Request, res: Response): Promise<void> {
    res.clearCookie(SESSION_COOKIE, { path: OAUTH_COOKIE_PATH });
    return new Promise((resolve, reject) => req.session.destroy((e) => (e ? reject(e as Error) : resolve())));
  }
}

/** Compares two strings in time independent of where they differ (and of their lengths). */
function constantTimeEqual(a: string, b: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** Express middleware chain of {@link OAuthSessions} as one handler (for `consumer.apply`). */
export function chain(handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err || i >= handlers.length) return next(err);
      handlers[i++](req, res, step);
    };
    step();
  };
}
