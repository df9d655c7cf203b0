import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Response } from 'express';
import Redis from 'ioredis';
import { ServiceUnavailable } from '../common/errors';
import { redisOptions } from '../common/persistence/redis-options';
import { AppConfig } from '../config/app-config';
import { listOfChannel, streamChannel, within } from './checkin-stream.channels';
import { sseText, StreamFrame } from './checkin-stream.presenter';

/** A connected client of one list's stream. */
export interface StreamClient {
  listId: number;
  res: Response;
  /** While its replay is being written, live frames wait here (then those the replay had are dropped). */
  buffered: StreamFrame[] | null;
}

/** Numbers of recent frames remembered per list, to drop a frame published twice. */
const RECENT_PER_LIST = 4096;
/** A client whose unsent output exceeds this many bytes is too slow: its stream is ended (it resumes later). */
const MAX_BACKLOG_BYTES = 1 << 20;

/**
 * The live check-in streams of this API process (README "Live check-in stream"): the clients by list, ONE Redis
 * subscriber connection for the process (subscribed to the channel of each list that has a client, unsubscribed
 * when the last one leaves; ioredis re-subscribes after a reconnection), the heartbeat comment every
 * `STREAM_HEARTBEAT_SECONDS`, and the bound of `STREAM_MAX_CLIENTS` open streams (503 past it). Frames are
 * de-duplicated by number per list (a scan published twice is written once). Streams are ended when the
 * application shuts down (and by the graceful stop before it drains), so they never hold a stop.
 */
@Injectable()
export class CheckinStreamHub implements OnModuleDestroy {
  private readonly logger = new Logger('CheckinStream');
  private readonly lists = new Map<number, Set<StreamClient>>();
  private readonly subscriptions = new Map<number, Promise<unknown>>();
  private readonly recent = new Map<number, { set: Set<number>; order: number[] }>();
  private subscriber: Redis | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private count = 0;
  private closing = false;

  constructor(private readonly config: AppConfig) {}

  /** Open streams of this process. */
  get size(): number {
    return this.count;
  }

  /**
   * Adds a client to its list (buffering until {@link goLive}) and makes sure the process is subscribed to the
   * list's channel before it returns, so nothing published from now on is missed.
   * @throws ServiceUnavailable (503) past `STREAM_MAX_CLIENTS`, while shutting down, or when Redis does not
   *   confirm the subscription within `QUEUE_TIMEOUT_MS`
   */
  async join(listId: number, res: Response): Promise<StreamClient> {
    if (this.closing) throw new ServiceUnavailable('The server is shutting down.', 1);
    if (this.count >= this.config.streamMaxClients) {
      throw new ServiceUnavailable(
        `This server has reached its limit of ${this.config.streamMaxClients} open streams; try again later.`,
        5,
      );
    }
    const client: StreamClient = { listId, res, buffered: [] };
    let clients = this.lists.get(listId);
    if (!clients) this.lists.set(listId, (clients = new Set()));
    clients.add(client);
    this.count++;
    this.startHeartbeat();
    try {
      await this.subscribed(listId);
    } catch (err) {
      this.leave(client);
      this.logger.warn(`live stream subscription failed: ${(err as Error).message}`);
      throw new ServiceUnavailable('The live stream is unavailable right now; try again later.', 5);
    }
    return client;
  }

  /**
   * Ends the client's replay phase: writes the live frames that arrived meanwhile, except those the replay
   * already had (`replayed` numbers).
   */
  goLive(client: StreamClient, replayed: ReadonlySet<number>): void {
    const waiting = client.buffered ?? [];
    client.buffered = null;
    for (const frame of waiting) if (!replayed.has(frame.seq)) this.write(client, sseText(frame));
  }

  /** Removes the client (its connection closed); unsubscribes the list's channel when it was the last one. */
  leave(client: StreamClient): void {
    const clients = this.lists.get(client.listId);
    if (!clients?.delete(client)) return;
    this.count--;
    if (clients.size > 0) return;
    this.lists.delete(client.listId);
    this.recent.delete(client.listId);
    const subscription = this.subscriptions.get(client.listId);
    this.subscriptions.delete(client.listId);
    if (subscription && this.subscriber) {
      const channel = streamChannel(this.config.queuePrefix, client.listId);
      void subscription
        .then(() => (this.lists.has(client.listId) ? undefined : this.subscriber?.unsubscribe(channel)))
        .catch(() => undefined);
    }
    if (this.count === 0) this.stopHeartbeat();
  }

  /** Ends every stream (clients reconnect, to another replica, with `Last-Event-ID`); refuses new ones. */
  closeAll(): void {
    this.closing = true;
    for (const clients of this.lists.values()) {
      for (const client of [...clients]) {
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

  private subscribed(listId: number): Promise<unknown> {
    let subscription = this.subscriptions.get(listId);
    if (!subscription) {
      const channel = streamChannel(this.config.queuePrefix, listId);
      subscription = within(this.connection().subscribe(channel), this.config.queueTimeoutMs, 'subscribe');
      this.subscriptions.set(listId, subscription);
      // A failed subscription is tried again by the next client.
      subscription.catch(() => {
        if (this.subscriptions.get(listId) === subscription) this.subscriptions.delete(listId);
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
      subscriber.on('message', (channel: string, message: string) => this.deliver(channel, message));
      this.subscriber = subscriber;
    }
    return this.subscriber;
  }

  private deliver(channel: string, message: string): void {
    const listId = listOfChannel(this.config.queuePrefix, channel);
    const clients = listId === null ? undefined : this.lists.get(listId);
    if (listId === null || !clients) return;
    let frame: StreamFrame;
    try {
      frame = JSON.parse(message) as StreamFrame;
    } catch {
      return;
    }
    if (!this.firstTime(listId, frame.seq)) return;
    const text = sseText(frame);
    for (const client of clients) {
      if (client.buffered) client.buffered.push(frame);
      else this.write(client, text);
    }
  }

  /** Remembers the frame's number for its list; false when it was seen recently (published twice). */
  private firstTime(listId: number, seq: number): boolean {
    let recent = this.recent.get(listId);
    if (!recent) this.recent.set(listId, (recent = { set: new Set(), order: [] }));
    if (recent.set.has(seq)) return false;
    recent.set.add(seq);
    recent.order.push(seq);
    if (recent.order.length > RECENT_PER_LIST) recent.set.delete(recent.order.shift()!);
    return true;
  }

  private write(client: StreamClient, text: string): void {
    if (client.res.writableEnded) return;
    if (client.res.writableLength > MAX_BACKLOG_BYTES) {
      this.logger.warn(`live stream client of list ${client.listId} too slow: stream ended`);
      client.res.end();
      this.leave(client);
      return;
    }
    client.res.write(text);
  }

  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      for (const clients of this.lists.values()) {
        for (const client of clients) if (!client.buffered) this.write(client, ': keep-alive\n\n');
      }
    }, this.config.streamHeartbeatSeconds * 1000);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
