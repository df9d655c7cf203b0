/**
 * Device security profiles (pretix `src/pretix/api/auth/devicesecurity.py`): what a device may call on top of its
 * fixed permissions. `full` allows everything the permissions allow; the three pretixSCAN profiles are allow-lists
 * of (HTTP method, pretix URL name). pretix resolves the URL name of the request and looks the pair up; here every
 * pretix URL name of those lists is mapped to the route template(s) that serve it, and the permission guard looks
 * up (method, route template) of the matched route (never the raw URL).
 *
 * Rules kept from pretix:
 * - the method must match exactly (`HEAD` is not `GET`: pretix's allow-lists name `GET` only);
 * - a profile pretix does not know falls back to `full` (`profiles.get(…, FullAccessSecurityProfile())`);
 * - a refusal is 403 `{"detail": "Request denied by device security profile."}` (pretix raises
 *   `PermissionDenied('Request denied by device security profile.')` in `DeviceTokenAuthentication`), decided
 *   before any permission check.
 *
 * Extensions beyond pretix (routes pretix does not have), allowed wherever their pretix counterpart is:
 * - `POST O/checkinrpc/redeem_batch/` (offline scans in one request) in every profile that allows
 *   `checkinrpc.redeem`: a batch is a sequence of the same redeems, nothing a device could not do one by one;
 * - `GET E/checkinlists/:list/stream/` (live redemptions) in every profile that allows `checkinlist-list`: it
 *   pushes check-ins of a list the device may already list and redeem on.
 */

/** Identifiers of the profiles (pretix's `identifier`), in pretix's registration order. */
export const DEVICE_SECURITY_PROFILES = [
  'full',
  'pretixscan',
  'pretixscan_online_noorders',
  'pretixscan_online_kiosk',
] as const;
export type DeviceSecurityProfile = (typeof DEVICE_SECURITY_PROFILES)[number];

/** The restricted profiles (every profile but `full`), the ones the route table lists per route. */
export const RESTRICTED_DEVICE_PROFILES = [
  'pretixscan',
  'pretixscan_online_kiosk',
  'pretixscan_online_noorders',
] as const satisfies readonly DeviceSecurityProfile[];
export type RestrictedDeviceProfile = (typeof RESTRICTED_DEVICE_PROFILES)[number];

/** pretix's human-readable names (`verbose_name`), for documentation and device forms. */
export const DEVICE_PROFILE_NAMES: Record<DeviceSecurityProfile, string> = {
  full: 'Full device access (reading and changing orders and gift cards, reading of products and settings)',
  pretixscan: 'pretixSCAN',
  pretixscan_online_noorders: 'pretixSCAN (online only, no order sync)',
  pretixscan_online_kiosk: 'pretixSCAN (kiosk mode, no order sync, no search)',
};

/** 403 detail of a request outside the device's profile (pretix `DeviceTokenAuthentication.authenticate`). */
export const DEVICE_PROFILE_DENIED = 'Request denied by device security profile.';

const O = '/api/v1/organizers/:organizer';
const E = `${O}/events/:event`;

/** Where a pretix URL name of the allow-lists is served. */
export type UrlNameStatus =
  /** Served by this API today. */
  | 'served'
  /** A pretix plugin route we do not have: 404 for every credential. */
  | 'plugin';

export interface UrlNameRoutes {
  /** Route templates as in test/route-table.json (trailing slash as the client calls them). */
  paths: readonly string[];
  status: UrlNameStatus;
}

/**
 * Every pretix URL name of the allow-lists (without the `api-v1:` namespace) and the route templates serving it.
 * A DRF router name covers every registration of the viewset: `subevent-list` is both `O/subevents/` and
 * `E/subevents/`, `order-list` both `O/orders/` and `E/orders/` (pretix `api/urls.py`).
 */
