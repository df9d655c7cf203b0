import { Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { redisOptions } from '../persistence/redis-options';

/** One counter to bump: its key (without the process prefix) and the length of its window, milliseconds. */
export interface CounterHit {
  key: string;
  windowMs: number;
}

/** A counter after one hit: the hits in the current window, and the milliseconds until the window ends. */
export interface CounterState {
  count: number;
  ttlMs: number;
}

/**
 * INCR every key; a key without an expiry (new, or left without one) gets its window. One script, so the count
 * and the expiry are one atomic step on the Redis server, whatever the number of replicas.
 */
const HIT_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    redis.call('PEXPIRE', key, ARGV[i])
    ttl = tonumber(ARGV[i])
  end
  out[i] = {n, ttl}
end
return out`;

/** DECR every key that still exists and is above zero (an attempt that is given back). */
const UNDO_SCRIPT = `
for _, key in ipairs(KEYS) do
  local n = tonumber(redis.call('GET', key) or '0')
  if n > 0 then redis.call('DECR', key) end
end
return 0`;

/**
 * Fixed-window counters in Redis, shared by every API replica (architecture.md "Redis carries … rate-limit
 * counters"; README "Security"). Keys live under `<QUEUE_PREFIX>:rl:`. Each call is bounded by
 * `QUEUE_TIMEOUT_MS` and rejects (never hangs) while Redis is down; callers decide whether that fails open or
 * closed.
 */
@Injectable()
export class RedisCounters implements OnApplicationShutdown {
  private readonly logger = new Logger('RedisCounters');
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(private readonly config: AppConfig) {
    // Commands wait for the connection (so the first login after boot is counted, not refused); `within` bounds
    // the wait by QUEUE_TIMEOUT_MS.
    this.redis = new Redis({ ...redisOptions(config.redisUrl, 'producer'), enableOfflineQueue: true });
    this.redis.on('error', (err: Error) => this.logger.debug(`redis: ${err.message}`));
    this.prefix = `${config.queuePrefix}:rl:`;
  }

  /**
   * Counts one hit on every counter, atomically (the count is taken before the caller does the work it limits).
   * @returns the state of each counter, in the order given
   * @throws Error when Redis does not answer within `QUEUE_TIMEOUT_MS`
   */
  async hit(hits: CounterHit[]): Promise<CounterState[]> {
    const raw = (await this.within(
      this.redis.eval(
        HIT_SCRIPT,
        hits.length,
        ...hits.map((h) => this.prefix + h.key),
        ...hits.map((h) => String(Math.max(1, Math.round(h.windowMs)))),
      ),
    )) as [number, number][];
    return raw.map(([count, ttlMs]) => ({ count: Number(count), ttlMs: Number(ttlMs) }));
  }

  /**
   * Gives one hit back on every counter that still runs (e.g. a login that succeeded does not count as a failure).
   * @throws Error when Redis does not answer within `QUEUE_TIMEOUT_MS`
   */
  async undo(keys: string[]): Promise<void> {
    await this.within(this.redis.eval(UNDO_SCRIPT, keys.length, ...keys.map((k) => this.prefix + k)));
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  private within<T>(promise: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer from Redis within ${this.config.queueTimeoutMs} ms`)),
        this.config.queueTimeoutMs,
      );
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }
}

/** Provides {@link RedisCounters} (one Redis connection per process, however many contexts import it). */
@Module({ providers: [RedisCounters], exports: [RedisCounters] })
export class RateLimitModule {}
