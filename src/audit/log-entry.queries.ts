import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { preparedQuery } from '../common/persistence/prepared';
import { LogEntry } from './log-entry.entity';

/** The columns of an entry written per row of a change (see {@link LogEntryQueries.insertEach}). */
export interface EachEntryColumns {
  /** The returned column of the change that is the entry's object id. */
  objectId: string;
  /** A SQL expression (`jsonb`) over the returned row (alias `c`): the entry's data. */
  data: string;
}

/**
 * The SQL of the audit log (`log_entry`; compat §1.7, §5). Stateless; every method runs in the caller's `em`
 * (inside the caller's transaction, so a change and its entry land together) and takes no explicit lock.
 * The ten entry parameters are, in this order: organizer id, event id, content type, object id, action, data
 * (JSON text), user id, API token id, device id (the device's database id, pretix `LogEntry.device`), OAuth
 * application id (the application through which the user acted).
 */
@Injectable()
export class LogEntryQueries {
  /** Inserts one entry from its ten parameters. */
  async insert(em: EntityManager, entry: readonly unknown[]): Promise<void> {
    await em.query(
      `INSERT INTO log_entry (organizer_id, event_id, content_type, object_id, action_type, data, user_id, api_token_id,
                             device_id, oauth_application_id)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10)`,
      entry as unknown[],
    );
  }

  /**
   * Runs `change` (INSERT, UPDATE or DELETE without RETURNING, parameters `$1..$n` of `params`) and inserts the
   * entry (its ten parameters follow) only when the change touched a row, in ONE statement.
   * @returns whether the change touched a row
   */
  async insertAlong(
    em: EntityManager,
    change: string,
    params: readonly unknown[],
    entry: readonly unknown[],
  ): Promise<boolean> {
    const n = params.length;
    const at = (i: number) => `$${n + i}`;
    const rows: { changed: boolean }[] = await em.query(
      `WITH change AS (${change} RETURNING 1),
            entry AS (
              INSERT INTO log_entry (organizer_id, event_id, content_type, object_id, action_type, data, user_id, api_token_id,
                             device_id, oauth_application_id)
              SELECT ${at(1)}::int, ${at(2)}::int, ${at(3)}::text, ${at(4)}::int, ${at(5)}::text, ${at(6)}::jsonb, ${at(7)}::int, ${at(8)}::int,
                     ${at(9)}::int, ${at(10)}::int
               WHERE EXISTS (SELECT 1 FROM change))
       SELECT EXISTS (SELECT 1 FROM change) AS changed`,
      [...params, ...entry],
    );
    return rows[0]?.changed === true;
  }

  /**
   * Runs `change` (ending in `RETURNING ...`, parameters `$1..$n` of `params`) and inserts one entry per
   * returned row, in ONE statement. `shared` are the eight parameters common to all entries, following `params`:
   * organizer id, event id, content type, action, user id, API token id, device id, OAuth application id.
   * @param prepared run as a named prepared statement (planned once per connection)
   * @returns the rows `change` returned
   */
  insertEach<T>(
    em: EntityManager,
    columns: EachEntryColumns,
    change: string,
    params: readonly unknown[],
    shared: readonly unknown[],
    prepared: boolean,
  ): Promise<T[]> {
    const n = params.length;
    const at = (i: number) => `$${n + i}`;
    const sql = `WITH change AS (${change}),
            entry AS (
              INSERT INTO log_entry (organizer_id, event_id, content_type, object_id, action_type, data, user_id, api_token_id,
                             device_id, oauth_application_id)
              SELECT ${at(1)}::int, ${at(2)}::int, ${at(3)}::text, c.${columns.objectId}, ${at(4)}::text, ${columns.data},
                     ${at(5)}::int, ${at(6)}::int, ${at(7)}::int, ${at(8)}::int
                FROM change c)
       SELECT * FROM change`;
    const all = [...params, ...shared];
    return prepared ? preparedQuery<T>(em, sql, all) : em.query(sql, all);
  }

  /**
   * Inserts many entries of one actor in one statement: `records` is a JSON array of objects with
   * `organizer_id, event_id, content_type, object_id, action, data`; `actor` the four actor parameters (user id,
   * API token id, device id, OAuth application id).
   */
  async insertMany(em: EntityManager, records: string, actor: readonly unknown[]): Promise<void> {
    await em.query(
      `INSERT INTO log_entry (organizer_id, event_id, content_type, object_id, action_type, data, user_id, api_token_id,
                             device_id, oauth_application_id)
       SELECT r.organizer_id, r.event_id, r.content_type, r.object_id, r.action, r.data, $2, $3, $4, $5
         FROM jsonb_to_recordset($1::jsonb)
           AS r(organizer_id int, event_id int, content_type text, object_id bigint, action text, data jsonb)`,
      [records, ...actor],
    );
  }

  /** Empties the data of the organizer's entries about one object (personal data shredded, pretix `shredded`). */
  async shredData(
    em: EntityManager,
    organizerId: number,
    contentType: string,
    objectId: number,
  ): Promise<void> {
    await em.query(
      `UPDATE log_entry SET data = '{}'::jsonb
        WHERE organizer_id = $1 AND content_type = $2 AND object_id = $3 AND data <> '{}'::jsonb`,
      [organizerId, contentType, objectId],
    );
  }

  /** Time of the newest entry of these content types within the event (UTC), or null. Prepared statement. */
  async lastModified(em: EntityManager, eventId: number, contentTypes: string[]): Promise<Date | null> {
    const rows = await preparedQuery<{ last: Date | null }>(
      em,
      'SELECT max(datetime) AS last FROM log_entry WHERE event_id = $1 AND content_type = ANY($2)',
      [eventId, contentTypes],
    );
    return rows[0]?.last ?? null;
  }

  /**
   * The organizer's entries as a builder (alias `le`) for the audit log lists (README "Audit log"); the caller adds
   * its scope, filters, related values and ordering, and runs it with the list helpers (one statement).
   */
  entriesOfOrganizer(em: EntityManager, organizerId: number): SelectQueryBuilder<LogEntry> {
    return em.createQueryBuilder(LogEntry, 'le').where('le.organizer_id = :organizerId', { organizerId });
  }
}
