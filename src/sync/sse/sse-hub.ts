import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Response } from 'express';
import Redis from 'ioredis';
import { ServiceUnavailable } from '../../common/errors';
import { redisOptions } from '../../common/persistence/redis-options';
import { AppConfig } from '../../config/app-config';
import { within } from './within';

/** A connected client of one Redis channel's stream. */
export interface SseClient {
  channel: string;
  res: Response;
  /**
   * While the stream's opening part (replay, current figures) is being written, messages of the channel wait
   * here, as the channel's handler made them; null once live.
   */
  buffered: unknown[] | null;
}

/** What one kind of stream does with the messages of one of its channels (made when its first client joins). */
export interface SseChannel {
  /** A message published on the channel, for its clients (each buffered or live). */
  message(text: string, clients: ReadonlySet<SseClient>): void;
  /** The last client left (forget per-channel state). */
  closed?(): void;
}

/** A client whose unsent output exceeds this many bytes is too slow: its stream is ended (it resumes later). */
const MAX_BACKLOG_BYTES = 1 << 20;

/**
 * The server-sent event streams of this API process, whatever their kind (README "Live check-in stream", "Live
 * figures"): the clients by Redis channel, ONE Redis subscriber connection for the process (subscribed to each
 * channel that has a client, unsubscribed when the last one leaves; ioredis re-subscribes after a reconnection),
 * the heartbeat comment every `STREAM_HEARTBEAT_SECONDS`, and the bound of `STREAM_MAX_CLIENTS` open streams of
 * all kinds together (503 past it). Each channel's messages go to its {@link SseChannel}, which writes them with
 * {@link write} (a too slow client's stream is ended). Streams are ended when the application shuts down, so
 * they never hold a stop.
 */
@Injectable()
export class SseHub implements OnModuleDestroy {
  private readonly logger = new Logger('SseHub');
  private readonly channels = new Map<string, { clients: Set<SseClient>; handler: SseChannel }>();
  private readonly subscriptions = new Map<string, Promise<unknown>>();
  private subscriber: Redis | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private count = 0;
  private closing = false;

  constructor(private readonly config: AppConfig) {}

  /** Open streams of this process. */
  get size(): number {
    return this.count;
  }

  /** The channels that have a client in this process. */
  get channelNames(): string[] {
    return [...this.channels.keys()];
  }

  /**
   * Adds a client to `channel` (buffering until it goes live) and makes sure the process is subscribed to the
   * channel before it returns, so nothing published from now on is missed. `handler` makes the channel's
   * {@link SseChannel} when it is the first client.
   * @throws ServiceUnavailable (503) past `STREAM_MAX_CLIENTS`, while shutting down, or when Redis does not
   *   confirm the subscription within `QUEUE_TIMEOUT_MS`
   */
  async join(channel: string, res: Response, handler: () => SseChannel): Promise<SseClient> {
    if (this.closing) throw new ServiceUnavailable('The server is shutting down.', 1);
    if (this.count >= this.config.streamMaxClients) {
      throw new ServiceUnavailable(
        `This server has reached its limit of ${this.config.streamMaxClients} open streams; try again later.`,
        5,
      );
    }
    const client: SseClient = { channel, res, buffered: [] };
    let entry = this.channels.get(channel);
    if (!entry) this.channels.set(channel, (entry = { clients: new Set(), handler: handler() }));
    entry.clients.add(client);
    this.count++;
    this.startHeartbeat();
    try {
      await this.subscribed(channel);
    } catch (err) {
      this.leave(client);
      this.logger.warn(`live stream subscription failed: ${(err as Error).message}`);
      throw new ServiceUnavailable('The live stream is unavailable right now; try again later.', 5);
    }
    return client;
  }

  /** Ends the client's opening phase: returns what was buffered meanwhile (for the caller to write). */
  goLive(client: SseClient): unknown[] {
    const waiting = client.buffered ?? [];
    client.buffered = null;
    return waiting;
  }

  /** Removes the client (its connection closed); unsubscribes the channel when it was the last one. */
  leave(client: SseClient): void {
    const entry = this.channels.get(client.channel);
    if (!entry?.clients.delete(client)) return;
    this.count--;
    if (entry.clients.size > 0) return;
    this.channels.delete(client.channel);
    entry.handler.closed?.();
    const subscription = this.subscriptions.get(client.channel);
    this.subscriptions.delete(client.channel);
    if (subscription && this.subscriber) {
      void subscription
        .then(() =>
          this.channels.has(client.channel) ? undefined : this.subscriber?.unsubscribe(client.channel),
        )
        .catch(() => undefined);
    }
    if (this.count === 0) this.stopHeartbeat();
  }

  /**
   * Writes `text` to a live client; a client whose unsent output exceeds 1 MiB is too slow: its stream is ended
   * (it resumes with `Last-Event-ID`).
   */
  write(client: SseClient, text: string): void {
    if (client.res.writableEnded) return;
    if (client.res.writableLength > MAX_BACKLOG_BYTES) {
      this.logger.warn(`live stream client of ${client.channel} too slow: stream ended`);
      client.res.end();
      this.leave(client);
      return;
    }
    client.res.write(text);
  }

  /** Ends every stream (clients reconnect, to another replica, with `Last-Event-ID`); refuses new ones. */
  closeAll(): void {
    this.closing = true;
    for (const entry of [...this.channels.values()]) {
      for (const client of [...entry.clients]) {
        client.res.end();
        this.leave(client);
      }
    }
  }

  onModuleDestroy(): void {
    this.closeAll();
    this.stopHeartbeat();
    this.subscriber?.disconnect();
    this.subscriber = null;
  }

  private subscribed(channel: string): Promise<unknown> {
    let subscription = this.subscriptions.get(channel);
    if (!subscription) {
      subscription = within(this.connection().subscribe(channel), this.config.queueTimeoutMs, 'subscribe');
      this.subscriptions.set(channel, subscription);
      // A failed subscription is tried again by the next client.
      subscription.catch(() => {
        if (this.subscriptions.get(channel) === subscription) this.subscriptions.delete(channel);
      });
    }
    return subscription;
  }

  private connection(): Redis {
    if (!this.subscriber) {
      const subscriber = new Redis({
        ...redisOptions(this.config.redisUrl, 'producer'),
        enableOfflineQueue: true,
      });
      subscriber.on('error', (err: Error) => this.logger.debug(`redis subscriber: ${err.message}`));
      subscriber.on('message', (channel: string, message: string) => {
        const entry = this.channels.get(channel);
        if (entry) entry.handler.message(message, entry.clients);
      });
      this.subscriber = subscriber;
    }
    return this.subscriber;
  }

  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      for (const entry of this.channels.values()) {
        for (const client of entry.clients) if (!client.buffered) this.write(client, ': keep-alive\n\n');
      }
    }, this.config.streamHeartbeatSeconds * 1000);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
