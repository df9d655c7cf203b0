import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  HeaderObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { AccessRule } from './access-rule';
import { IDEMPOTENCY_KEY_MAX, idempotentRequest } from './idempotency';
import type { RouteInfo } from './route-registry';

/**
 * Error responses of the OpenAPI document (README "API conventions"): reusable bodies (compat §1.5), headers and
 * responses in `components`, and the rules that derive which of them each operation answers from facts about its
 * route (its access rule, method, parameters and body), so no controller has to list them.
 */

const schemaRef = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });
/** A reference to a header of `components.headers`. */
export const headerRef = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });
/** A reference to a response of `components.responses`. */
export const responseRef = (name: string): ReferenceObject => ({ $ref: `#/components/responses/${name}` });
const STRINGS: SchemaObject = { type: 'array', items: { type: 'string' } };

/** Error bodies, in `components.schemas`. */
export const ERROR_SCHEMAS: Record<string, SchemaObject> = {
  ErrorDetail: {
    type: 'object',
    description: 'An error with one message (`{"detail": "Not found."}`).',
    required: ['detail'],
    properties: { detail: { type: 'string' } },
  },
  // `non_field_errors` is not a declared property: an optional property beside the map does not fit the map's
  // value type in generated TypeScript (orval: TS2411); the map's `string[]` alternative covers it.
  FieldErrors: {
    type: 'object',
    description:
      'Messages per field name (`{"name": ["This field is required."]}`); a nested field has the errors of its ' +
      'object, or a list aligned with its entries (`{"positions": [{}, {"item": ["..."]}]}`); rules across ' +
      'fields are under `non_field_errors` (a list of messages).',
    additionalProperties: {
      anyOf: [STRINGS, schemaRef('FieldErrors'), { type: 'array', items: schemaRef('FieldErrors') }],
    },
  },
  ValidationError: {
    description:
      'A refused request: `{"detail": "..."}`, field errors, a list of field errors aligned with the entries of ' +
      'a batch, a bare list of messages, or `{"error": "..."}` (cart position bulk creation).',
    anyOf: [
      schemaRef('ErrorDetail'),
      schemaRef('FieldErrors'),
      { type: 'array', items: schemaRef('FieldErrors') },
      STRINGS,
      { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
    ],
  },
  ConflictError: {
    description:
      'A conflict: `{"detail": "..."}` (busy or a concurrent request with the idempotency key, with ' +
      '`Retry-After`), or field errors for a change the state of a field does not allow.',
    anyOf: [schemaRef('ErrorDetail'), schemaRef('FieldErrors')],
  },
};

/** Response headers of the errors, in `components.headers`. */
export const ERROR_HEADERS: Record<string, HeaderObject> = {
  RetryAfter: {
    description: 'Seconds to wait before trying again.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  ETag: {
    description:
      'The strong entity tag of the resource\'s current representation (`"` + base64url of the SHA-256 of its ' +
      'JSON + `"`): send it in `If-None-Match` (304 while unchanged) or `If-Match` (412 when it changed).',
    required: false,
    schema: { type: 'string', example: '"q1sR0uJm9b0Zl3dM8pQ2yV9Xo0n3sKc4cH9mA7bLq2E"' },
  },
  WWWAuthenticate: {
    description: 'The authentication scheme expected.',
    required: true,
    schema: { type: 'string', enum: ['Token'] },
  },
};

const detail = (description: string, headers?: Record<string, ReferenceObject>): ResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: schemaRef('ErrorDetail') } },
});

/** Description of the 400 response (also for a controller's own declaration of it). */
export const BAD_REQUEST_DESCRIPTION = 'Invalid input (body, filters or the idempotency key).';

/** Description of the 412 response (also for the conditional lists' declaration of it). */
export const PRECONDITION_FAILED_DESCRIPTION =
  'A precondition failed: `If-Match` names no current tag of the resource (its current `ETag` is in the header; ' +
  'none when it does not exist or cannot be read), or the list has changed since `If-Unmodified-Since`. Nothing ' +
  'was changed.';

