import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  QueryFailedError,
  QueryRunnerAlreadyReleasedError,
  QueryRunnerProviderAlreadyReleasedError,
} from 'typeorm';
import {
  BUSY_DETAIL,
  Conflict,
  DomainError,
  FieldConflict,
  InvalidRequest,
  LockTimeout,
  NotAuthenticated,
  NotFound,
  NotModified,
  PreconditionFailed,
  Refused,
  Gone,
  ServiceUnavailable,
  StoredResponse,
  CheckinRefused,
  TaskFailed,
  TaskNotReady,
  Throttled,
  UnprocessableRequest,
  ValidationFailed,
} from '../errors';

export { BUSY_DETAIL };

const DEFAULT_DETAIL: Record<number, string> = {
  400: 'Bad request.',
  401: 'Authentication credentials were not provided.',
  403: 'You do not have permission to perform this action.',
  404: 'Not found.',
  405: 'Method not allowed.',
  409: 'Conflict.',
  413: 'Request body too large.',
  415: 'Unsupported media type.',
  429: 'Request was throttled.',
};

/** What an error answers: status, extra headers and JSON body (`undefined`: no body), or raw bytes. */
export interface ErrorAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  raw?: Buffer | null;
}

export const DATABASE_UNAVAILABLE_DETAIL = 'The database is unavailable. Please try again later.';
const DATABASE_RETRY_AFTER_S = 10;

/** Socket errors of a connection to PostgreSQL that could not be made or was lost. */
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
]);

/**
 * Whether an error means PostgreSQL cannot be reached right now (README "Security", "Faults and shutdown"): a
 * refused, reset or lost connection, a pool connect timeout, a query runner TypeORM released because its
 * connection broke, or the server's own "shutting down / not accepting connections" (SQLSTATE class 08,
 * 57P01-57P03, 53300). Answered 503 with `Retry-After`, never 500.
 */
export function isDatabaseUnavailable(exception: unknown): boolean {
  // TypeORM releases a query runner whose connection broke; its next statement throws these (README "Security",
  // "Faults and shutdown").
  if (
    exception instanceof QueryRunnerAlreadyReleasedError ||
    exception instanceof QueryRunnerProviderAlreadyReleasedError
  )
    return true;
  const driver = exception instanceof QueryFailedError ? (exception.driverError as unknown) : exception;
  // Duck-typed: socket errors come from Node's own realm (not `instanceof Error` under a test VM).
  if (typeof driver !== 'object' || driver === null || typeof (driver as Error).message !== 'string')
    return false;
  const code = (driver as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_ERRNOS.has(code) || code.startsWith('08')) return true;
    if (['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
  }
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
    (driver as Error).message,
  );
}

/**
 * The one mapping of domain errors to HTTP answers (compat §1.5 bodies, spec "Errors" statuses).
 * @returns null for a domain error no rule maps (a programming error: answered 500)
 */
export function domainAnswer(err: DomainError): ErrorAnswer | null {
  if (err instanceof ValidationFailed) return { status: 400, body: err.errors };
  if (err instanceof InvalidRequest) return { status: 400, body: { detail: err.detail } };
  if (err instanceof NotAuthenticated) {
    return { status: 401, headers: { 'WWW-Authenticate': 'Token' }, body: { detail: err.detail } };
  }
  if (err instanceof Refused) return { status: 403, body: { detail: err.detail } };
  if (err instanceof NotFound) return { status: 404, body: { detail: err.detail } };
  if (err instanceof FieldConflict) return { status: 409, body: err.errors };
  if (err instanceof Conflict) {
    const headers = err.retryAfter === undefined ? undefined : { 'Retry-After': String(err.retryAfter) };
    return { status: 409, headers, body: { detail: err.detail } };
  }
  if (err instanceof TaskNotReady) {
    const body =
      err.percentage === undefined
        ? { status: err.state }
        : { status: err.state, percentage: err.percentage };
    return { status: 409, headers: { 'Retry-After': String(err.retryAfter) }, body };
  }
  if (err instanceof TaskFailed) {
    const status = err.state === 'failed' && err.task === 'shred' ? 417 : 410;
    return { status, body: { status: err.state, message: err.detail } };
  }
  if (err instanceof NotModified) return { status: 304 };
  if (err instanceof PreconditionFailed) return { status: 412, body: { detail: err.detail } };
  if (err instanceof Throttled) {
    return { status: 429, headers: { 'Retry-After': String(err.retryAfter) }, body: { detail: err.message } };
  }
  if (err instanceof UnprocessableRequest) return { status: 422, body: { detail: err.detail } };
  if (err instanceof Gone) return { status: 410, body: { detail: err.detail } };
  if (err instanceof StoredResponse) return { status: err.status, headers: err.headers, raw: err.body };
  if (err instanceof CheckinRefused) return { status: err.ticket === 'unknown' ? 404 : 400, body: err.body };
  if (err instanceof ServiceUnavailable) {
    return { status: 503, headers: { 'Retry-After': String(err.retryAfter) }, body: { detail: err.detail } };
  }
  return null;
}

