import { Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';
import type { LogEntry } from '../../audit/log-entry.entity';
import { paginateInOne, relatedValue } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { RESOURCE_BY_DATA, RESOURCE_OF_CONTENT_TYPE } from '../change-resources';
import { LogScope, UNMAPPED } from './log-resources';

/** The actor of an entry as the page's statement builds it (README "Audit log", `actor`). */
export interface ActorRow {
  type: 'token' | 'user' | 'device' | 'oauth_application' | 'system';
  id: number | null;
  name: string | null;
  user?: { id: number; email: string | null; name: string | null } | null;
}

/** What the page's statement reads besides the entry's own columns. */
export interface EntryRelated {
  actor: ActorRow;
  eventSlug: string | null;
  /** The key value of an object whose key is not its id (order code, event slug, …), else null. */
  keyValue: string | null;
}

/** Filters of the log lists, already validated (see `AuditLogsService`). */
export interface LogFilters {
  /** Exact action types, and prefixes (`pretix.event.order.` for `pretix.event.order.*`). */
  actionTypes: { exact: string[]; prefixes: string[] };
  actorType?: ActorRow['type'];
  since?: Date;
  until?: Date;
  resources: string[];
  /** Only the entries of this event. */
  eventId?: number;
  /** Only the entries about this object (content type and object id). */
  object?: { contentType: string; objectId: number };
}

/**
 * SQL literal of a short identifier-like string (content types and resource names: `[a-z_]` only; action
 * prefixes with `dotted` also `.`).
 */
function lit(s: string, dotted = false): string {
  if (!(dotted ? /^[a-z_.]*$/ : /^[a-z_]*$/).test(s)) throw new Error(`not a plain name: ${s}`);
  return `'${s}'`;
}

/** SQL test that `value` (a text) is what `positiveInt` of change-resources.ts accepts: 1 to 15 digits, not 0. */
function positiveIntSql(value: string): string {
  return `(${value} ~ '^0*[1-9][0-9]*$' AND length(${value}) <= 15)`;
}

/**
 * The resource name of an entry in SQL, built from the tables `changeTargetOf` reads (src/sync/change-resources.ts:
 * `RESOURCE_BY_DATA` first, e.g. check-ins logged on the order, then `RESOURCE_OF_CONTENT_TYPE`); '' for none.
 */
export const RESOURCE_SQL = `(CASE
  ${RESOURCE_BY_DATA.map(
    (r) =>
      `WHEN le.content_type = ${lit(r.contentType)} AND starts_with(le.action_type, ${lit(r.actionPrefix, true)})
       AND jsonb_typeof(le.data -> ${lit(r.field)}) IN ('number', 'string')
       AND ${positiveIntSql(`(le.data ->> ${lit(r.field)})`)} THEN ${lit(r.resource)}`,
  ).join('\n  ')}
  ${Object.entries(RESOURCE_OF_CONTENT_TYPE)
    .map(([ct, r]) => `WHEN le.content_type = ${lit(ct)} THEN ${lit(r)}`)
    .join('\n  ')}
  ELSE ${lit(UNMAPPED)} END)`;

/** The actor type of an entry in SQL: device, token, OAuth application, user, else system. */
export const ACTOR_TYPE_SQL = `(CASE WHEN le.device_id IS NOT NULL THEN 'device'
  WHEN le.api_token_id IS NOT NULL THEN 'token'
  WHEN le.oauth_application_id IS NOT NULL THEN 'oauth_application'
  WHEN le.user_id IS NOT NULL THEN 'user' ELSE 'system' END)`;

/**
 * The audit log API's read model (README "Audit log"). A deliberate seam (test/table-ownership.spec.ts): besides
 * `log_entry` (through the audit context's builder), the page's ONE statement reads the names of the actors
 * (`team_api_token`, `user_account`, `device`, `oauth_application`) and the keys of objects whose key is not their
 * id (`orders`, `event`, `organizer`, `customer`, `sales_channel`, `device`) as correlated subqueries, so a page
 * costs one statement whatever its size. Read-only; no locks.
 */
@Injectable()
export class AuditLogQueries {
  /**
   * Restricts `qb` (alias `le`) to the entries readable in one of `scopes` (see `logScopes`), and applies the
   * filters; all in SQL.
   */
  scoped(qb: SelectQueryBuilder<LogEntry>, scopes: LogScope[], f: LogFilters): SelectQueryBuilder<LogEntry> {
    const terms: string[] = [];
    scopes.forEach((scope, i) => {
      if (scope.resources.length === 0) return;
      const res = `${RESOURCE_SQL} = ANY(:scopeRes${i})`;
      qb.setParameter(`scopeRes${i}`, scope.resources);
      if (scope.events === null) terms.push(`(le.event_id IS NULL AND ${res})`);
      else if (scope.events === 'all') terms.push(`(le.event_id IS NOT NULL AND ${res})`);
      else if (scope.events.length > 0) {
        qb.setParameter(`scopeEv${i}`, scope.events);
        terms.push(`(le.event_id = ANY(:scopeEv${i}::int[]) AND ${res})`);
      }
    });
    qb.andWhere(terms.length > 0 ? `(${terms.join(' OR ')})` : 'FALSE');
    if (f.eventId !== undefined) qb.andWhere('le.event_id = :eventId', { eventId: f.eventId });
    if (f.object) {
      qb.andWhere('le.content_type = :objectType AND le.object_id = :objectId', {
        objectType: f.object.contentType,
        objectId: f.object.objectId,
      });
    }
    const { exact, prefixes } = f.actionTypes;
    if (exact.length > 0 || prefixes.length > 0) {
      const alternatives: string[] = [];
      if (exact.length > 0) alternatives.push('le.action_type = ANY(:actionExact)');
      prefixes.forEach((p, i) => {
        alternatives.push(`starts_with(le.action_type, :actionPrefix${i})`);
        qb.setParameter(`actionPrefix${i}`, p);
      });
      qb.andWhere(`(${alternatives.join(' OR ')})`, { actionExact: exact });
    }
    if (f.actorType) qb.andWhere(`${ACTOR_TYPE_SQL} = :actorType`, { actorType: f.actorType });
    if (f.since) qb.andWhere('le.datetime >= :since', { since: f.since });
    // Inclusive at the wire's millisecond precision (entries are stored with microseconds).
    if (f.until) qb.andWhere('le.datetime < :until', { until: new Date(f.until.getTime() + 1) });
    if (f.resources.length > 0) qb.andWhere(`${RESOURCE_SQL} = ANY(:resources)`, { resources: f.resources });
    return qb;
  }

  /** One page of `qb` (scoped, filtered and ordered) with actors, event slugs and keys, in ONE statement. */
  page<T>(
    qb: SelectQueryBuilder<LogEntry>,
    page: PageRequest,
    present: (row: LogEntry, related: EntryRelated) => T,
  ): Promise<Paginated<T>> {
    return paginateInOne(
      qb,
      page,
      {
        actor: relatedValue<ActorRow>(ACTOR_SQL),
        eventSlug: relatedValue<string | null>('SELECT ev.slug FROM event ev WHERE ev.id = le.event_id'),
        keyValue: relatedValue<string | null>(KEY_SQL),
      },
      present,
    );
  }
}

/** The actor object (JSON) of an entry, names resolved in the statement. */
const ACTOR_SQL = `SELECT CASE
  WHEN le.device_id IS NOT NULL THEN
    coalesce((SELECT jsonb_build_object('type', 'device', 'id', d.device_id, 'name', d.name) FROM device d
               WHERE d.id = le.device_id), jsonb_build_object('type', 'device', 'id', NULL, 'name', NULL))
  WHEN le.api_token_id IS NOT NULL THEN
    jsonb_build_object('type', 'token', 'id', le.api_token_id,
      'name', (SELECT t.name FROM team_api_token t WHERE t.id = le.api_token_id))
  WHEN le.oauth_application_id IS NOT NULL THEN
    jsonb_build_object('type', 'oauth_application', 'id', le.oauth_application_id,
      'name', (SELECT a.name FROM oauth_application a WHERE a.id = le.oauth_application_id),
      'user', (SELECT jsonb_build_object('id', u.id, 'email', u.email, 'name', nullif(u.fullname, ''))
                 FROM user_account u WHERE u.id = le.user_id))
  WHEN le.user_id IS NOT NULL THEN
    jsonb_build_object('type', 'user', 'id', le.user_id,
      'name', (SELECT coalesce(nullif(u.fullname, ''), u.email) FROM user_account u WHERE u.id = le.user_id))
  ELSE jsonb_build_object('type', 'system', 'id', NULL, 'name', NULL) END`;

/** The key value of an object whose key field is not `id`, by content type (see change-resources.ts). */
const KEY_SQL = `SELECT CASE le.content_type
  WHEN 'order' THEN (SELECT o.code FROM orders o WHERE o.id = le.object_id)
  WHEN 'event' THEN (SELECT e.slug FROM event e WHERE e.id = le.object_id)
  WHEN 'organizer' THEN (SELECT g.slug FROM organizer g WHERE g.id = le.object_id)
  WHEN 'customer' THEN (SELECT c.identifier FROM customer c WHERE c.id = le.object_id)
  WHEN 'saleschannel' THEN (SELECT s.identifier FROM sales_channel s WHERE s.id = le.object_id)
  WHEN 'device' THEN (SELECT dv.device_id::text FROM device dv WHERE dv.id = le.object_id)
  END`;
