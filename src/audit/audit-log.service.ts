import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../auth/principal';
import { preparedQuery } from '../common/persistence/prepared';

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
@Injectable()
export class AuditLogService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async record(em: EntityManager, actor: Principal | null, record: AuditRecord): Promise<void> {
    await em.query(
      `INSERT INTO log_entry (organizer_id, event_id, content_type, object_id, action_type, data, user_id, api_token_id)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)`,
      [
        record.organizerId,
        record.eventId ?? null,
        record.contentType,
        record.objectId,
        record.action,
        JSON.stringify(record.data ?? {}),
        actor?.identity.userId ?? null,
        actor?.identity.tokenId ?? null,
      ],
    );
  }

  /**
   * Writes many entries of one actor in one statement (set-based, whatever their number: the rows travel as one
   * JSON parameter), inside the caller's transaction; e.g. the vouchers of a batch.
   */
  async recordMany(em: EntityManager, actor: Principal | null, records: AuditRecord[]): Promise<void> {
    if (records.length === 0) return;
    await em.query(
      `INSERT INTO log_entry (organizer_id, event_id, content_type, object_id, action_type, data, user_id, api_token_id)
       SELECT r.organizer_id, r.event_id, r.content_type, r.object_id, r.action, r.data, $2, $3
         FROM jsonb_to_recordset($1::jsonb)
           AS r(organizer_id int, event_id int, content_type text, object_id bigint, action text, data jsonb)`,
      [
        JSON.stringify(
          records.map((r) => ({
            organizer_id: r.organizerId,
            event_id: r.eventId ?? null,
            content_type: r.contentType,
            object_id: r.objectId,
            action: r.action,
            data: r.data ?? {},
          })),
        ),
        actor?.identity.userId ?? null,
        actor?.identity.tokenId ?? null,
      ],
    );
  }

  /** Time of the newest log entry of a content type within an event (UTC), or null. */
  async lastModified(eventId: number, contentTypes: string[]): Promise<Date | null> {
    const rows = await preparedQuery<{ last: Date | null }>(
      this.db.manager,
      'SELECT max(datetime) AS last FROM log_entry WHERE event_id = $1 AND content_type = ANY($2)',
      [eventId, contentTypes],
    );
    return rows[0]?.last ?? null;
  }
}
