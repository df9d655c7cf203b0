import type { RedisOptions } from 'ioredis';

/**
 * ioredis options for one role of a process, from `REDIS_URL` (`redis://[user:pass@]host:port[/db]`, `rediss://`
 * for TLS).
 * - `producer` (the API and the worker when they enqueue; the rate-limit counters): no offline queue and one retry per command, so a
 *   command fails at once while Redis is down instead of waiting (the write then answers 503).
 * - `worker` (blocking job fetches): commands wait for the reconnection (BullMQ requires
 *   `maxRetriesPerRequest: null`); ioredis reconnects by itself with a capped back-off.
 */
export function redisOptions(url: string, role: 'producer' | 'worker'): RedisOptions {
  const u = new URL(url);
  const db = Number(u.pathname.replace(/^\//, '') || 0);
  const base: RedisOptions = {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: Number.isInteger(db) ? db : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    connectTimeout: 2000,
    retryStrategy: (times: number) => Math.min(200 * times, 2000),
  };
  return role === 'producer'
    ? { ...base, enableOfflineQueue: false, maxRetriesPerRequest: 1 }
    : { ...base, maxRetriesPerRequest: null };
}
