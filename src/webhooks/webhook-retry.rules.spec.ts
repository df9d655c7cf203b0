import { isDelivered, webhookRetryDelayMs } from './webhook-retry.rules';

describe('webhook retry rules', () => {
  it('doubles from the base with jitter of ±25 % and caps at 6 hours', () => {
    expect(webhookRetryDelayMs(1, 60, 0.5)).toBe(60_000);
    expect(webhookRetryDelayMs(2, 60, 0.5)).toBe(120_000);
    expect(webhookRetryDelayMs(3, 60, 0)).toBe(180_000);
    expect(webhookRetryDelayMs(3, 60, 0.999)).toBeLessThan(300_000);
    expect(webhookRetryDelayMs(30, 60, 0.5)).toBe(6 * 60 * 60 * 1000);
  });

  it('counts only 2xx as delivered', () => {
    expect([200, 204, 299].map(isDelivered)).toEqual([true, true, true]);
    expect([null, 199, 301, 304, 410, 500].map(isDelivered)).toEqual([false, false, false, false, false, false]);
  });
});
