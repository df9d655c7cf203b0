import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlFragment, sqlFragment } from '../common/persistence/sql-fragment';
import { CHECKIN_COUNT_STRIPES } from './checkin-list-counts.entity';

/** A list's counts, as stored (summed stripes) and as recomputed from the scans. */
export interface CheckinCountsRow {
  list_id: number;
  stored_checked_in: number;
  stored_inside: number;
  actual_checked_in: number;
  actual_inside: number;
}

/** The counts every list should have, from its successful scans (the definition the trigger maintains). */
const actual = (lists: string) => `SELECT list_id, COUNT(*) FILTER (WHERE has_entry)::int AS checked_in,
         COUNT(*) FILTER (WHERE last_type = 'entry')::int AS inside
    FROM (SELECT c.list_id, c.position_id, bool_or(c.type = 'entry') AS has_entry,
                 (array_agg(c.type ORDER BY c.datetime DESC, c.id DESC))[1] AS last_type
            FROM checkin c
           WHERE c.successful AND c.position_id IS NOT NULL AND c.list_id = ANY(${lists})
           GROUP BY c.list_id, c.position_id) s
   GROUP BY list_id`;

/** The ids of the lists of event `$1` (all lists when NULL). */
const LISTS = 'ARRAY(SELECT id FROM checkin_list WHERE $1::int IS NULL OR event_id = $1::int)';

/**
 * The SQL of the maintained check-in counts (`checkin_list_counts`, migration `LiveFigureCounters`): the fragment
 * the live figures read, and the statements of their check. Stateless; each method runs on the caller's
 * EntityManager.
 */
@Injectable()
export class CheckinCountsQueries {
  /**
   * Fragment: a SELECT of the counts of the event's check-in lists (those of sub-event `subeventId` and those for
   * all dates, when it is not NULL), rows `(list_id int, checked_in int, inside int)`, every list of the scope
   * present. `eventId` and `subeventId` are `int` expressions of the caller's statement.
   */
  static byEvent(eventId: string, subeventId: string): SqlFragment {
    return sqlFragment(`SELECT l.id AS list_id, COALESCE(SUM(k.checked_in), 0)::int AS checked_in,
                COALESCE(SUM(k.inside), 0)::int AS inside
           FROM checkin_list l LEFT JOIN checkin_list_counts k ON k.list_id = l.id
          WHERE l.event_id = ${eventId}
            AND (${subeventId} IS NULL OR l.subevent_id IS NULL OR l.subevent_id = ${subeventId})
          GROUP BY l.id`);
  }

  /** Stored against recomputed counts of the lists (of `eventId`, or all) where they differ; one statement. */
  drift(em: EntityManager, eventId: number | null): Promise<CheckinCountsRow[]> {
    return em.query(
      `WITH actual AS (${actual(LISTS)}),
            stored AS (SELECT list_id, SUM(checked_in)::int AS checked_in, SUM(inside)::int AS inside
                         FROM checkin_list_counts WHERE list_id = ANY(${LISTS}) GROUP BY list_id)
       SELECT COALESCE(a.list_id, s.list_id) AS list_id,
              COALESCE(s.checked_in, 0) AS stored_checked_in, COALESCE(s.inside, 0) AS stored_inside,
              COALESCE(a.checked_in, 0) AS actual_checked_in, COALESCE(a.inside, 0) AS actual_inside
         FROM actual a FULL JOIN stored s ON s.list_id = a.list_id
        WHERE COALESCE(s.checked_in, 0) <> COALESCE(a.checked_in, 0) OR COALESCE(s.inside, 0) <> COALESCE(a.inside, 0)`,
      [eventId],
    );
  }

  /**
   * Sets the counts of `listIds` from the scans as they are now, in the caller's transaction: every stripe of the
   * lists is created and locked first (key order), so no scan of those lists is counted in between; then stripe 0
   * gets the recount and the others zero. Three statements.
   */
  async repair(em: EntityManager, listIds: readonly number[]): Promise<void> {
    const ids = [...new Set(listIds)].sort((a, b) => a - b);
    await em.query(
      `INSERT INTO checkin_list_counts (list_id, slot)
         SELECT l.id, g FROM checkin_list l, generate_series(0, ${CHECKIN_COUNT_STRIPES - 1}) g
          WHERE l.id = ANY($1::int[]) ORDER BY 1, 2
         ON CONFLICT DO NOTHING`,
      [ids],
    );
    await em.query(
      `SELECT 1 FROM checkin_list_counts WHERE list_id = ANY($1::int[]) ORDER BY list_id, slot FOR UPDATE`,
      [ids],
    );
    await em.query(
      `WITH actual AS (${actual('$1::int[]')})
       UPDATE checkin_list_counts k
          SET checked_in = CASE WHEN k.slot = 0 THEN COALESCE(a.checked_in, 0) ELSE 0 END,
              inside = CASE WHEN k.slot = 0 THEN COALESCE(a.inside, 0) ELSE 0 END
         FROM checkin_list_counts x LEFT JOIN actual a ON a.list_id = x.list_id
        WHERE x.list_id = ANY($1::int[]) AND k.list_id = x.list_id AND k.slot = x.slot`,
      [ids],
    );
  }
}
