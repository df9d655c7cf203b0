import { createHash } from 'crypto';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Request, Response } from 'express';
import Redis from 'ioredis';
import { ServiceUnavailable, ValidationFailed } from '../../common/errors';
import { redisOptions } from '../../common/persistence/redis-options';
import { AppConfig } from '../../config/app-config';
import type { Event } from '../../organizers/event.entity';
import { SseChannel, SseClient, SseHub } from '../sse/sse-hub';
import { within } from '../sse/within';
import { PUBLISH_SCRIPT, StatsKeys, statsKeys } from './stats-stream.keys';
import type { EventStatsJson } from './stats.presenter';
import { StatsService } from './stats.service';

/** What a client may send as the last event it has: the `id:` of an event, a whole number. */
const EVENT_ID = /^\d{1,15}$/;
/** How often a process with clients of a stream looks at the figures (one replica per period, by a lock). */
export const STATS_POLL_MS = 200;
/** At most one message per stream per this many milliseconds, across replicas. */
export const STATS_THROTTLE_MS = 1000;

/** One published message of a stats stream, as it travels over Redis. */
interface StatsFrame {
  seq: number;
  data: EventStatsJson;
}

const frameText = (seq: number, data: unknown) =>
  `id: ${seq}\nevent: stats\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * One stream's channel in this process: polls the figures while it has clients, and writes each published
 * frame to every live client that does not have it yet (numbers above the one it last got).
 */
class StatsChannel implements SseChannel {
  readonly sent = new WeakMap<SseClient, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly hub: SseHub,
    private readonly poll: () => Promise<void>,
  ) {
    let running = false;
    this.timer = setInterval(() => {
      if (running) return;
      running = true;
      void this.poll().finally(() => (running = false));
    }, STATS_POLL_MS);
    this.timer.unref();
  }

  message(text: string, clients: ReadonlySet<SseClient>): void {
    let frame: StatsFrame;
    try {
      frame = JSON.parse(text) as StatsFrame;
    } catch {
      return;
    }
    for (const client of clients) {
      if (client.buffered) client.buffered.push(frame);
      else this.deliver(client, frame);
    }
  }

  /** Writes the frame unless the client already has it (or a later one). */
  deliver(client: SseClient, frame: StatsFrame): void {
    if ((this.sent.get(client) ?? -1) >= frame.seq) return;
    this.sent.set(client, frame.seq);
    this.hub.write(client, frameText(frame.seq, frame.data));
  }

  closed(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/**
 * The live figures stream (README "Live figures"; `GET E/stats/stream/`): server-sent `event: stats` messages
 * whose `data:` is the `E/stats/` answer, when the figures change, at most one per second per event (and
 * sub-event) across all API replicas, delivered through Redis pub/sub.
 *
 * How changes are found: every API process with clients of a stream polls the maintained counters every
 * {@link STATS_POLL_MS} ms, one replica at a time (a Redis lock per stream); the figures' hash is compared with
 * the one last published, and a changed one is published by a Redis script that also takes the one-second
 * throttle and numbers the message (a Redis counter per stream: monotonic). A change within the throttle is
 * published by the first poll after it (the trailing message), so bursts coalesce and the last state always
 * arrives. Polling costs the writers nothing (no trigger work, no NOTIFY, whose commit lock would serialize
 * every checkout), sees writes of every process (API replicas, workers, CLI) and also what time changes (carts
 * expiring, vouchers running out), and costs nothing while nobody listens.
 *
 * Resumption: a client sending `Last-Event-ID` equal to the latest number gets nothing until the next change;
 * any other client (none, older, unknown) gets the current figures at once, numbered with the latest number.
 */
@Injectable()
export class StatsStreamService implements OnApplicationShutdown {
  private readonly logger = new Logger('StatsStream');
  private connection: Redis | null = null;
  private readonly channels = new Map<string, StatsChannel>();
  /** Messages published by this process since the start. */
  published = 0;

  constructor(
    private readonly hub: SseHub,
    private readonly stats: StatsService,
    private readonly config: AppConfig,
  ) {}

  onApplicationShutdown(): void {
    this.connection?.disconnect();
    this.connection = null;
  }

  /** The process's Redis connection for the streams' commands, made at the first stream. */
  private get redis(): Redis {
    if (!this.connection) {
      this.connection = new Redis({
        ...redisOptions(this.config.redisUrl, 'producer'),
        enableOfflineQueue: true,
      });
      this.connection.on('error', (err: Error) => this.logger.debug(`redis: ${err.message}`));
    }
    return this.connection;
  }

  /**
   * Answers the request with the stream until the client goes away or the server stops.
   * @throws ValidationFailed (400 `{"last_event_id": [...]}`) for a resumption point that is not a number
   * @throws ServiceUnavailable (503) past `STREAM_MAX_CLIENTS` or while Redis is unreachable
   */
  async open(
    event: Event,
    subeventId: number | null,
    lastEventId: string | undefined,
    req: Request,
    res: Response,
  ): Promise<void> {
    if (lastEventId !== undefined && !EVENT_ID.test(lastEventId.trim())) {
      throw new ValidationFailed({ last_event_id: ['A valid integer is required.'] });
    }
    const keys = statsKeys(this.config.queuePrefix, event.id, subeventId);
    const client = await this.hub.join(keys.channel, res, () => this.channel(event, subeventId, keys));
    const channel = this.channels.get(keys.channel)!;
    try {
      const seq = await this.latest(keys);
      const figures = await this.stats.figures(event, subeventId);
      res.status(200);
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
      res.write(`retry: 2000\n: live figures of event ${event.slug}\n\n`);
      const upToDate = lastEventId !== undefined && Number(lastEventId.trim()) === seq;
      channel.sent.set(client, seq);
      if (!upToDate) this.hub.write(client, frameText(seq, figures));
      for (const frame of this.hub.goLive(client) as StatsFrame[]) channel.deliver(client, frame);
    } catch (err) {
      this.hub.leave(client);
      throw err;
    }
    req.on('close', () => this.hub.leave(client));
  }

  /** The latest event number of the stream (0 before the first). @throws ServiceUnavailable without Redis */
  private async latest(keys: StatsKeys): Promise<number> {
    try {
      return Number((await this.command(this.redis.get(keys.seq), 'get')) ?? 0);
    } catch (err) {
      this.logger.warn(`live figures: ${err instanceof Error ? err.message : String(err)}`);
      throw new ServiceUnavailable('The live stream is unavailable right now; try again later.', 5);
    }
  }

  /** The channel of a stream that got its first client in this process: it starts polling. */
  private channel(event: Event, subeventId: number | null, keys: StatsKeys): StatsChannel {
    const channel = new StatsChannel(this.hub, () => this.poll(event, subeventId, keys));
    const closed = channel.closed.bind(channel);
    channel.closed = () => {
      closed();
      this.channels.delete(keys.channel);
    };
    this.channels.set(keys.channel, channel);
    return channel;
  }

  /** One poll: unless another replica polls this period, publishes the figures if they changed. */
  private async poll(event: Event, subeventId: number | null, keys: StatsKeys): Promise<void> {
    try {
      const mine = await this.command(this.redis.set(keys.poll, '1', 'PX', STATS_POLL_MS - 10, 'NX'), 'set');
      if (mine !== 'OK') return;
      const figures = await this.stats.figures(event, subeventId);
      const payload = JSON.stringify(figures);
      const hash = createHash('sha1').update(payload).digest('hex');
      const seq = Number(
        await this.command(
          this.redis.eval(
            PUBLISH_SCRIPT,
            4,
            keys.last,
            keys.throttle,
            keys.seq,
            keys.channel,
            hash,
            payload,
            STATS_THROTTLE_MS,
          ),
          'publish',
        ),
      );
      if (seq > 0) this.published++;
    } catch (err) {
      this.logger.warn(`live figures poll failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private command<T>(promise: Promise<T>, what: string): Promise<T> {
    return within(promise, this.config.queueTimeoutMs, what);
  }
}
