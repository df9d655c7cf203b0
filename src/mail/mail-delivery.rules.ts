/**
 * Delay before the next delivery attempt after `attempts` failed ones (milliseconds): the base delay doubled per
 * further attempt (1 -> base, 2 -> 2 x base, 3 -> 4 x base, ...), capped at one day.
 */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 24 * 60 * 60 * 1000);
}

/**
 * An SMTP error worth no retry: a permanent (5xx) answer about the message or its recipient. A refused login
 * (nodemailer's `EAUTH`) is retried: it is the server's configuration, not the mail, that is wrong.
 */
export function isPermanentSmtpError(err: unknown): boolean {
  const { responseCode, code } = err as { responseCode?: unknown; code?: unknown };
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600 && code !== 'EAUTH';
}

/** The error text kept on the mail row: the SMTP answer when there is one, bounded in length. */
export function mailErrorText(err: unknown): string {
  const e = err as { response?: unknown; message?: unknown };
  const text = typeof e.response === 'string' ? e.response : String(e.message ?? err);
  return text.slice(0, 2000);
}