/**
 * Renders an HttpException that Nest itself raised (unknown route, a pipe of the framework) in pretix's shapes
 * (compat §1.5): `{"detail": ...}` with DRF's default texts.
 */
export function errorBody(exception: HttpException): unknown {
  const status = exception.getStatus();
  const response = exception.getResponse();
  if (typeof response === 'object' && response !== null && 'detail' in response) return response;
  let message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
  if (Array.isArray(message)) message = message.join(' ');
  if (typeof message !== 'string' || (status === 404 && message.startsWith('Cannot '))) {
    message = DEFAULT_DETAIL[status] ?? 'Error.';
  }
  if (status === 404 && message === 'Not Found') message = 'Not found.';
  if (status === 403 && message === 'Forbidden resource') message = DEFAULT_DETAIL[403];
  return { detail: message };
}

/** A database error that means "busy, retry later": lock timeout, deadlock, serialization failure, timeout. */
const BUSY_CODES = new Set(['55P03', '40P01', '40001', '57014']);

/**
 * The one global exception filter (architecture.md "Request path" 6): domain errors are mapped by
 * {@link domainAnswer}; exceptions Nest raises itself keep their status with DRF-shaped bodies; database lock
 * timeouts and deadlocks are a {@link LockTimeout} (409 with `Retry-After: 5`); an unreachable database answers
 * 503 with `Retry-After: 10`; invalid data the database rejects becomes 400; anything else is logged with the
 * request id and answered 500 without internals.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request & { id?: string }>();
    if (res.headersSent) return;

    const code =
      exception instanceof QueryFailedError ? (exception.driverError as { code?: string }).code : undefined;
    if (code !== undefined && BUSY_CODES.has(code)) exception = new LockTimeout();

    const answer = exception instanceof DomainError ? domainAnswer(exception) : null;
    if (answer) {
      for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
      if (answer.raw !== undefined) res.status(answer.status).end(answer.raw ?? undefined);
      else if (answer.body === undefined) res.status(answer.status).end();
      else res.status(answer.status).json(answer.body);
      return;
    }

    if (exception instanceof HttpException) {
      const status: number = exception.getStatus();
      if (status === (HttpStatus.NOT_MODIFIED as number)) {
        res.status(304).end();
        return;
      }
      if (status === (HttpStatus.UNAUTHORIZED as number)) res.setHeader('WWW-Authenticate', 'Token');
      res.status(status).json(errorBody(exception));
      return;
    }

    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(
        `[${req.id}] ${req.method} ${req.originalUrl}: database unavailable (${String(exception)})`,
      );
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_S));
      res.status(503).json({ detail: DATABASE_UNAVAILABLE_DETAIL });
      return;
    }
    if (code?.startsWith('22')) {
      this.logger.warn(`[${req.id}] ${req.method} ${req.originalUrl}: database rejected input (${code})`);
      res.status(400).json({ detail: 'Invalid input.' });
      return;
    }
    this.logger.error(
      `[${req.id}] ${req.method} ${req.originalUrl}: ${exception instanceof Error ? exception.stack : String(exception)}`,
    );
    res.status(500).json({ detail: 'Internal server error.' });
  }
}
