import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Periodic } from '../common/contributions';
import { ExitAllQueries } from './exit-all.queries';
import { CHECKIN_EVENTS, type CheckinEvents } from './checkin-events.port';

/**
 * Automatic check-out (spec "Check-in list" `exit_all_at`; compat §3.20): once a list's `exit_all_at` has passed,
 * every ticket whose last successful scan on that list is an entry gets an exit scan at that time
 * (`auto_checked_in`), and `exit_all_at` moves exactly one day on, without touching the list's modification time
 * (the daily move is internal configuration, not a change for If-Modified-Since). Exits free places on quotas with
 * `release_after_exit` through the maintained counts. Run by the worker's scheduler tick; each list is handled in
 * its own transaction with its row locked (`SKIP LOCKED`: two workers never check out the same list twice); the exits
 * of a list are published to its live stream after that commit.
 */
@Injectable()
export class ExitAll {
  private readonly logger = new Logger('ExitAll');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    /** The live stream of the lists (each list's exits published after its commit). */
    @Inject(CHECKIN_EVENTS) private readonly events: CheckinEvents,
    /** Injected; the default serves callers outside Nest's container (it is stateless). */
    private readonly queries: ExitAllQueries = new ExitAllQueries(),
  ) {}

  /** Checks out the due lists (at most `maxLists` per call). @returns the number of exits written */
  @Periodic('checkin.exit-all')
  async run(now = new Date(), maxLists = 100): Promise<number> {
    let exits = 0;
    for (let i = 0; i < maxLists; i++) {
      const done = await this.db.transaction(async (em) => {
        const list = await this.queries.lockDueExitList(em, now);
        if (list === null) return null;
        const written = await this.queries.insertAutomaticExits(em, list.id, list.event_id, list.exit_all_at);
        await this.queries.postponeExitAll(em, list.id);
        return written;
      });
      if (done === null) break;
      if (done.length > 0) this.events.committed({ kind: 'checkins', checkinIds: done });
      exits += done.length;
    }
    if (exits > 0) this.logger.log(`checked out ${exits} ticket(s) at exit_all_at`);
    return exits;
  }
}