/** Error responses, in `components.responses`, by name. */
export const ERROR_RESPONSES: Record<string, ResponseObject> = {
  BadRequest: {
    description: BAD_REQUEST_DESCRIPTION,
    content: { 'application/json': { schema: schemaRef('ValidationError') } },
  },
  Unauthorized: detail('No credential, or one that is unknown or inactive.', {
    'WWW-Authenticate': headerRef('WWWAuthenticate'),
  }),
  Forbidden: detail(
    'No permission, or no such organizer or event in reach, or a refused change, or a route outside the device security profile.',
  ),
  NotFound: detail('No such object in reach, or a page past the last one.'),
  PreconditionFailed: detail(PRECONDITION_FAILED_DESCRIPTION, { ETag: headerRef('ETag') }),
  PayloadTooLarge: detail('The request body is too large.'),
  Conflict: {
    description:
      'The server was busy or a request with the same idempotency key still runs (retry later), or the change ' +
      'conflicts with the state of a field (a gift card debit beyond its balance).',
    headers: {
      'Retry-After': {
        description:
          'Seconds to wait before trying again; sent when the server was busy or the key is in use.',
        required: false,
        schema: { type: 'integer', minimum: 1 },
      },
    },
    content: { 'application/json': { schema: schemaRef('ConflictError') } },
  },
  UnprocessableEntity: detail('The idempotency key was already used for a different request.'),
  TooManyRequests: detail('Too many failed authentications from this address.', {
    'Retry-After': headerRef('RetryAfter'),
  }),
  ServiceUnavailable: detail('The database or the job queue is unavailable.', {
    'Retry-After': headerRef('RetryAfter'),
  }),
};

/** The component response of each error status. */
export const ERROR_RESPONSE_OF: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  412: 'PreconditionFailed',
  413: 'PayloadTooLarge',
  422: 'UnprocessableEntity',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
};

/** Statuses whose answer carries `Retry-After`. */
const RETRY_AFTER_STATUSES = new Set(['409', '429', '503']);

/** The optional `X-Idempotency-Key` header of writes (compat §1.8), in `components.parameters`. */
export const IDEMPOTENCY_KEY_PARAMETER: ParameterObject = {
  name: 'X-Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the write safe to repeat: the first response for the key is stored for 24 hours and replayed to ' +
    'repeats; a repeat while the first runs answers 409, one with another method, path or body 422.',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX },
};

/** What decides the error responses of an operation. */
export interface OperationFacts {
  method: string;
  /** The path as served, OpenAPI form (`/api/v1/organizers/{organizer}/`). */
  path: string;
  access: AccessRule | undefined;
  /** Names of the query parameters. */
  query: string[];
  hasBody: boolean;
}

/** Path parameters resolved by the guards: an unknown organizer or event answers 403, not 404. */
const SCOPE_PARAMS = new Set(['organizer', 'event']);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Writes on an item, which can be gone by the time its row is locked (a concurrent delete). */
const ITEM_WRITES = new Set(['PUT', 'PATCH', 'DELETE']);

/**
 * The error statuses an operation answers, derived from its facts:
 * - 400: every operation: a JSON body that does not parse is refused before routing, whatever the method (and
 *   writes refuse a too long idempotency key, operations with a body or filters invalid values);
 * - 401, 429 (failed-authentication throttle), 503 (the credential is looked up in the database): every
 *   operation that is not public;
 * - 403: every operation that is not public (a scope or permission it needs, or a device whose security profile does
 *   not allow the route, src/auth/device-security.ts);
 * - 404: a path parameter naming an object (`{id}`, `{code}`, not `{organizer}`/`{event}`), a PUT, PATCH or
 *   DELETE of an item (`events/{event}/`, deleted concurrently), or paginated (`page` past the last one); a
 *   controller declares the other 404s (`@ApiNotFoundResponse`);
 * - 409 (lock timeout, concurrent idempotency key) and 413 (body limit): writes;
 * - 422: writes the idempotency interceptor handles (not `/api/v1/oauth/`).
 */
