/**
 * The Redis keys of one live figures stream (`<QUEUE_PREFIX>:stats:<event id>:<sub-event id or "all">:…`): the
 * pub/sub channel, the event number counter (monotonic, never expires), the hash of the figures last published,
 * the throttle (at most one message per second) and the poll lock (one replica polls at a time).
 */
export interface StatsKeys {
  channel: string;
  seq: string;
  last: string;
  throttle: string;
  poll: string;
}

/** The keys of the stream of `eventId` (of date `subeventId` only, when not null). */
export function statsKeys(prefix: string, eventId: number, subeventId: number | null): StatsKeys {
  const base = `${prefix}:stats:${eventId}:${subeventId ?? 'all'}`;
  return {
    channel: `${base}:stream`,
    seq: `${base}:seq`,
    last: `${base}:last`,
    throttle: `${base}:throttle`,
    poll: `${base}:poll`,
  };
}

/**
 * Publishes figures unless they are those last published or the throttle is up (one atomic script):
 * KEYS last, throttle, seq, channel; ARGV hash, payload JSON, throttle ms. Returns the new event number, 0 when
 * unchanged, -1 when throttled (the next poll after the throttle expires publishes: the trailing message).
 */
export const PUBLISH_SCRIPT = `
  if redis.call('GET', KEYS[1]) == ARGV[1] then return 0 end
  if not redis.call('SET', KEYS[2], '1', 'PX', ARGV[3], 'NX') then return -1 end
  local seq = redis.call('INCR', KEYS[3])
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('PUBLISH', KEYS[4], '{"seq":' .. seq .. ',"data":' .. ARGV[2] .. '}')
  return seq`;
