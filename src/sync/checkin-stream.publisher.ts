import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import type { CheckinChange, CheckinEvents } from '../checkin/checkin-events.port';
import { CheckinStreamReads } from '../checkin/checkin-stream.reads';
import { redisOptions } from '../common/persistence/redis-options';
import { AppConfig } from '../config/app-config';
import { streamChannel } from './checkin-stream.channels';
import { within } from './sse/within';
import { toStreamFrame } from './checkin-stream.presenter';

/**
 * The `CHECKIN_EVENTS` port of the check-in context (`checkin-events.port.ts`): after a check-in writer's commit,
 * reads the entries the change made (two statements; none for a redeem on a list nobody follows) and publishes each to its list's Redis channel, from which
 * every API replica's `CheckinStreamHub` pushes it to its clients. One Redis connection per process (each publish
 * waits at most `QUEUE_TIMEOUT_MS` for it). The work runs in the
 * background; a failure is logged and counted ({@link failures}), never answered (the check-in is committed and
 * PostgreSQL is the record: clients catch up by `Last-Event-ID`).
 */
@Injectable()
export class CheckinStreamPublisher
  implements CheckinEvents, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('CheckinStream');
  private readonly redis: Redis;
  private readonly pending = new Set<Promise<void>>();
  /** Entries published since the start. */
  published = 0;
  /** Changes that could not be published (Redis or the database unreachable) since the start. */
  failures = 0;

  constructor(
    private readonly reads: CheckinStreamReads,
    private readonly config: AppConfig,
  ) {
    // Commands wait for the (re)connection, each publish bounded by QUEUE_TIMEOUT_MS.
    this.redis = new Redis({ ...redisOptions(config.redisUrl, 'producer'), enableOfflineQueue: true });
    this.redis.on('error', (err: Error) => this.logger.debug(`redis: ${err.message}`));
  }

  committed(change: CheckinChange): void {
    const work = this.publish(change).catch((err: unknown) => {
      this.failures++;
      this.logger.warn(
        `live stream publish failed (${this.failures} so far): ${err instanceof Error ? err.message : String(err)}`,
      );
    });
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /** Waits for the publishes in flight (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  /** Lets the publishes in flight finish while the database is still open. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  private async publish(change: CheckinChange): Promise<void> {
    const heard = await this.heard(change);
    if (heard === null) return;
    const entries = await this.reads.ofChange(heard);
    if (entries.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const entry of entries) {
      pipeline.publish(
        streamChannel(this.config.queuePrefix, entry.listId),
        JSON.stringify(toStreamFrame(entry)),
      );
    }
    const results = await within(pipeline.exec(), this.config.queueTimeoutMs, 'publish');
    const failed = (results ?? []).find(([err]) => err !== null);
    if (failed) throw failed[0]!;
    this.published += entries.length;
  }

  /**
   * The part of a redeem's change (`scans`, whose lists are known) that some replica has a client for: one Redis
   * `PUBSUB NUMSUB` instead of the two statements that read the entries, so a door scanner's redeem costs no SQL
   * for the stream while nobody listens to its list. Null when nobody does. A client that connects meanwhile
   * subscribes before it replays from PostgreSQL, so it still gets the (committed) scan by `Last-Event-ID`.
   * Other changes (their lists are known only once read) are passed on as they are.
   */
  private async heard(change: CheckinChange): Promise<CheckinChange | null> {
    if (change.kind !== 'scans') return change;
    const lists = [...new Set(change.scans.map((x) => x.listId))];
    const counts = (await within(
      this.redis.pubsub('NUMSUB', ...lists.map((l) => streamChannel(this.config.queuePrefix, l))),
      this.config.queueTimeoutMs,
      'numsub',
    )) as (string | number)[];
    const listened = new Set(lists.filter((_, i) => Number(counts[2 * i + 1]) > 0));
    const scans = change.scans.filter((x) => listened.has(x.listId));
    return scans.length === 0 ? null : { kind: 'scans', scans };
  }
}
