/** Longest single wait between two attempts (6 hours). */
const MAX_DELAY_MS = 6 * 60 * 60 * 1000;

/**
 * Delay before the attempt after `attempts` failed ones (1 = the first retry): `baseS` seconds doubling with
 * every attempt, capped at 6 hours, times a jitter factor in [0.75, 1.25) (`random` in [0, 1)) so that the
 * retries of many deliveries spread out.
 */
export function webhookRetryDelayMs(attempts: number, baseS: number, random: number = Math.random()): number {
  const exp = Math.min(baseS * 1000 * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS);
  return Math.round(exp * (0.75 + random / 2));
}

/** Whether an HTTP status counts as delivered (any 2xx; 3xx too are failures: redirects are not followed). */
export function isDelivered(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}
