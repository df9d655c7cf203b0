/**
 * Permission names of the team model (spec "Team"; compat §2.4). Event-level names start with `event`,
 * organizer-level names with `organizer.`. The legacy `can_*` booleans are aliases for sets of names and are
 * translated here, at the team's edge, never checked in handlers.
 */

/** Core event-level permissions (spec), plus the two further names pretix's migration produces. */
export const EVENT_PERMISSIONS = [
  'event.settings.general:write',
  'event.settings.payment:write',
  'event.settings.plugins:write',
  'event.settings.email.sender:write',
  'event.settings.tax:write',
  'event.settings.invoicing:write',
  'event.subevents:write',
  'event.items:write',
  'event.orders:read',
  'event.orders:write',
  'event.orders:checkin',
  'event.vouchers:read',
  'event.vouchers:write',
  'event:cancel',
] as const;

/** Core organizer-level permissions (spec). */
export const ORGANIZER_PERMISSIONS = [
  'organizer.events:create',
  'organizer.settings.general:write',
  'organizer.teams:write',
  'organizer.seatingplans:write',
  'organizer.giftcards:read',
  'organizer.giftcards:write',
  'organizer.customers:read',
  'organizer.customers:write',
  'organizer.reusablemedia:read',
  'organizer.reusablemedia:write',
  'organizer.devices:read',
  'organizer.devices:write',
  'organizer.outgoingmails:read',
] as const;

export type EventPermission = (typeof EVENT_PERMISSIONS)[number];
export type OrganizerPermission = (typeof ORGANIZER_PERMISSIONS)[number];
export type Permission = EventPermission | OrganizerPermission;

export function isEventPermission(name: string): name is EventPermission {
  return (EVENT_PERMISSIONS as readonly string[]).includes(name);
}

export function isOrganizerPermission(name: string): name is OrganizerPermission {
  return (ORGANIZER_PERMISSIONS as readonly string[]).includes(name);
}

/**
 * True for a permission that allows changing data: every `…:write` name, `organizer.events:create` and
 * `event:cancel`. `…:read` names and `event.orders:checkin` are not (README "Security", "Scopes and writes": the
 * OAuth scope a route needs derives from these, see {@link scopeNeeded}).
 */
export function isWritePermission(name: string): boolean {
  return name.endsWith(':write') || name.endsWith(':create') || name === 'event:cancel';
}

/**
 * The OAuth scope a request needs (README "Security", "Scopes and writes"): `write` for a method other than
 * GET/HEAD/OPTIONS, and `write` too for a route whose permission rule names only write permissions
 * ({@link isWritePermission}), even on GET (reading team tokens or webhook secrets is a write-level power);
 * `read` otherwise.
 */
export function scopeNeeded(method: string, anyOf: readonly string[] | null): 'read' | 'write' {
  if (!['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase())) return 'write';
  return anyOf && anyOf.length > 0 && anyOf.every(isWritePermission) ? 'write' : 'read';
}

/** Legacy event-level booleans -> the names they stand for (compat §2.4). */
export const LEGACY_EVENT_FLAGS = {
  can_change_event_settings: [
    'event.settings.general:write',
    'event.settings.payment:write',
    'event.settings.plugins:write',
    'event.settings.email.sender:write',
    'event.settings.tax:write',
    'event.settings.invoicing:write',
    'event.subevents:write',
  ],
  can_change_items: ['event.items:write'],
  can_view_orders: ['event.orders:read'],
  can_change_orders: ['event.orders:write', 'event:cancel'],
  can_view_vouchers: ['event.vouchers:read'],
  can_change_vouchers: ['event.vouchers:write'],
  can_checkin_orders: ['event.orders:checkin'],
} as const satisfies Record<string, readonly EventPermission[]>;

/** Legacy organizer-level booleans -> the names they stand for (compat §2.4). */
export const LEGACY_ORGANIZER_FLAGS = {
  can_create_events: ['organizer.events:create'],
  can_change_teams: ['organizer.teams:write'],
  can_change_organizer_settings: [
    'organizer.settings.general:write',
    'organizer.devices:read',
    'organizer.devices:write',
  ],
  can_manage_customers: ['organizer.customers:read', 'organizer.customers:write'],
  can_manage_reusable_media: ['organizer.reusablemedia:read', 'organizer.reusablemedia:write'],
  can_manage_gift_cards: ['organizer.giftcards:read', 'organizer.giftcards:write'],
} as const satisfies Record<string, readonly OrganizerPermission[]>;

export type LegacyEventFlag = keyof typeof LEGACY_EVENT_FLAGS;
export type LegacyOrganizerFlag = keyof typeof LEGACY_ORGANIZER_FLAGS;

/** A granted set: everything (`all_*_permissions`) or a list of names. */
export class PermissionSet {
  constructor(
    readonly all: boolean,
    readonly names: ReadonlySet<string>,
  ) {}

  static empty(): PermissionSet {
    return new PermissionSet(false, new Set());
  }

  has(name: string): boolean {
    return this.all || this.names.has(name);
  }

  hasAny(names: readonly string[]): boolean {
    return names.some((n) => this.has(n));
  }

  /** Union of several sets (a user's rights are the union of their teams). */
  static union(sets: PermissionSet[]): PermissionSet {
    if (sets.some((s) => s.all)) return new PermissionSet(true, new Set());
    return new PermissionSet(false, new Set(sets.flatMap((s) => [...s.names])));
  }
}

/**
 * Applies legacy booleans sent in a team body to a permission list: `true` adds the mapped names, `false`
 * removes them. Flags not sent leave the list as it is.
 */
export function applyLegacyFlags(
  list: readonly string[],
  flags: Partial<Record<string, boolean>>,
  mapping: Record<string, readonly string[]>,
): string[] {
  const out = new Set(list);
  for (const [flag, names] of Object.entries(mapping)) {
    const value = flags[flag];
    if (value === true) names.forEach((n) => out.add(n));
    if (value === false) names.forEach((n) => out.delete(n));
  }
  return [...out].sort();
}

/** Legacy booleans computed from a permission set: true when every mapped name is granted. */
export function legacyFlagsOf(
  set: PermissionSet,
  mapping: Record<string, readonly string[]>,
): Record<string, boolean> {
  return Object.fromEntries(
    Object.entries(mapping).map(([flag, names]) => [flag, names.every((n) => set.has(n))]),
  );
}
