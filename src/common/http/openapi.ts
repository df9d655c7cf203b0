import { applyDecorators, Controller, Get, INestApplication, Injectable, Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  DocumentBuilder,
  getSchemaPath,
  OpenAPIObject,
  SwaggerModule,
} from '@nestjs/swagger';
import type {
  OperationObject,
  ParameterObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { NoTrailingSlash, Public } from './access-rule';
import { documentErrors } from './openapi-errors';
import { documentEntityTags } from './openapi-etags';
import { normalizeSchemas, optionalBodies } from './openapi-normalize';
import { methodNameOperationIds, nameOperations } from './openapi-operations';
import { API_PREFIX, RouteInfo, RouteRegistry } from './route-registry';

/** The `cursor` query parameter of every list (README "Cursor pagination"). */
export const ApiCursorQuery = () =>
  ApiQuery({
    name: 'cursor',
    required: false,
    schema: { type: 'string' },
    description:
      'Keyset pagination instead of `page`: empty (`?cursor=`) for the first page, then the cursor of a `next` or ' +
      '`previous` link. Pages follow the ordering in force (ties broken by id) with no offset, so rows inserted or ' +
      'deleted meanwhile are never skipped or repeated; `count` is then null and `page_size` goes up to 1000. A ' +
      'cursor only works with the filters and ordering it was made with (else 400 `{"cursor": ["Invalid cursor."]}`); ' +
      'with `page` it answers 400.',
  });

/** The `count` of a list envelope: null on cursor pages. */
export const LIST_COUNT_SCHEMA = {
  type: 'integer',
  nullable: true,
  description: 'Matching rows; null on cursor pages (`cursor`).',
} as const;

/**
 * Documents a list endpoint's envelope `{count, next, previous, results: [model]}` (spec "Conventions" 4) and its
 * `page`, `page_size` and `cursor`; its filters, `ordering` and `expand` are documented with `@ListFilters`.
 */
export function ApiPaginatedResponse(model: Type<unknown>) {
  return applyDecorators(
    ApiExtraModels(model),
    ApiQuery({
      name: 'page',
      required: false,
      schema: { type: 'integer', minimum: 1, default: 1 },
      description: 'Page number, from 1; past the last page answers 404. Not together with `cursor`.',
    }),
    ApiQuery({
      name: 'page_size',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 1000, default: 50 },
      description:
        'Results per page: up to 50 with `page` (larger values are capped at 50), up to 1000 with `cursor` ' +
        '(capped at 1000).',
    }),
    ApiCursorQuery(),
    ApiOkResponse({
      schema: {
        type: 'object',
        required: ['count', 'next', 'previous', 'results'],
        properties: {
          count: LIST_COUNT_SCHEMA,
          next: { type: 'string', format: 'uri', nullable: true },
          previous: { type: 'string', format: 'uri', nullable: true },
          results: { type: 'array', items: { $ref: getSchemaPath(model) } },
        },
      },
    }),
  );
}

/**
 * Version of the API in the document's `info.version` (semver, so the generated SDK package can carry it):
 * the major is the `/api/v1` of the paths.
 */
export const API_VERSION = '1.0.0';

/** Holds the generated OpenAPI document for serving. */
@Injectable()
export class OpenApiDocumentHolder {
  document: OpenAPIObject | null = null;
}

/**
 * Builds the OpenAPI 3 document from the code (controllers, DTOs, presenters via the swagger CLI plugin). Each
 * operationId is the name of the controller method serving it ({@link methodNameOperationIds}).
 * @throws Error when two controllers have a method of the same name
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Event ticketing management API')
    .setDescription(
      'pretix-compatible management API. Authenticate with `Authorization: Token <team token>` or ' +
        '`Authorization: Bearer <access token>` (devices: `Authorization: Device <api token>`). Lists are paginated (`page`, `page_size` up to 50; or keyset pages with `cursor`, `page_size` up to 1000).',
    )
    .setVersion(API_VERSION)
    // Relative to the host serving the document; the paths carry the `/api/v1` prefix.
    .addServer('/', 'The host serving this document')
    .addSecurity('token', {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: 'A team API token, sent as `Authorization: Token <token>`.',
    })
    .addSecurity('device', {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description:
        'A device API token (from `POST /api/v1/device/initialize` or `device/roll`), sent as ' +
        '`Authorization: Device <api_token>`. It acts on its organizer and its events (all events or its ' +
        '`limit_events`) with the fixed device permissions only: event `event.orders:read`, `event.orders:write`, ' +
        '`event.vouchers:read`; organizer `organizer.giftcards:read/write`, `organizer.reusablemedia:read/write`.',
    })
    .addSecurity('oauth2', {
      type: 'oauth2',
      description: 'OAuth 2.0 access token of a user, sent as `Authorization: Bearer <access token>`.',
      flows: {
        authorizationCode: {
          authorizationUrl: `/${API_PREFIX}/oauth/authorize`,
          tokenUrl: `/${API_PREFIX}/oauth/token`,
          refreshUrl: `/${API_PREFIX}/oauth/token`,
          scopes: {
            read: 'Read the organizers and events granted',
            write: 'Change the organizers and events granted',
            profile: 'Read the user profile (`/api/v1/me`)',
          },
        },
      },
    })
    .addSecurityRequirements('token')
    .addSecurityRequirements('oauth2', ['read', 'write'])
    .addSecurityRequirements('device')
    .build();
  // No public licence: the package is UNLICENSED (package.json); the URL says what that means.
  config.info.license = {
    name: 'UNLICENSED (proprietary, no rights granted)',
    url: 'https://docs.npmjs.com/cli/v10/configuring-npm/package-json#license',
  };
  // An operation's id is its controller method's name; a name two controllers share fails here.
  return SwaggerModule.createDocument(app, config, { operationIdFactory: methodNameOperationIds() });
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const PATH_PARAM_DESCRIPTIONS: Record<string, string> = {
  organizer: 'Slug of the organizer',
  event: 'Slug of the event',
};

/**
 * Aligns the generated document with the routes as served (compat §1.1), so that a generated client can call
 * them: paths get their trailing slash where the route has one (the plugin drops it, and a POST without it is
 * 404), and path parameters resolved by the guards rather than `@Param` (`organizer`, `event`) are declared.
 */