export const PRETIX_URL_NAMES: Record<string, UrlNameRoutes> = {
  version: { paths: ['/api/v1/version'], status: 'served' },
  'device.eventselection': { paths: ['/api/v1/device/eventselection'], status: 'served' },
  'idempotency.query': { paths: ['/api/v1/idempotency_query'], status: 'served' },
  'device.info': { paths: ['/api/v1/device/info'], status: 'served' },
  'device.update': { paths: ['/api/v1/device/update'], status: 'served' },
  'device.revoke': { paths: ['/api/v1/device/revoke'], status: 'served' },
  'device.roll': { paths: ['/api/v1/device/roll'], status: 'served' },
  'event-list': { paths: [`${O}/events/`], status: 'served' },
  'event-detail': { paths: [`${E}/`], status: 'served' },
  'subevent-list': { paths: [`${O}/subevents/`, `${E}/subevents/`], status: 'served' },
  'subevent-detail': { paths: [`${E}/subevents/:id/`], status: 'served' },
  'itemcategory-list': { paths: [`${E}/categories/`], status: 'served' },
  'item-list': { paths: [`${E}/items/`], status: 'served' },
  'question-list': { paths: [`${E}/questions/`], status: 'served' },
  'badgelayout-list': { paths: [`${E}/badgelayouts/`], status: 'plugin' },
  'badgeitem-list': { paths: [`${E}/badgeitems/`], status: 'plugin' },
  'checkinlist-list': { paths: [`${E}/checkinlists/`], status: 'served' },
  'checkinlist-status': { paths: [`${E}/checkinlists/:id/status/`], status: 'served' },
  'checkinlist-failed_checkins': { paths: [`${E}/checkinlists/:id/failed_checkins/`], status: 'served' },
  'checkinlistpos-list': { paths: [`${E}/checkinlists/:list/positions/`], status: 'served' },
  'checkinlistpos-redeem': {
    paths: [`${E}/checkinlists/:list/positions/:position/redeem/`],
    status: 'served',
  },
  'revokedsecrets-list': { paths: [`${E}/revokedsecrets/`], status: 'served' },
  'blockedsecrets-list': { paths: [`${E}/blockedsecrets/`], status: 'served' },
  'order-list': { paths: [`${O}/orders/`, `${E}/orders/`], status: 'served' },
  'orderposition-pdf_image': { paths: [`${E}/orderpositions/:id/pdf_image/:key/`], status: 'served' },
  'orderposition-printlog': { paths: [`${E}/orderpositions/:id/printlog/`], status: 'served' },
  'event.settings': { paths: [`${E}/settings/`], status: 'served' },
  upload: { paths: ['/api/v1/upload'], status: 'served' },
  'checkinrpc.redeem': { paths: [`${O}/checkinrpc/redeem/`], status: 'served' },
  'checkinrpc.search': { paths: [`${O}/checkinrpc/search/`], status: 'served' },
  'reusablemedium-list': { paths: [`${O}/reusablemedia/`], status: 'served' },
  // Our extensions (see the file comment), named like pretix would.
  'checkinrpc.redeem_batch': { paths: [`${O}/checkinrpc/redeem_batch/`], status: 'served' },
  'checkinlist-stream': { paths: [`${E}/checkinlists/:list/stream/`], status: 'served' },
};

type Entry = readonly [method: string, urlName: string];

/** Routes pretixSCAN needs in every mode (the shared head of pretix's three lists). */
const SCAN_COMMON: readonly Entry[] = [
  ['GET', 'version'],
  ['GET', 'device.eventselection'],
  ['GET', 'idempotency.query'],
  ['GET', 'device.info'],
  ['POST', 'device.update'],
  ['POST', 'device.revoke'],
  ['POST', 'device.roll'],
  ['GET', 'event-list'],
  ['GET', 'event-detail'],
  ['GET', 'subevent-list'],
  ['GET', 'subevent-detail'],
  ['GET', 'itemcategory-list'],
  ['GET', 'item-list'],
  ['GET', 'question-list'],
  ['GET', 'badgelayout-list'],
  ['GET', 'badgeitem-list'],
  ['GET', 'checkinlist-list'],
  ['GET', 'checkinlist-status'],
  ['POST', 'checkinlist-failed_checkins'],
];