export function errorStatuses(facts: OperationFacts): number[] {
  const method = facts.method.toUpperCase();
  const write = WRITES.has(method);
  const kind = facts.access?.kind;
  const authenticated = kind !== 'public';
  const objectParams = [...facts.path.matchAll(/\{([^}]+)\}/g)].some((m) => !SCOPE_PARAMS.has(m[1]));
  const statuses: number[] = [];
  statuses.push(400);
  if (authenticated) statuses.push(401);
  if (authenticated) statuses.push(403);
  const itemWrite = ITEM_WRITES.has(method) && /\}\/?$/.test(facts.path);
  if (objectParams || itemWrite || facts.query.includes('page')) statuses.push(404);
  if (write) statuses.push(409, 413);
  if (write && idempotentRequest(method, facts.path)) statuses.push(422);
  if (authenticated) statuses.push(429, 503);
  return statuses;
}

/** The OpenAPI form of a route's path as served (`/api/v1/organizers/{organizer}/`). */
export function servedPath(route: RouteInfo): string {
  return route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}') + (route.trailingSlash ? '/' : '');
}

/**
 * An error response declared in the code stays: one declared without a body (`@ApiNotFoundResponse({description})`)
 * gets the body and headers of its component with the declared description (a reference to the component when
 * the description is the component's); one that should carry `Retry-After` gets it.
 */
function completed(
  status: string,
  response: ResponseObject | ReferenceObject,
): ResponseObject | ReferenceObject {
  if ('$ref' in response) return response;
  const name = ERROR_RESPONSE_OF[Number(status)];
  const component = ERROR_RESPONSES[name];
  if (component && !response.content) {
    return response.description === component.description
      ? responseRef(name)
      : { ...component, description: response.description };
  }
  if (!RETRY_AFTER_STATUSES.has(status) || response.headers?.['Retry-After']) return response;
  return { ...response, headers: { ...response.headers, 'Retry-After': headerRef('RetryAfter') } };
}

/**
 * Documents the errors of every operation of the served document (paths as served, see
 * `applyRouteConventions`): the error responses {@link errorStatuses} derives (a response the code declares for
 * a status is kept), `X-Idempotency-Key` on the writes the idempotency interceptor handles, and `security: []`
 * on public operations (the others keep the document's security). The components are added.
 */
export function documentErrors(document: OpenAPIObject, routes: readonly RouteInfo[]): OpenAPIObject {
  const byOperation = new Map(routes.map((r) => [`${r.method} ${servedPath(r)}`, r]));
  const paths: OpenAPIObject['paths'] = {};
  for (const [path, item] of Object.entries(document.paths)) {
    const documented: Record<string, unknown> = { ...item };
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation: OperationObject | undefined = item[method];
      if (!operation) continue;
      const route = byOperation.get(`${method.toUpperCase()} ${path}`);
      const parameters = operation.parameters ?? [];
      const query = parameters.filter((p): p is ParameterObject => 'in' in p && p.in === 'query');
      const facts: OperationFacts = {
        method,
        path,
        access: route?.access,
        query: query.map((p) => p.name),
        hasBody: operation.requestBody !== undefined,
      };
      const responses: OperationObject['responses'] = {};
      for (const [status, response] of Object.entries(operation.responses)) {
        if (response) responses[status] = completed(status, response);
      }
      for (const status of errorStatuses(facts)) {
        responses[String(status)] ??= responseRef(ERROR_RESPONSE_OF[status]);
      }
      const idempotent = WRITES.has(method.toUpperCase()) && idempotentRequest(method.toUpperCase(), path);
      const hasKey = parameters.some((p) => '$ref' in p && p.$ref.endsWith('/IdempotencyKey'));
      documented[method] = {
        ...operation,
        ...(idempotent && !hasKey
          ? { parameters: [...parameters, { $ref: '#/components/parameters/IdempotencyKey' }] }
          : {}),
        responses,
        ...(route?.access?.kind === 'public' ? { security: [] } : {}),
      };
    }
    paths[path] = documented;
  }
  const components = document.components ?? {};
  return {
    ...document,
    paths,
    components: {
      ...components,
      schemas: { ...components.schemas, ...ERROR_SCHEMAS },
      headers: { ...components.headers, ...ERROR_HEADERS },
      responses: { ...components.responses, ...ERROR_RESPONSES },
      parameters: { ...components.parameters, IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER },
    },
  };
}
