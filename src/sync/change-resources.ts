import type { Permission } from '../auth/permissions';

/**
 * The one mapping from an audit log entry (`log_entry`: content type, object id, action, data; see src/audit/) to
 * the resource it changed, shared by the change feed (`GET O/changes/`, issue 27 §1) and the audit log API
 * (`object: {resource, key}`, §4). Resource names are the spec's (`order`, `item`, `checkin`, ...); per resource
 * it knows its scope, the permission that reads it (docs/permissions.md) and its detail GET route.
 *
 * Rules worth knowing:
 * - Sub-objects that the parent's detail GET embeds are reported as the parent: variations, add-ons, bundles and
 *   program times as `item`, question options as `question`, team members, invites and tokens as `team`, order
 *   changes, payments, refunds, invoices and order positions as `order`. Positions have no resource of their
 *   own: the order's answer holds them all, and most order actions (placing, paying, canceling, changing) touch
 *   several positions without naming them in the log, so a position resource could not be told reliably.
 * - Check-ins are logged on the order (`pretix.event.checkin*`, data `{position, list, checkin, ...}`): they are
 *   `checkin` keyed by `data.checkin` (the check-in row id, written by every check-in writer); an older entry
 *   without it is reported as the `order`.
 * - Memberships are logged on the customer: `membership` keyed by `data.id` when present, else the `customer`.
 * These two are the {@link RESOURCE_BY_DATA} rules; the rest is {@link RESOURCE_OF_CONTENT_TYPE}. Both forms of the
 * mapping read these tables: {@link changeTargetOf} here, and the audit log API's SQL (src/sync/logs/).
 * - Entries of things without a detail GET of their own (cart positions' internal bookkeeping excepted) map to
 *   null and are not part of the feed: organizer plugin settings and gift card acceptance map to `organizer`.
 */

/** Where a resource lives: under an event (`E/...`, read per event) or under the organizer (`O/...`). */
export type ChangeScope = 'organizer' | 'event';

/** The field that identifies an object of a resource in its detail route (and in `key`). */
export type ChangeKeyField = 'id' | 'code' | 'slug' | 'identifier' | 'device_id';

/** A resource of the change feed. */
export interface ChangeResource {
  /** Resource name (spec), e.g. `order`. */
  readonly name: string;
  readonly scope: ChangeScope;
  /**
   * Permissions of which any one reads the resource: event permissions for `event` scope (checked per event,
   * honouring the team's `all_events`/`limit_events`), organizer permissions for `organizer` scope. Empty:
   * event access (any team reaching the event) resp. organizer access (any team of the organizer).
   */
  readonly read: readonly Permission[];
  /**
   * The detail GET route, with `{organizer}`, `{event}` (event slug) and `{<keyField>}` placeholders, e.g.
   * `/api/v1/organizers/{organizer}/events/{event}/orders/{code}/`.
   */
  readonly detail: string;
  /** The key field: `key` is `{[keyField]: value}`, e.g. `{"code": "ABC12"}` or `{"id": 5}`. */
  readonly keyField: ChangeKeyField;
}

const O = '/api/v1/organizers/{organizer}';
const E = `${O}/events/{event}`;
const ORDERS_READ: readonly Permission[] = ['event.orders:read'];
const CHECKIN_READ: readonly Permission[] = ['event.orders:read', 'event.orders:checkin'];
const EVENT_SETTINGS: readonly Permission[] = ['event.settings.general:write'];
const ORGANIZER_SETTINGS: readonly Permission[] = ['organizer.settings.general:write'];

function ev(name: string, path: string, read: readonly Permission[] = [], keyField: ChangeKeyField = 'id') {
  return { name, scope: 'event', read, detail: `${E}/${path}/{${keyField}}/`, keyField } as const;
}

function org(name: string, path: string, read: readonly Permission[], keyField: ChangeKeyField = 'id') {
  return { name, scope: 'organizer', read, detail: `${O}/${path}/{${keyField}}/`, keyField } as const;
}

