import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Periodic } from '../common/contributions';

/**
 * Automatic check-out (spec "Check-in list" `exit_all_at`; compat §3.20): once a list's `exit_all_at` has passed,
 * every ticket whose last successful scan on that list is an entry gets an exit scan at that time
 * (`auto_checked_in`), and `exit_all_at` moves exactly one day on, without touching the list's modification time
 * (the daily move is internal configuration, not a change for If-Modified-Since). Exits free places on quotas with
 * `release_after_exit` through the maintained counts. Run by the worker's scheduler tick; each list is handled in
 * its own transaction with its row locked (`SKIP LOCKED`: two workers never check out the same list twice).
 */
@Injectable()
export class ExitAll {
  private readonly logger = new Logger('ExitAll');

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Checks out the due lists (at most `maxLists` per call). @returns the number of exits written */
  @Periodic('checkin.exit-all')
  async run(now = new Date(), maxLists = 100): Promise<number> {
    let exits = 0;
    for (let i = 0; i < maxLists; i++) {
      const done = await this.db.transaction(async (em) => {
        const due: { id: number; event_id: number; exit_all_at: Date }[] = await em.query(
          `SELECT id, event_id, exit_all_at FROM checkin_list WHERE exit_all_at <= $1
            ORDER BY exit_all_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
          [now],
        );
        if (due.length === 0) return null;
        const list = due[0];
        const written: unknown[] = await em.query(
          `INSERT INTO checkin (position_id, event_id, list_id, type, datetime, successful, auto_checked_in)
           SELECT last.position_id, $2, $1, 'exit', $3, true, true
             FROM (SELECT DISTINCT ON (c.position_id) c.position_id, c.type
                     FROM checkin c
                    WHERE c.list_id = $1 AND c.successful AND c.position_id IS NOT NULL AND c.datetime <= $3
                    ORDER BY c.position_id, c.datetime DESC, c.id DESC) last
            WHERE last.type = 'entry'
           RETURNING id`,
          [list.id, list.event_id, list.exit_all_at],
        );
        await em.query(`UPDATE checkin_list SET exit_all_at = exit_all_at + interval '1 day' WHERE id = $1`, [
          list.id,
        ]);
        return written.length;
      });
      if (done === null) break;
      exits += done;
    }
    if (exits > 0) this.logger.log(`checked out ${exits} ticket(s) at exit_all_at`);
    return exits;
  }
}
