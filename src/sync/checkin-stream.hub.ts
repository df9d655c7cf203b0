import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { AppConfig } from '../config/app-config';
import { streamChannel } from './checkin-stream.channels';
import { sseText, StreamFrame } from './checkin-stream.presenter';
import { SseChannel, SseClient, SseHub } from './sse/sse-hub';

/** Numbers of recent frames remembered per list, to drop a frame published twice. */
const RECENT_PER_LIST = 4096;

/**
 * One list's channel: frames de-duplicated by number (a scan published twice is written once), then written to
 * the live clients or buffered for those still replaying.
 */
class CheckinChannel implements SseChannel {
  private readonly seen = new Set<number>();
  private readonly order: number[] = [];

  constructor(private readonly hub: SseHub) {}

  message(text: string, clients: ReadonlySet<SseClient>): void {
    let frame: StreamFrame;
    try {
      frame = JSON.parse(text) as StreamFrame;
    } catch {
      return;
    }
    if (this.seen.has(frame.seq)) return;
    this.seen.add(frame.seq);
    this.order.push(frame.seq);
    if (this.order.length > RECENT_PER_LIST) this.seen.delete(this.order.shift()!);
    const out = sseText(frame);
    for (const client of clients) {
      if (client.buffered) client.buffered.push(frame);
      else this.hub.write(client, out);
    }
  }
}

/**
 * The live check-in streams of this API process (README "Live check-in stream"): each list's clients on the
 * list's Redis channel of the process's shared {@link SseHub} (one subscriber connection, heartbeats, the bound
 * of `STREAM_MAX_CLIENTS`, streams ended on shutdown), frames de-duplicated by number per list.
 */
@Injectable()
export class CheckinStreamHub {
  constructor(
    private readonly hub: SseHub,
    private readonly config: AppConfig,
  ) {}

  /** Open streams of this process (of every kind). */
  get size(): number {
    return this.hub.size;
  }

  /**
   * Adds a client to its list (buffering until {@link goLive}), subscribed before it returns.
   * @throws ServiceUnavailable (503) past `STREAM_MAX_CLIENTS`, while shutting down, or when Redis does not
   *   confirm the subscription within `QUEUE_TIMEOUT_MS`
   */
  join(listId: number, res: Response): Promise<SseClient> {
    return this.hub.join(
      streamChannel(this.config.queuePrefix, listId),
      res,
      () => new CheckinChannel(this.hub),
    );
  }

  /**
   * Ends the client's replay phase: writes the live frames that arrived meanwhile, except those the replay
   * already had (`replayed` numbers).
   */
  goLive(client: SseClient, replayed: ReadonlySet<number>): void {
    for (const frame of this.hub.goLive(client) as StreamFrame[]) {
      if (!replayed.has(frame.seq)) this.hub.write(client, sseText(frame));
    }
  }

  /** Removes the client (its connection closed). */
  leave(client: SseClient): void {
    this.hub.leave(client);
  }

  /** Ends every stream; refuses new ones. */
  closeAll(): void {
    this.hub.closeAll();
  }
}