/** Every resource of the feed, by name. */
export const CHANGE_RESOURCES = {
  event: { name: 'event', scope: 'event', read: [], detail: `${O}/events/{slug}/`, keyField: 'slug' },
  order: ev('order', 'orders', ORDERS_READ, 'code'),
  checkin: ev('checkin', 'checkins', CHECKIN_READ),
  cartposition: ev('cartposition', 'cartpositions', ORDERS_READ),
  waitinglistentry: ev('waitinglistentry', 'waitinglistentries', ORDERS_READ),
  item: ev('item', 'items'),
  category: ev('category', 'categories'),
  question: ev('question', 'questions'),
  quota: ev('quota', 'quotas'),
  discount: ev('discount', 'discounts'),
  taxrule: ev('taxrule', 'taxrules'),
  subevent: ev('subevent', 'subevents'),
  itemmetaproperty: ev('itemmetaproperty', 'item_meta_properties'),
  voucher: ev('voucher', 'vouchers', ['event.vouchers:read']),
  checkinlist: ev('checkinlist', 'checkinlists', CHECKIN_READ),
  sendmailrule: ev('sendmailrule', 'sendmail_rules', EVENT_SETTINGS),
  autocheckinrule: ev('autocheckinrule', 'auto_checkin_rules', EVENT_SETTINGS),
  organizer: { name: 'organizer', scope: 'organizer', read: [], detail: `${O}/`, keyField: 'slug' },
  giftcard: org('giftcard', 'giftcards', ['organizer.giftcards:read']),
  customer: org('customer', 'customers', ['organizer.customers:read'], 'identifier'),
  membership: org('membership', 'memberships', ['organizer.customers:read']),
  membershiptype: org('membershiptype', 'membershiptypes', ORGANIZER_SETTINGS),
  reusablemedium: org('reusablemedium', 'reusablemedia', ['organizer.reusablemedia:read']),
  team: org('team', 'teams', ['organizer.teams:write']),
  webhook: org('webhook', 'webhooks', ORGANIZER_SETTINGS),
  device: org('device', 'devices', ['organizer.devices:read'], 'device_id'),
  gate: org('gate', 'gates', ['organizer.devices:read']),
  eventmetaproperty: org('eventmetaproperty', 'event_meta_properties', ORGANIZER_SETTINGS),
  saleschannel: org('saleschannel', 'saleschannels', ORGANIZER_SETTINGS, 'identifier'),
  seatingplan: org('seatingplan', 'seatingplans', [
    'organizer.seatingplans:write',
    'organizer.settings.general:write',
  ]),
} as const satisfies Record<string, ChangeResource>;

/** A resource name of the feed (`order`, `item`, ...). */
export type ChangeResourceName = keyof typeof CHANGE_RESOURCES;

/** Every resource name, sorted (for `?resource=` validation and OpenAPI enums). */
export const CHANGE_RESOURCE_NAMES = (Object.keys(CHANGE_RESOURCES) as ChangeResourceName[]).sort();

/** True for a resource name of the feed. */
export function isChangeResourceName(name: string): name is ChangeResourceName {
  return Object.prototype.hasOwnProperty.call(CHANGE_RESOURCES, name);
}

/** The audit log entry columns the mapping reads (camelCase as in `LogEntry`). */
export interface ChangeEntryFacts {
  contentType: string;
  objectId: number | null;
  actionType: string;
  eventId: number | null;
  data: Record<string, unknown> | null;
}

/** The key of a changed object: `{[keyField]: value}`. */
export type ChangeKey = Readonly<Record<string, string | number>>;

/** What one audit log entry changed. */
export interface ChangeTarget {
  resource: ChangeResourceName;
  /** Database id of the changed object (for `organizer` and `event`: the organizer's resp. event's id). */
  objectId: number;
  /** The event the object belongs to (for the `event` resource: itself); null for organizer-scoped resources. */
  eventId: number | null;
  /**
   * The key when the entry itself tells it (`{"id": 5}`; a deleted order's code, a deleted event's slug), else
   * null: then it is looked up by `objectId` (order code, event slug, customer and sales channel identifier,
   * device number), see `ChangeKeys` in src/sync/changes/.
   */
  key: ChangeKey | null;
  /** True when the action deletes the object (its data is then `null` in the feed). */
  deletes: boolean;
}

/** Content type -> resource: the content type under another name (or the same), unless a data rule applies. */
export const RESOURCE_OF_CONTENT_TYPE: Readonly<Record<string, ChangeResourceName>> = {
  order: 'order',
  item: 'item',
  itemcategory: 'category',
  question: 'question',
  quota: 'quota',
  discount: 'discount',
  taxrule: 'taxrule',
  subevent: 'subevent',
  itemmetaproperty: 'itemmetaproperty',
  voucher: 'voucher',
  checkinlist: 'checkinlist',
  scheduledmail: 'sendmailrule',
  autocheckinrule: 'autocheckinrule',
  waitinglistentry: 'waitinglistentry',
  cartposition: 'cartposition',
  checkin: 'checkin',
  event: 'event',
  organizer: 'organizer',
  giftcard: 'giftcard',
  customer: 'customer',
  membershiptype: 'membershiptype',
  reusablemedium: 'reusablemedium',
  team: 'team',
  webhook: 'webhook',
  device: 'device',
  gate: 'gate',
  eventmetaproperty: 'eventmetaproperty',
  saleschannel: 'saleschannel',
  seatingplan: 'seatingplan',
};

