import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { resourceRouteOf } from './conditional-writes';
import { headerRef, responseRef } from './openapi-errors';
import type { RouteInfo } from './route-registry';

const parameterRef = (name: string): ReferenceObject => ({ $ref: `#/components/parameters/${name}` });

/** `If-None-Match` of JSON GETs (README "Sync and concurrency", "ETags"), in `components.parameters`. */
export const IF_NONE_MATCH_PARAMETER: ParameterObject = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'Entity tags of copies the client holds (comma-separated, `W/` accepted), or `*`: 304 without a body when ' +
    'one is the current `ETag`. Takes precedence over `If-Modified-Since`.',
  schema: { type: 'string' },
};

/** `If-Match` of conditional writes (README "Sync and concurrency", "Conditional writes"). */
export const IF_MATCH_PARAMETER: ParameterObject = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'Entity tags (from `ETag`; strong comparison, `W/` tags never match), or `*` (any existing object): the write ' +
    "runs only when the resource's current `ETag` is listed, else 412 with the current `ETag` and nothing " +
    'changed. Checked and written under one lock per resource: of two writers with the same tag one wins.',
  schema: { type: 'string' },
};

/** 304 of JSON GETs, in `components.responses`. */
export const NOT_MODIFIED_RESPONSE: ResponseObject = {
  description:
    'Not modified: `If-None-Match` names the current `ETag` (or the list has not changed since ' +
    '`If-Modified-Since`). No body.',
  headers: { ETag: headerRef('ETag') },
};

type Responses = OperationObject['responses'];

/** Whether a response object answers JSON (only those carry an `ETag`). */
const answersJson = (response: ResponseObject | ReferenceObject | undefined): response is ResponseObject =>
  response !== undefined && !('$ref' in response) && response.content?.['application/json'] !== undefined;

/** `response` with the `ETag` header. */
const tagged = (response: ResponseObject): ResponseObject => ({
  ...response,
  headers: { ...response.headers, ETag: headerRef('ETag') },
});

/**
 * Documents ETags and conditional requests on every operation of the served document (after `documentErrors`):
 * - a GET answering JSON (200 `application/json`): `ETag` on the 200 answer, the `If-None-Match` parameter and
 *   the 304 answer (a 304 the code declares, conditional lists, keeps its description and gets the header);
 * - a conditional write (`resourceRouteOf`: PATCH/PUT/DELETE of a detail, action POSTs): the `If-Match`
 *   parameter, the 412 answer (`PreconditionFailed`, with the current `ETag`) and `ETag` on its 2xx JSON answers
 *   (the resource's new tag).
 */
export function documentEntityTags(document: OpenAPIObject, routes: readonly RouteInfo[]): OpenAPIObject {
  const served = (r: RouteInfo) =>
    r.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}') + (r.trailingSlash ? '/' : '');
  const byOperation = new Map(routes.map((r) => [`${r.method} ${served(r)}`, r]));
  const paths: OpenAPIObject['paths'] = {};
  for (const [path, item] of Object.entries(document.paths)) {
    const documented: Record<string, unknown> = { ...item };
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation: OperationObject | undefined = item[method];
      if (!operation) continue;
      const route = byOperation.get(`${method.toUpperCase()} ${path}`);
      const parameters = operation.parameters ?? [];
      const responses: Responses = { ...operation.responses };
      if (method === 'get') {
        if (!answersJson(responses['200'])) continue;
        responses['200'] = tagged(responses['200']);
        const declared = responses['304'];
        responses['304'] = declared && !('$ref' in declared) ? tagged(declared) : responseRef('NotModified');
        documented[method] = {
          ...operation,
          parameters: [...parameters, parameterRef('IfNoneMatch')],
          responses,
        };
        continue;
      }
      if (!route || !resourceRouteOf(routes, route)) continue;
      for (const status of Object.keys(responses)) {
        const response = responses[status];
        if (status.startsWith('2') && answersJson(response)) responses[status] = tagged(response);
      }
      responses['412'] = responseRef('PreconditionFailed');
      documented[method] = { ...operation, parameters: [...parameters, parameterRef('IfMatch')], responses };
    }
    paths[path] = documented;
  }
  const components = document.components ?? {};
  return {
    ...document,
    paths,
    components: {
      ...components,
      responses: { ...components.responses, NotModified: NOT_MODIFIED_RESPONSE },
      parameters: {
        ...components.parameters,
        IfNoneMatch: IF_NONE_MATCH_PARAMETER,
        IfMatch: IF_MATCH_PARAMETER,
      },
    },
  };
}