export function applyRouteConventions(document: OpenAPIObject, routes: readonly RouteInfo[]): OpenAPIObject {
  const paths: OpenAPIObject['paths'] = {};
  for (const [path, item] of Object.entries(document.paths)) {
    const pattern = path.replace(/\{([^}]+)\}/g, ':$1');
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const [method, operation] of Object.entries(item) as [string, OperationObject][]) {
      if (!HTTP_METHODS.has(method)) continue;
      const route = routes.find((r) => r.path === pattern && r.method === method.toUpperCase());
      const served = route?.trailingSlash ? `${path}/` : path;
      const parameters = [...(operation.parameters ?? [])] as ParameterObject[];
      const declared = new Set(parameters.filter((p) => p.in === 'path').map((p) => p.name));
      const missing: ParameterObject[] = names
        .filter((name) => !declared.has(name))
        .map((name) => ({
          name,
          in: 'path',
          required: true,
          schema: { type: 'string' },
          ...(PATH_PARAM_DESCRIPTIONS[name] ? { description: PATH_PARAM_DESCRIPTIONS[name] } : {}),
        }));
      paths[served] = {
        ...paths[served],
        [method]: { ...operation, parameters: [...missing, ...parameters] },
      };
    }
  }
  return { ...document, paths };
}

/** Path of the interactive API page (Swagger UI), under the API prefix. */
export const API_PAGE = `${API_PREFIX}/docs`;

/**
 * `GET /api/v1/docs/`: Swagger UI over the served document (`/api/v1/openapi.json`), where a person pastes a
 * token (Authorize: `Token <token>`) and tries calls; the authorization survives reloads. No raw document of its
 * own: the one document is `openapi.json`.
 */
export function setupApiPage(app: INestApplication): void {
  SwaggerModule.setup(
    API_PAGE,
    app,
    // The page embeds the served document itself (built on first use, as `GET /api/v1/openapi.json` answers it).
    () => app.get(OpenApiController, { strict: false }).getOpenApiDocument() as OpenAPIObject,
    {
      raw: false,
      customSiteTitle: 'Event ticketing management API',
      swaggerOptions: {
        persistAuthorization: true,
        displayOperationId: true,
        tryItOutEnabled: true,
      },
    },
  );
}

/** `GET /api/v1/openapi.json` (no authentication). */
@ApiTags('meta')
@Controller('openapi.json')
export class OpenApiController {
  private served: { source: OpenAPIObject; document: OpenAPIObject } | null = null;

  constructor(
    private readonly holder: OpenApiDocumentHolder,
    private readonly registry: RouteRegistry,
  ) {}

  @Get()
  @Public()
  @NoTrailingSlash()
  @ApiOkResponse({ description: 'This OpenAPI 3 document.', schema: { type: 'object' } })
  @ApiOperation({ summary: 'This OpenAPI document' })
  getOpenApiDocument(): OpenAPIObject | Record<string, never> {
    const source = this.holder.document;
    if (!source) return {};
    if (this.served?.source !== source) {
      const routes = this.registry.routes;
      const document = optionalBodies(
        normalizeSchemas(
          nameOperations(
            documentEntityTags(documentErrors(applyRouteConventions(source, routes), routes), routes),
          ),
        ),
      );
      this.served = { source, document };
    }
    return this.served.document;
  }
}
