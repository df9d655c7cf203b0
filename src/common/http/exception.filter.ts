import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { QueryFailedError } from 'typeorm';
import {
  Conflict,
  FieldConflict,
  ServiceUnavailable,
  TaskFailed,
  TaskNotReady,
  ValidationFailed,
} from '../errors';

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
 * Whether an error means PostgreSQL cannot be reached right now (issue 7 "PostgreSQL down"): a refused, reset or
 * lost connection, a pool connect timeout, or the server's own "shutting down / not accepting connections"
 * (SQLSTATE class 08, 57P01-57P03, 53300). Answered 503 with `Retry-After`, never 500.
 */
export function isDatabaseUnavailable(exception: unknown): boolean {
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

export const BUSY_DETAIL = 'The server was too busy to process your request. Please try again.';

/** Renders the body of an HttpException in pretix's shapes (compat §1.5). */
export function errorBody(exception: HttpException): unknown {
  if (exception instanceof ValidationFailed || exception instanceof FieldConflict) return exception.errors;
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

/**
 * The one global exception filter (architecture.md "Request path" 6): domain and HTTP exceptions keep their
 * status and get DRF-shaped bodies; database lock timeouts and deadlocks become 409 with `Retry-After: 5`;
 * invalid data the database rejects becomes 400; an unreachable database 503 with `Retry-After: 10`; anything else is logged with the request id and answered 500
 * without internals.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request & { id?: string }>();
    if (res.headersSent) return;

    if (exception instanceof HttpException) {
      const status: number = exception.getStatus();
      if (status === (HttpStatus.NOT_MODIFIED as number)) {
        res.status(304).end();
        return;
      }
      if (status === (HttpStatus.UNAUTHORIZED as number)) res.setHeader('WWW-Authenticate', 'Token');
      if (exception instanceof Conflict && exception.retryAfter !== undefined) {
        res.setHeader('Retry-After', String(exception.retryAfter));
      }
      res.status(status).json(errorBody(exception));
      return;
    }

    if (exception instanceof TaskNotReady || exception instanceof ServiceUnavailable) {
      res.setHeader('Retry-After', String(exception.retryAfter));
      res
        .status(exception instanceof TaskNotReady ? 409 : 503)
        .json(exception instanceof TaskNotReady ? { status: exception.state } : { detail: exception.detail });
      return;
    }
    if (exception instanceof TaskFailed) {
      res.status(exception.httpStatus).json({ status: exception.state, message: exception.detail });
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
    const code =
      exception instanceof QueryFailedError ? (exception.driverError as { code?: string }).code : undefined;
    if (code === '55P03' || code === '40P01' || code === '40001' || code === '57014') {
      res.setHeader('Retry-After', '5');
      res.status(409).json({ detail: BUSY_DETAIL });
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
