import { isPermanentSmtpError, mailErrorText, retryDelayMs } from './mail-delivery.rules';

describe('mail delivery rules', () => {
  it('doubles the retry delay per attempt, capped at one day', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 60_000))).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(retryDelayMs(40, 60_000)).toBe(24 * 60 * 60 * 1000);
  });

  it('treats 5xx SMTP answers as permanent, 4xx and connection errors as temporary', () => {
    expect(isPermanentSmtpError({ responseCode: 550 })).toBe(true);
    expect(isPermanentSmtpError({ responseCode: 451 })).toBe(false);
    expect(isPermanentSmtpError(new Error('connect ECONNREFUSED'))).toBe(false);
    expect(isPermanentSmtpError({ responseCode: 535, code: 'EAUTH' })).toBe(false);
  });

  it('keeps the SMTP answer as the error text, bounded', () => {
    expect(mailErrorText({ response: '451 4.3.0 Try later', message: 'Message failed' })).toBe(
      '451 4.3.0 Try later',
    );
    expect(mailErrorText(new Error('x'.repeat(5000)))).toHaveLength(2000);
  });
});
