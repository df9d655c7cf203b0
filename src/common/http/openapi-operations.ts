import type { OpenAPIObject } from '@nestjs/swagger';

/** Irregular plurals of the API's resource names; the rest lose a trailing `s` (`ies` → `y`). */
const SINGULAR: Record<string, string> = {
  reusablemedia: 'ReusableMedium',
  outgoingmails: 'OutgoingMail',
  taxrules: 'TaxRule',
  giftcards: 'GiftCard',
  cartpositions: 'CartPosition',
  orderpositions: 'OrderPosition',
  seatingplans: 'SeatingPlan',
  membershiptypes: 'MembershipType',
  event_meta_properties: 'EventMetaProperty',
  checkinlists: 'CheckinList',
  subevents: 'SubEvent',
  me: 'Me',
  'openapi.json': 'OpenApiDocument',
};

const pascal = (s: string): string =>
  s
    .split(/[_\-.]/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** `quotas` → `Quota`, `categories` → `Category`, `giftcards` → `GiftCard`. */
export function singular(segment: string): string {
  if (SINGULAR[segment]) return SINGULAR[segment];
  if (segment.endsWith('ies')) return pascal(`${segment.slice(0, -3)}y`);
  if (segment.endsWith('ses')) return pascal(segment.slice(0, -2));
  return pascal(segment.endsWith('s') ? segment.slice(0, -1) : segment);
}

/** `quotas` → `Quotas`, `reusablemedia` → `ReusableMedia`. */
function plural(segment: string): string {
  const one = singular(segment);
  if (segment === 'reusablemedia') return 'ReusableMedia';
  if (one.endsWith('y') && !one.endsWith('ey')) return `${one.slice(0, -1)}ies`;
  return one.endsWith('s') ? one : `${one}s`;
}

const words = (s: string): string => s.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/**
 * A stable operationId and summary in pretix's words, from the method and the path as served: `listQuotas`,
 * `retrieveQuota`, `createQuota`, `updateQuota` (PUT), `partialUpdateQuota` (PATCH), `destroyQuota`; actions
 * name their verb and resource (`markOrderPaid` for `POST E/orders/{code}/mark_paid/`, `getQuotaAvailability`,
 * `batchCreateVouchers`). Organizer-level lists of a resource that also exists per event get `Organizer` in
 * front of the resource (`listOrganizerOrders`).
 */
export function operationName(method: string, path: string): { id: string; summary: string } {
  const special = SPECIAL[`${method.toUpperCase()} ${path.replace(/\/$/, '')}`];
  if (special) return special;
  const segments = path.split('/').filter((s) => s !== '' && s !== 'api' && s !== 'v1');
  const isParam = (s: string) => s.startsWith('{');
  const eventLevel = segments.includes('{event}');
  const organizerLevel = !eventLevel && segments.includes('{organizer}') && segments.length > 2;
  const last = segments[segments.length - 1] ?? '';
  const m = method.toLowerCase();
  // Collection or item of a resource.
  let resourceIndex = segments.length - 1;
  while (resourceIndex >= 0 && isParam(segments[resourceIndex])) resourceIndex--;
  const resource = segments[resourceIndex] ?? 'root';
  const itemPath = isParam(last);
  const prefix = organizerLevel && BOTH_LEVELS.has(resource) ? 'Organizer' : '';
  const alias = SINGULAR_ALIASES.has(resource) ? 'ByAlias' : '';
  // An action: a named segment after an item (`orders/{code}/mark_paid`) or after a collection
  // (`vouchers/batch_create`) that is not itself a resource with an id below it.
  const parent = segments[resourceIndex - 1];
  const isAction =
    !itemPath &&
    resourceIndex > 0 &&
    (parent === undefined ? false : isParam(parent) || /_/.test(resource) || ACTION_WORDS.has(resource)) &&
    !RESOURCES_UNDER_ITEMS.has(resource);
  if (isAction) {
    const owner = [...segments.slice(0, resourceIndex)].reverse().find((s) => !isParam(s)) ?? 'root';
    const [verb, ...rest] = resource.split('_');
    const ownerName = singular(owner);
    const onCollection = !isParam(parent);
    const id = onCollection
      ? `${verb}${pascal(rest.join('_'))}${prefix}${plural(owner)}`
      : m === 'get' && rest.length === 0
        ? `get${ownerName}${pascal(verb)}`
        : `${verb}${prefix}${ownerName}${pascal(rest.join('_'))}`;
    const methodPart = m === 'patch' ? 'WithPatch' : '';
    const text = words(id);
    return { id: `${id}${methodPart}`, summary: `${text[0].toUpperCase()}${text.slice(1)}` };
  }
  const one = `${prefix}${singular(resource)}`;
  const many = `${prefix}${plural(resource)}`;
  const a = `${/^[aeiou]/i.test(one) ? 'an' : 'a'} ${words(one)}`;
  const verbs: Record<string, [string, string]> = {
    get: itemPath ? [`retrieve${one}`, `Retrieve ${a}`] : [`list${many}`, `List ${words(many)}`],
    post: [`create${one}`, `Create ${a}`],
    put: [`update${one}`, `Replace ${a}`],
    patch: [`partialUpdate${one}`, `Update fields of ${a}`],
    delete: [`destroy${one}`, `Delete ${a}`],
  };
  const [id, summary] = verbs[m] ?? [`${m}${one}`, `${m} ${words(one)}`];
  return alias ? { id: `${id}${alias}`, summary: `${summary} (singular path)` } : { id, summary };
}

/** Operations outside the resource scheme. */
const SPECIAL: Record<string, { id: string; summary: string }> = {
  'GET /api/v1/healthz': { id: 'checkLiveness', summary: 'Liveness probe' },
  'GET /api/v1/readyz': { id: 'checkReadiness', summary: 'Readiness probe (PostgreSQL and Redis)' },
  'GET /api/v1/me': { id: 'retrieveMe', summary: 'Who the credential is' },
  'GET /api/v1/openapi.json': { id: 'getOpenApiDocument', summary: 'This OpenAPI document' },
  'POST /api/v1/organizers/{organizer}/checkinrpc/redeem': {
    id: 'redeemCheckinRpc',
    summary: 'Redeem a ticket on one of several check-in lists',
  },
  'GET /api/v1/organizers/{organizer}/checkinrpc/search': {
    id: 'searchCheckinRpc',
    summary: 'Search the positions of several check-in lists',
  },
  'POST /api/v1/oauth/token': {
    id: 'createOAuthToken',
    summary: 'Exchange a code or a refresh token for tokens',
  },
  'POST /api/v1/oauth/revoke_token': { id: 'revokeOAuthToken', summary: 'Revoke an access or refresh token' },
  'GET /api/v1/oauth/revoke_token': {
    id: 'revokeOAuthTokenByQuery',
    summary: 'Revoke a token (query string)',
  },
  'GET /api/v1/oauth/authorize': { id: 'showOAuthConsent', summary: 'Authorization page (HTML)' },
  'POST /api/v1/oauth/authorize': {
    id: 'submitOAuthConsent',
    summary: 'Allow or deny an application (HTML form)',
  },
  'GET /api/v1/oauth/login': { id: 'showOAuthLogin', summary: 'Login page (HTML)' },
  'POST /api/v1/oauth/login': { id: 'submitOAuthLogin', summary: 'Log in (HTML form)' },
  'POST /api/v1/oauth/logout': { id: 'submitOAuthLogout', summary: 'Log out (HTML form)' },
  'GET /api/v1/oauth/applications': { id: 'showOAuthApplications', summary: 'Own applications page (HTML)' },
  'POST /api/v1/oauth/applications': {
    id: 'registerOAuthApplication',
    summary: 'Register an application (HTML form)',
  },
  'POST /api/v1/oauth/applications/{id}/secret': {
    id: 'regenerateOAuthApplicationSecret',
    summary: 'Generate a new client secret (HTML form)',
  },
  'POST /api/v1/oauth/applications/{id}/delete': {
    id: 'deleteOAuthApplication',
    summary: 'Delete an application (HTML form)',
  },
  'GET /api/v1/oauth/authorized': {
    id: 'showOAuthAuthorized',
    summary: 'Authorized applications page (HTML)',
  },
  'POST /api/v1/oauth/authorized/{id}/revoke': {
    id: 'revokeOAuthAuthorization',
    summary: 'Revoke an application and all its tokens (HTML form)',
  },
};
/** Resources served per event and per organizer: the organizer-level operations say so. */
const BOTH_LEVELS = new Set(['orders', 'subevents', 'scheduled_exports', 'invoices', 'checkinrpc']);
/** The spec's singular alias paths (`E/quota/{id}/` besides `E/quotas/{id}/`). */
const SINGULAR_ALIASES = new Set(['quota', 'discount', 'addon', 'checkinlist']);

/** Path segments that name an action although no id precedes them. */
const ACTION_WORDS = new Set(['lookup', 'redeem', 'search']);
/** Collections below an item (`items/{id}/variations/`): resources, not actions. */
const RESOURCES_UNDER_ITEMS = new Set([
  'event_meta_properties',
  'variations',
  'addons',
  'bundles',
  'options',
  'members',
  'invites',
  'tokens',
  'transactions',
  'positions',
  'seats',
  'checkins',
  'events',
  'subevents',
  'orders',
  'items',
  'categories',
  'quotas',
  'questions',
  'vouchers',
  'discounts',
  'taxrules',
  'orderpositions',
  'cartpositions',
  'teams',
  'giftcards',
  'reusablemedia',
  'membershiptypes',
  'seatingplans',
  'outgoingmails',
  'acceptance',
  'checkinlists',
]);

/**
 * Names every operation of the served document ({@link operationName}), keeping ids unique (a clash gets the
 * method appended), and fills a missing summary.
 */
export function nameOperations(document: OpenAPIObject): OpenAPIObject {
  const seen = new Set<string>();
  const paths: OpenAPIObject['paths'] = {};
  for (const path of Object.keys(document.paths).sort()) {
    const item = document.paths[path];
    const named: Record<string, unknown> = { ...item };
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      const { id, summary } = operationName(method, path);
      let unique = id;
      for (let n = 2; seen.has(unique); n++) unique = `${id}${n}`;
      seen.add(unique);
      // A summary written in the code is kept when it reads as one; longer text becomes the description.
      const own = operation.summary;
      const keep = own !== undefined && /^[A-Z]/.test(own) && own.length <= 80;
      const description = operation.description ?? (own !== undefined && !keep ? own : undefined);
      named[method] = {
        ...operation,
        operationId: unique,
        summary: keep ? own : summary,
        ...(description !== undefined ? { description } : {}),
      };
    }
    paths[path] = named;
  }
  return { ...document, paths };
}