/**
 * An entry logged on a parent about one of its sub-objects with a resource of its own: entries of `contentType`
 * whose action starts with `actionPrefix` and whose `data[field]` is a positive integer (a number or a string of
 * at most 15 digits) are `resource` with that object id; otherwise the content type's resource applies.
 */
export interface ResourceByData {
  readonly contentType: string;
  readonly actionPrefix: string;
  readonly field: string;
  readonly resource: ChangeResourceName;
}

/** The sub-objects logged on their parent: check-ins on the order, memberships on the customer. */
export const RESOURCE_BY_DATA: readonly ResourceByData[] = [
  { contentType: 'order', actionPrefix: 'pretix.event.checkin', field: 'checkin', resource: 'checkin' },
  {
    contentType: 'customer',
    actionPrefix: 'pretix.customer.membership.',
    field: 'id',
    resource: 'membership',
  },
];

/** Actions that delete the object the entry is about (sub-object deletions, e.g. a variation, are changes). */
const DELETIONS: ReadonlySet<string> = new Set([
  'pretix.event.deleted',
  'pretix.event.order.deleted',
  'pretix.event.cartposition.deleted',
  'pretix.event.orders.waitinglist.deleted',
  'pretix.event.item.deleted',
  'pretix.event.category.deleted',
  'pretix.event.question.deleted',
  'pretix.event.quota.deleted',
  'pretix.event.discount.deleted',
  'pretix.event.taxrule.deleted',
  'pretix.subevent.deleted',
  'pretix.event.item_meta_property.deleted',
  'pretix.voucher.deleted',
  'pretix.event.checkinlist.deleted',
  'pretix.plugins.sendmail.rule.deleted',
  'pretix.plugins.autocheckin.rule.deleted',
  'pretix.membershiptype.deleted',
  'pretix.team.deleted',
  'pretix.gate.deleted',
  'pretix.property.deleted',
  'pretix.saleschannel.deleted',
  'pretix.seatingplan.deleted',
]);

function positiveInt(v: unknown): number | null {
  const n = typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

function target(resource: ChangeResourceName, objectId: number, entry: ChangeEntryFacts): ChangeTarget {
  const spec: ChangeResource = CHANGE_RESOURCES[resource];
  const deletes = DELETIONS.has(entry.actionType);
  let key: ChangeKey | null = spec.keyField === 'id' ? { id: objectId } : null;
  const data = entry.data ?? {};
  if (deletes && spec.keyField !== 'id' && typeof data[spec.keyField] === 'string') {
    key = { [spec.keyField]: data[spec.keyField] as string };
  }
  const eventId = resource === 'event' ? objectId : spec.scope === 'event' ? entry.eventId : null;
  return { resource, objectId, eventId, key, deletes };
}

/**
 * The resource and object an audit log entry changed, or null for an entry that is not part of the feed (an
 * unknown content type, an entry without object id, or an event-scoped entry without event).
 */
export function changeTargetOf(entry: ChangeEntryFacts): ChangeTarget | null {
  const data = entry.data ?? {};
  let resource: ChangeResourceName | undefined = Object.prototype.hasOwnProperty.call(
    RESOURCE_OF_CONTENT_TYPE,
    entry.contentType,
  )
    ? RESOURCE_OF_CONTENT_TYPE[entry.contentType]
    : undefined;
  let objectId = entry.objectId;
  const rule = RESOURCE_BY_DATA.find(
    (r) => r.contentType === entry.contentType && entry.actionType.startsWith(r.actionPrefix),
  );
  const id = rule ? positiveInt(data[rule.field]) : null;
  if (rule && id !== null) [resource, objectId] = [rule.resource, id];
  if (resource === undefined || objectId === null) return null;
  const out = target(resource, objectId, entry);
  if (CHANGE_RESOURCES[resource].scope === 'event' && out.eventId === null) return null;
  return out;
}

/** The detail GET path of an object: the resource's route with organizer slug, event slug and key filled in. */
export function detailPathOf(
  resource: ChangeResourceName,
  organizerSlug: string,
  eventSlug: string | null,
  key: ChangeKey,
): string {
  const spec: ChangeResource = CHANGE_RESOURCES[resource];
  return spec.detail
    .replace('{organizer}', encodeURIComponent(organizerSlug))
    .replace('{event}', encodeURIComponent(eventSlug ?? ''))
    .replace(`{${spec.keyField}}`, encodeURIComponent(String(key[spec.keyField] ?? '')));
}
