import { QueryFailedError } from 'typeorm';

export const DATABASE_UNAVAILABLE_DETAIL = 'The database is unavailable. Please try again later.';
/** `Retry-After` (seconds) of a 503 for an unreachable database. */
export const DATABASE_RETRY_AFTER_S = 10;

/** Socket errors of a connection to PostgreSQL that could not be made or was lost. */
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
]);

/** SQLSTATEs of a server that is shutting down or refuses connections (besides class 08). */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * Whether an error means PostgreSQL cannot be reached right now (issue 7 "PostgreSQL down"): a refused, reset or
 * lost connection, a pool connect timeout, or the server's own "shutting down / not accepting connections"
 * (SQLSTATE class 08, 57P01-57P03, 53300). The exception filter answers it 503 with `Retry-After`, never 500.
 * Duck-typed: socket errors come from Node's own realm (not `instanceof Error` under a test VM).
 */
export function isDatabaseUnavailable(exception: unknown): boolean {
  const driver = exception instanceof QueryFailedError ? (exception.driverError as unknown) : exception;
  if (typeof driver !== 'object' || driver === null) return false;
  const { code, message } = driver as { code?: unknown; message?: unknown };
  if (
    typeof code === 'string' &&
    (CONNECTION_ERRNOS.has(code) || code.startsWith('08') || UNAVAILABLE_CODES.has(code))
  )
    return true;
  return (
    typeof message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
      message,
    )
  );
}
