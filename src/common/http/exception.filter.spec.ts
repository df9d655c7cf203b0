import type { ArgumentsHost } from '@nestjs/common';
import {
  QueryFailedError,
  QueryRunnerAlreadyReleasedError,
  QueryRunnerProviderAlreadyReleasedError,
} from 'typeorm';
import { ApiExceptionFilter, DATABASE_UNAVAILABLE_DETAIL } from './exception.filter';

/** What the filter answered for one exception: status, headers and JSON body. */
function answer(exception: unknown): { status: number; headers: Record<string, string>; body: unknown } {
  const out = { status: 0, headers: {} as Record<string, string>, body: undefined as unknown };
  const res = {
    headersSent: false,
    setHeader: (name: string, value: string) => (out.headers[name.toLowerCase()] = value),
    status: (status: number) => {
      out.status = status;
      return res;
    },
    json: (body: unknown) => (out.body = body),
    end: () => undefined,
  };
  const host = {
    switchToHttp: () => ({
      getResponse: () => res,
      getRequest: () => ({ id: 'r1', method: 'POST', originalUrl: '/api/v1/x/' }),
    }),
  } as unknown as ArgumentsHost;
  new ApiExceptionFilter().catch(exception, host);
  return out;
}

const pgError = (message: string, code?: string) => Object.assign(new Error(message), { code });

/**
 * A lost connection to PostgreSQL mid-request (issue 22 item 14: server killed or restarted, backends
 * terminated) answers 503 with `Retry-After` and the standard body, never 500.
 */
describe('connection-loss errors', () => {
  const cases: [string, unknown][] = [
    ['QueryRunnerAlreadyReleasedError', new QueryRunnerAlreadyReleasedError()],
    ['QueryRunnerProviderAlreadyReleasedError', new QueryRunnerProviderAlreadyReleasedError()],
    ['ECONNRESET', pgError('read ECONNRESET', 'ECONNRESET')],
    [
      '57P01 admin_shutdown',
      new QueryFailedError(
        'SELECT 1',
        [],
        pgError('terminating connection due to administrator command', '57P01'),
      ),
    ],
    [
      'Connection terminated',
      new QueryFailedError('SELECT 1', [], pgError('Connection terminated unexpectedly')),
    ],
    ['not queryable', pgError('Client has encountered a connection error and is not queryable')],
  ];
  it.each(cases)('%s: 503 with Retry-After', (_name, exception) => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(answer(exception)).toEqual({
      status: 503,
      headers: { 'retry-after': '10' },
      body: { detail: DATABASE_UNAVAILABLE_DETAIL },
    });
  });
});