/** The rest of each list, as pretix orders it. */
const SCAN_TAIL: readonly Entry[] = [
  ['POST', 'checkinlistpos-redeem'],
  ['GET', 'revokedsecrets-list'],
  ['GET', 'blockedsecrets-list'],
];
const SCAN_PRINT_AND_RPC: readonly Entry[] = [
  ['GET', 'orderposition-pdf_image'],
  ['POST', 'orderposition-printlog'],
  ['GET', 'event.settings'],
  ['POST', 'upload'],
  ['POST', 'checkinrpc.redeem'],
  ['GET', 'checkinrpc.search'],
];

/**
 * pretix's allow-lists, entry for entry. `pretixscan` also syncs orders and positions and reads reusable media;
 * `pretixscan_online_noorders` lists positions but no orders; `pretixscan_online_kiosk` neither.
 */
export const PRETIX_ALLOWLISTS: Record<RestrictedDeviceProfile, readonly Entry[]> = {
  pretixscan: [
    ...SCAN_COMMON,
    ['GET', 'checkinlistpos-list'],
    ...SCAN_TAIL,
    ['GET', 'order-list'],
    ...SCAN_PRINT_AND_RPC,
    ['GET', 'reusablemedium-list'],
  ],
  pretixscan_online_kiosk: [...SCAN_COMMON, ...SCAN_TAIL, ...SCAN_PRINT_AND_RPC],
  pretixscan_online_noorders: [
    ...SCAN_COMMON,
    ['GET', 'checkinlistpos-list'],
    ...SCAN_TAIL,
    ...SCAN_PRINT_AND_RPC,
  ],
};

/** Our extensions: an entry allowed wherever its pretix counterpart is (see the file comment). */
const EXTENSIONS: readonly { with: Entry; allow: Entry }[] = [
  { with: ['POST', 'checkinrpc.redeem'], allow: ['POST', 'checkinrpc.redeem_batch'] },
  { with: ['GET', 'checkinlist-list'], allow: ['GET', 'checkinlist-stream'] },
];

/** The allow-list of a restricted profile with our extensions. */
export function allowListOf(profile: RestrictedDeviceProfile): Entry[] {
  const list = [...PRETIX_ALLOWLISTS[profile]];
  for (const ext of EXTENSIONS) {
    if (list.some(([m, n]) => m === ext.with[0] && n === ext.with[1])) list.push(ext.allow);
  }
  return list;
}

/**
 * A route template in comparable form: trailing slash dropped and every parameter named `:_`, so that
 * `/checkinlists/:id/` and `/checkinlists/:list` compare equal (the template's parameter names are no part
 * of what pretix matches).
 */
export function routeKey(method: string, path: string): string {
  const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return `${method.toUpperCase()} ${bare.replace(/:[A-Za-z0-9_]+/g, ':_')}`;
}

const ALLOWED = {} as Record<RestrictedDeviceProfile, ReadonlySet<string>>;
for (const profile of RESTRICTED_DEVICE_PROFILES) {
  ALLOWED[profile] = new Set(
    allowListOf(profile).flatMap(([method, name]) =>
      PRETIX_URL_NAMES[name].paths.map((p) => routeKey(method, p)),
    ),
  );
}

function isRestricted(profile: string): profile is RestrictedDeviceProfile {
  return (RESTRICTED_DEVICE_PROFILES as readonly string[]).includes(profile);
}

/**
 * Whether a device of `profile` may call the route `method` + `routePath` (the matched route template, e.g.
 * `/api/v1/organizers/:organizer/events/`). `full` and unknown profiles allow every route (pretix's fallback);
 * the device's permissions are checked afterwards as for any credential.
 */
export function deviceProfileAllows(profile: string, method: string, routePath: string): boolean {
  if (!isRestricted(profile)) return true;
  return ALLOWED[profile].has(routeKey(method, routePath));
}

/** The restricted profiles allowing a route (the `deviceProfiles` column of test/route-table.json). */
export function restrictedProfilesAllowing(method: string, routePath: string): RestrictedDeviceProfile[] {
  return RESTRICTED_DEVICE_PROFILES.filter((p) => deviceProfileAllows(p, method, routePath));
}
