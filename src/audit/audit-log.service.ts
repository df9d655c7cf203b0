import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { Principal } from '../auth/principal';
import type { LogEntry } from './log-entry.entity';
import { LogEntryQueries } from './log-entry.queries';
import { scrubSecrets } from './secret-fields';

export interface AuditRecord {
  organizerId: number;
  eventId?: number | null;
  /** Kind of object: `team`, `item`, `itemcategory`, `event`, ... */
  contentType: string;
  objectId: number | null;
  /** pretix action name (compat §5), e.g. `pretix.event.item.added`. */
  action: string;
  data?: Record<string, unknown>;
}

/**
 * Writes audit log entries inside the caller's transaction, so a change and its log entry land together or not
 * at all. The log is the single source for `Last-Modified` (compat §1.7) and webhooks.
 */
/** The database id of the device acting, or null (pretix `LogEntry.device`: the audit log names the device). */
function deviceOf(actor: Principal | null): number | null {
  return actor?.identity.kind === 'device' ? (actor.identity.device?.id ?? null) : null;
}

/** The OAuth application through which a user acts, or null (README "Audit log": actor `oauth_application`). */
function applicationOf(actor: Principal | null): number | null {
  return actor?.identity.kind === 'user' ? (actor.identity.oauthApplicationId ?? null) : null;
}

/** The four actor parameters of an entry: user id, API token id, device id, OAuth application id. */
function actorParams(actor: Principal | null): unknown[] {
  return [
    actor?.identity.userId ?? null,
    actor?.identity.tokenId ?? null,
    deviceOf(actor),
    applicationOf(actor),
  ];
}

/**
 * The ten parameters of one `log_entry` row, in the column order of the INSERTs below. Secret-named fields of
 * the data are redacted before they are written (see `secret-fields.ts`).
 */
function entryParams(actor: Principal | null, record: AuditRecord): unknown[] {
  return [
    record.organizerId,
    record.eventId ?? null,
    record.contentType,
    record.objectId,
    record.action,
    JSON.stringify(scrubSecrets(record.data ?? {})),
    ...actorParams(actor),
  ];
}

@Injectable()
export class AuditLogService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queries: LogEntryQueries,
  ) {}

  async record(em: EntityManager, actor: Principal | null, record: AuditRecord): Promise<void> {
    await this.queries.insert(em, entryParams(actor, record));
  }

  /**
   * {@link record} of an object of an event: organizer and event taken from `event`, `data` (the request body or
   * a summary) copied into the entry.
   */
  recordOnEvent(
    em: EntityManager,
    actor: Principal | null,
    event: { id: number; organizerId: number },
    contentType: string,
    objectId: number,
    action: string,
    data: object,
  ): Promise<void> {
    return this.record(em, actor, {
      organizerId: event.organizerId,
      eventId: event.id,
      contentType,
      objectId,
      action,
      data: { ...data },
    });
  }

  /**
   * Runs a change and writes its entry in ONE statement (a data-modifying CTE): `change` is an INSERT, UPDATE or
   * DELETE without RETURNING whose parameters are `$1..$n` of `params`; the entry is written only when the change
   * touched a row (e.g. not when `ON CONFLICT DO NOTHING` skipped it). For hot paths (a redeem at the door).
   * @returns whether the change touched a row
   */
  recordAlong(
    em: EntityManager,
    actor: Principal | null,
    record: AuditRecord,
    change: string,
    params: readonly unknown[],
  ): Promise<boolean> {
    return this.queries.insertAlong(em, change, params, entryParams(actor, record));
  }

  /**
   * Runs a change and writes one entry per row it returns, in ONE statement (a data-modifying CTE; the
   * `log_entry` triggers fire as for any insert): `change` is an INSERT, UPDATE or DELETE ending in
   * `RETURNING ...` whose parameters are `$1..$n` of `params`. Each entry takes its object id from the returned
   * column `entry.objectId` and its data from `entry.data`, a SQL expression (`jsonb`) over the returned row
   * (alias `c`). For hot paths that write rows and their entries while holding locks (cart positions).
   * @param prepared run as a named prepared statement (planned once per connection): for a `change` whose text
   *   recurs, not for one whose text varies with its number of rows
   * @returns the rows `change` returned
   */
  recordEach<T>(
    em: EntityManager,
    actor: Principal | null,
    entry: Omit<AuditRecord, 'objectId' | 'data'> & { objectId: string; data: string },
    change: string,
    params: readonly unknown[],
    prepared = false,
  ): Promise<T[]> {
    return this.queries.insertEach<T>(
      em,
      { objectId: entry.objectId, data: entry.data },
      change,
      params,
      [entry.organizerId, entry.eventId ?? null, entry.contentType, entry.action, ...actorParams(actor)],
      prepared,
    );
  }

  /**
   * Writes many entries of one actor in one statement (set-based, whatever their number: the rows travel as one
   * JSON parameter), inside the caller's transaction; e.g. the vouchers of a batch.
   */
  async recordMany(em: EntityManager, actor: Principal | null, records: AuditRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.queries.insertMany(
      em,
      JSON.stringify(
        records.map((r) => ({
          organizer_id: r.organizerId,
          event_id: r.eventId ?? null,
          content_type: r.contentType,
          object_id: r.objectId,
          action: r.action,
          data: scrubSecrets(r.data ?? {}),
        })),
      ),
      actorParams(actor),
    );
  }

  /**
   * Removes the data (personal data) of the organizer's entries about one object, inside the caller's transaction
   * (pretix `all_logentries().update(data={}, shredded=True)` of an anonymized customer). The entries stay.
   */
  shredData(em: EntityManager, organizerId: number, contentType: string, objectId: number): Promise<void> {
    return this.queries.shredData(em, organizerId, contentType, objectId);
  }

  /**
   * The organizer's entries as a builder (alias `le`, on the pool) for the audit log API (README "Audit log"): the
   * caller scopes, filters and pages it.
   */
  entriesOfOrganizer(organizerId: number): SelectQueryBuilder<LogEntry> {
    return this.queries.entriesOfOrganizer(this.db.manager, organizerId);
  }

  /** Time of the newest log entry of a content type within an event (UTC), or null. */
  lastModified(eventId: number, contentTypes: string[]): Promise<Date | null> {
    return this.queries.lastModified(this.db.manager, eventId, contentTypes);
  }
}
