import { ApiProperty, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';
import type { LogEntry } from '../../audit/log-entry.entity';
import { scrubSecrets } from '../../audit/secret-fields';
import { ApiDateTime, ApiInt } from '../../common/http/api-schemas';
import { isoUtc } from '../../common/values/datetime';
import { CHANGE_RESOURCE_NAMES, CHANGE_RESOURCES, changeTargetOf } from '../change-resources';
import type { ActorRow, EntryRelated } from './audit-log.queries';

/** Actor types of the audit log (README "Audit log"). */
export const ACTOR_TYPES = ['token', 'user', 'device', 'oauth_application', 'system'] as const;

/** The user behind an `oauth_application` actor. */
export class AuditActorUserJson {
  @ApiInt()
  id!: number;
  @ApiProperty({ type: String, nullable: true })
  email!: string | null;
  /** Full name, null when the user has none. */
  @ApiProperty({ type: String, nullable: true })
  name!: string | null;
}

/** Who wrote an entry. */
export class AuditActorJson {
  /**
   * `token`: a team API token (`id` the token id, `name` its name); `user`: a user without OAuth (`name` the full
   * name, else the e-mail); `device`: a device (`id` its `device_id`, `name` its name); `oauth_application`: a user
   * acting through an OAuth application (`id`, `name`: the application; `user`: the user); `system`: nobody
   * (the worker: order expiry, the scheduler), `id` and `name` null.
   */
  @ApiProperty({ enum: ACTOR_TYPES })
  type!: ActorRow['type'];
  @ApiInt({ nullable: true })
  id!: number | null;
  /** Null for `system`, or when the token, device or application is gone. */
  @ApiProperty({ type: String, nullable: true })
  name!: string | null;
  /** Only for `oauth_application`: the user who acted through it. */
  @ApiProperty({ type: AuditActorUserJson, required: false, nullable: true })
  user?: AuditActorUserJson | null;
}

/** The object an entry is about. */
export class AuditObjectJson {
  /** Resource name as in the change feed (`order`, `item`, `checkin`, …). */
  @ApiProperty({ enum: CHANGE_RESOURCE_NAMES })
  resource!: string;
  /**
   * Its identifier in the detail route: `{"id": 5}`, `{"code": "ABC12"}` (orders), `{"slug": …}` (events,
   * organizer), `{"identifier": …}` (customers, sales channels), `{"device_id": 3}`; null when the object is gone
   * and its key is not its id.
   */
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    example: { code: 'ABC12' },
  })
  key!: Record<string, string | number> | null;
}

/** Any JSON value (a field's value as logged). */
const ANY_JSON: ApiPropertyOptions = {
  nullable: true,
  oneOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
  ],
};

/** One changed field: its old value (when recorded) and its new value. */
export class AuditFieldChangeJson {
  /** The value before the change; absent when not recorded (creations, actions, older entries). */
  @ApiProperty({ required: false, ...ANY_JSON })
  old?: unknown;
  @ApiProperty({ ...ANY_JSON })
  new!: unknown;
}

/** One audit log entry (README "Audit log"). */
export class AuditLogEntryJson {
  /** The log entry id. */
  @ApiInt({ int64: true })
  id!: number;
  @ApiDateTime()
  datetime!: string;
  /** pretix action name, e.g. `pretix.event.order.paid`. */
  action_type!: string;
  @ApiProperty({ type: AuditActorJson })
  actor!: AuditActorJson;
  /** Null for an entry about no object of a known resource. */
  @ApiProperty({ type: AuditObjectJson, nullable: true })
  object!: AuditObjectJson | null;
  /**
   * What changed, field by field: `{"<field>": {"old": …, "new": …}}`. Updates of audited objects record old
   * and new values of the changed database columns (reference columns end in `_id`); values an entry logged
   * besides (a summary of the action; for creations the request body) read `{"new": …}`. For updates
   * (`*.changed`) with recorded changes only those are shown. Secret fields never appear: their values read
   * `"[redacted]"`.
   */
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(AuditFieldChangeJson) } })
  data!: Record<string, AuditFieldChangeJson>;
  /** Slug of the entry's event, null for organizer-level entries. */
  @ApiProperty({ type: String, nullable: true })
  event!: string | null;
}

/** `pretix.….changed` and `pretix.….changed.<detail>`: updates, whose logged data is the request body. */
const UPDATE_ACTION = /\.changed(\.|$)/;

/**
 * The `data` of an entry, secrets redacted: the recorded changes (`{"old", "new"}` per changed column), plus the
 * logged values not among them as `{"new": …}`. For an update (`*.changed`) with recorded changes only these:
 * its logged data is the request body, whose fields that kept their value changed nothing.
 */
function dataOf(entry: LogEntry): Record<string, AuditFieldChangeJson> {
  const changes = scrubSecrets(entry.changes ?? {}) as Record<string, AuditFieldChangeJson>;
  const recorded = Object.keys(changes).length > 0;
  if (recorded && UPDATE_ACTION.test(entry.actionType)) return changes;
  const logged = Object.entries(scrubSecrets(entry.data ?? {}))
    .filter(([k]) => !(k in changes))
    .map(([k, v]) => [k, { new: v }]);
  return { ...Object.fromEntries(logged), ...changes } as Record<string, AuditFieldChangeJson>;
}

/** The `object` of an entry, by the change-resources mapping; the key value read in the page's statement. */
function objectOf(entry: LogEntry, keyValue: string | null): AuditObjectJson | null {
  const target = changeTargetOf({
    contentType: entry.contentType,
    objectId: entry.objectId,
    actionType: entry.actionType,
    eventId: entry.eventId,
    data: entry.data,
  });
  if (!target) return null;
  if (target.key) return { resource: target.resource, key: { ...target.key } };
  const field = CHANGE_RESOURCES[target.resource].keyField;
  if (keyValue === null) return { resource: target.resource, key: null };
  return { resource: target.resource, key: { [field]: field === 'device_id' ? Number(keyValue) : keyValue } };
}

/** Presents one entry with what its page's statement read along. */
export function toAuditLogEntryJson(entry: LogEntry, related: EntryRelated): AuditLogEntryJson {
  const actor = related.actor;
  return {
    id: Number(entry.id),
    datetime: isoUtc(entry.datetime),
    action_type: entry.actionType,
    actor: {
      type: actor.type,
      id: actor.id === null ? null : Number(actor.id),
      name: actor.name,
      ...(actor.type === 'oauth_application' ? { user: actor.user ?? null } : {}),
    },
    object: objectOf(entry, related.keyValue),
    data: dataOf(entry),
    event: related.eventSlug,
  };
}
