import type { ArgumentsHost } from '@nestjs/common';
import {
  QueryFailedError,
  QueryRunnerAlreadyReleasedError,
  QueryRunnerProviderAlreadyReleasedError,
} from 'typeorm';
import { CheckinRefused, NotFound, TaskFailed } from '../errors';
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
 * A lost connection to PostgreSQL mid-request (README "Security", "Faults and shutdown": server killed or
 * restarted, backends terminated) answers 503 with `Retry-After` and the standard body, never 500.
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

/**
 * style.md "Errors": `CheckinRefused` and `TaskFailed` carry only domain data (which ticket, which task, what
 * state); the filter alone picks the status. Same wire answers as before: 400/404 redeem refusals, 410 for a gone
 * or failed task, 417 for a failed shred run, no extra headers.
 */
describe('domain errors without HTTP codes', () => {
  const scan = { status: 'error', reason: 'unpaid', require_attention: false };
  const invalid = { status: 'error', reason: 'invalid', require_attention: false };
  const cases: [string, unknown, number, unknown][] = [
    ['CheckinRefused known ticket', new CheckinRefused('known', scan), 400, scan],
    ['CheckinRefused unknown ticket', new CheckinRefused('unknown', invalid), 404, invalid],
    [
      'TaskFailed failed task',
      new TaskFailed('Export broke.', 'failed', 'task'),
      410,
      { status: 'failed', message: 'Export broke.' },
    ],
    [
      'TaskFailed failed shred',
      new TaskFailed('Shred broke.', 'failed', 'shred'),
      417,
      { status: 'failed', message: 'Shred broke.' },
    ],
    [
      'TaskFailed gone (task)',
      new TaskFailed('May have succeeded or timed out.', 'gone'),
      410,
      { status: 'gone', message: 'May have succeeded or timed out.' },
    ],
    [
      'TaskFailed gone (shred status)',
      new TaskFailed('May have succeeded or timed out.', 'gone', 'shred'),
      410,
      { status: 'gone', message: 'May have succeeded or timed out.' },
    ],
    ['PollAnswers missing: not-found (NotFound)', new NotFound(), 404, { detail: 'Not found.' }],
  ];
  it.each(cases)('%s', (_name, exception, status, body) => {
    expect(answer(exception)).toEqual({ status, headers: {}, body });
  });
});
