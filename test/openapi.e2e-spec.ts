import { RouteRegistry } from '../src/common/http/route-registry';
import { Event } from '../src/organizers/event.entity';
import { toEventJson } from '../src/organizers/event.presenter';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * The OpenAPI document served at `/api/v1/openapi.json` (docs/style.md "Habits": generated from the code with the
 * swagger CLI plugin, usable by a generated client). Under jest the plugin runs through test/swagger-transformer.js.
 */

type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  nullable?: boolean;
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Parameter = { name: string; in: string; required?: boolean };
type Operation = {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
type Document = {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
};

interface Route {
  method: string;
  /** OpenAPI form: `{param}` and the trailing slash as served. */
  path: string;
  label: string;
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  let routes: Route[];

  const deref = (schema: Schema | undefined): Schema | undefined => {
    if (!schema?.$ref) return schema;
    const name = schema.$ref.replace('#/components/schemas/', '');
    return deref(doc.components.schemas[name]);
  };
  const jsonSchema = (c?: Record<string, { schema?: Schema }>) => c?.['application/json']?.schema;
  const op = (r: Route): Operation | undefined => doc.paths[r.path]?.[r.method.toLowerCase()];

  beforeAll(async () => {
    t = await startTestApp();
    const res = await t.http().get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body as Document;
    routes = t.app.get(RouteRegistry).routes.map((r) => {
      const path = r.path.replace(/:([A-Za-z_]+)/g, '{$1}') + (r.trailingSlash ? '/' : '');
      return { method: r.method, path, label: `${r.method} ${path}` };
    });
  });
  afterAll(() => t.close());

  it('is served without credentials as OpenAPI 3 JSON', async () => {
    const res = await t.http().get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info.title).toBe('Event ticketing management API');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['device', 'oauth2', 'token']);
    expect(doc.components.securitySchemes.token).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
    expect(doc.components.securitySchemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: {
        authorizationCode: {
          authorizationUrl: '/api/v1/oauth/authorize',
          tokenUrl: '/api/v1/oauth/token',
          scopes: { read: expect.any(String), write: expect.any(String), profile: expect.any(String) },
        },
      },
    });
  });

  it('documents every route with its method, at the path as served (trailing slash included)', () => {
    const missing = routes.filter((r) => !op(r)).map((r) => r.label);
    expect(missing).toEqual([]);
  });

  it('documents no operation that is not a route', () => {
    const known = new Set(routes.map((r) => r.label));
    const extra = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .map((m) => `${m.toUpperCase()} ${path}`)
        .filter((l) => !known.has(l)),
    );
    expect(extra).toEqual([]);
  });

  it('declares every path parameter of every operation, required', () => {
    const problems: string[] = [];
    for (const r of routes) {
      const names = [...r.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (op(r)?.parameters ?? []).filter((p) => p.in === 'path');
      if (JSON.stringify(declared.map((p) => p.name).sort()) !== JSON.stringify(names))
        problems.push(`${r.label}: declares ${JSON.stringify(declared.map((p) => p.name))}`);
      if (declared.some((p) => p.required !== true)) problems.push(`${r.label}: optional path parameter`);
    }
    expect(problems).toEqual([]);
  });

  it("names operations in pretix's words, each with a summary", () => {
    const id = (method: string, path: string) =>
      (doc.paths[path] as Record<string, { operationId?: string; summary?: string }>)[method];
    const E = '/api/v1/organizers/{organizer}/events/{event}';
    expect(id('get', `${E}/quotas/`).operationId).toBe('listQuotas');
    expect(id('get', `${E}/quotas/{id}/`).operationId).toBe('retrieveQuota');
    expect(id('post', `${E}/orders/`).operationId).toBe('createOrder');
    expect(id('post', `${E}/orders/{code}/mark_paid/`).operationId).toBe('markOrderPaid');
    expect(id('get', `${E}/quotas/{id}/availability/`).operationId).toBe('getQuotaAvailability');
    expect(id('post', `${E}/vouchers/batch_create/`).operationId).toBe('batchCreateVouchers');
    expect(id('get', '/api/v1/organizers/{organizer}/orders/').operationId).toBe('listOrganizerOrders');
    for (const r of routes) {
      expect(op(r)?.operationId).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect((op(r) as { summary?: string }).summary).toMatch(/^[A-Z]/);
    }
  });

  it('serves the interactive API page at /api/v1/docs/ over the served document', async () => {
    const page = await t.http().get('/api/v1/docs/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const init = await t.http().get('/api/v1/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    // The page embeds the served document, with its operations (a placeholder without paths once shadowed the
    // document's URL, and the page showed "No operations defined in spec!").
    expect(init.text).toContain('"operationId": "listEvents"');
    expect(init.text).toContain('"/api/v1/organizers/{organizer}/events/"');
    expect(init.text).toContain('persistAuthorization');
  });

  it('has unique operation ids', () => {
    const ids = routes.map((r) => op(r)?.operationId);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every POST, PUT and PATCH a JSON request body whose schema has properties (swagger plugin ran)', () => {
    // Action routes (`…/{code}/reactivate/`, the shred of a shredder export, `…/shred/{task}/{file}/`, and the
    // device's `roll` and `revoke`) may take no body at all; every other write must document one.
    const isBodylessAction = (r: Route) =>
      r.method === 'POST' &&
      !op(r)?.requestBody &&
      (/\/\{[^}]+\}\/[a-z_]+\/$/.test(r.path) ||
        /\/shredders\/shred\/\{task\}\/\{file\}\/$/.test(r.path) ||
        // A device rolls its token or revokes itself with an empty POST (pretix `device/roll`, `device/revoke`).
        /^\/api\/v1\/device\/(roll|revoke)$/.test(r.path));
    const writes = routes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !isBodylessAction(r));
    expect(writes.length).toBeGreaterThan(0);
    const problems = writes
      .filter((r) => {
        // The OAuth endpoints and pages take form bodies (RFC 6749; HTML forms).
        const content = op(r)?.requestBody?.content;
        const body = r.path.startsWith('/api/v1/oauth/')
          ? deref(content?.['application/x-www-form-urlencoded']?.schema)
          : deref(jsonSchema(content));
        // Batch endpoints take a list of objects (vouchers/batch_create/).
        const schema = body?.type === 'array' ? deref(body.items) : body;
        return !schema?.properties || Object.keys(schema.properties).length === 0;
      })
      .map((r) => r.label);
    expect(problems).toEqual([]);
  });

  it('gives every GET a 200 response with a schema; collections the list envelope', () => {
    const gets = routes.filter((r) => r.method === 'GET');
    // A collection is a GET path with a detail route below it (`.../x/` and `.../x/{id}/`).
    const isCollection = (r: Route) =>
      r.path.endsWith('/') &&
      routes.some((o) => o.path.startsWith(r.path) && /^\{[^}]+\}\/$/.test(o.path.slice(r.path.length)));
    const problems: string[] = [];
    for (const r of gets) {
      if (r.path.startsWith('/api/v1/oauth/')) {
        // HTML pages (text/html), and the revocation, which answers 200 with an empty body (RFC 7009).
        const ok = op(r)?.responses['200'];
        if (!ok || (r.path !== '/api/v1/oauth/revoke_token' && !ok.content?.['text/html']))
          problems.push(`${r.label}: no HTML 200`);
        continue;
      }
      const responses = op(r)?.responses ?? {};
      const content = responses['200']?.content;
      // A file download (`format: binary` under its media type, e.g. an invoice PDF) and a GET that answers 204
      // have no JSON body.
      const binary = Object.entries(content ?? {}).some(
        ([type, c]) => type !== 'application/json' && c.schema?.format === 'binary',
      );
      if (binary || (!responses['200'] && responses['204'])) continue;
      const schema = deref(jsonSchema(content));
      if (!schema) {
        problems.push(`${r.label}: no 200 schema`);
      } else if (isCollection(r)) {
        const results = schema.properties?.results;
        if (
          !['count', 'next', 'previous', 'results'].every((k) => schema.required?.includes(k)) ||
          results?.type !== 'array' ||
          !deref(results.items)?.properties
        )
          problems.push(`${r.label}: not the list envelope`);
      } else if (r.path !== '/api/v1/openapi.json' && !schema.properties) {
        problems.push(`${r.label}: schema without properties`);
      }
    }
    expect(problems).toEqual([]);
    expect(gets.filter(isCollection).map((r) => r.path)).toEqual(
      expect.arrayContaining(['/api/v1/organizers/', '/api/v1/organizers/{organizer}/events/']),
    );
  });

  describe('events', () => {
    const sampleEvent = (): Event =>
      Object.assign(new Event(), {
        name: { en: 'x' },
        slug: 'x',
        live: false,
        testmode: false,
        currency: 'EUR',
        dateFrom: new Date(),
        dateTo: null,
        dateAdmission: null,
        isPublic: true,
        presaleStart: null,
        presaleEnd: null,
        location: null,
        geoLat: null,
        geoLon: null,
        hasSubevents: false,
        metaData: {},
        timezone: 'UTC',
        seatingPlanId: null,
        seatCategoryMapping: {},
        allSalesChannels: true,
        limitSalesChannels: [],
      });

    const presentation = {
      siteUrl: 'http://localhost:8000',
      organizerSlug: 'org',
      channels: ['api', 'web'],
      withValidKeys: true,
      itemMeta: {},
    };

    const eventSchema = () =>
      deref(
        jsonSchema(doc.paths['/api/v1/organizers/{organizer}/events/{event}/'].get.responses['200'].content),
      )!;

    it('describes the event with exactly the fields of the presenter and of a real response', async () => {
      const fields = Object.keys(toEventJson(sampleEvent(), presentation)).sort();
      expect(fields).toEqual(
        expect.arrayContaining(['name', 'slug', 'live', 'date_from', 'date_to', 'currency', 'timezone']),
      );
      expect(Object.keys(eventSchema().properties!).sort()).toEqual(fields);
      const { token } = await bootstrapOrganizer(t, 'org');
      await createEvent(t, token, 'org', { slug: 'real' });
      const res = await t.http().get('/api/v1/organizers/org/events/real/').set('Authorization', auth(token));
      expect(Object.keys(res.body as object).sort()).toEqual(fields);
    });

    it('types the event fields, nullable where the API returns null', () => {
      const p = eventSchema().properties!;
      expect(p.slug).toEqual({ type: 'string' });
      expect(p.live).toEqual({ type: 'boolean' });
      expect(p.date_from).toMatchObject({ type: 'string', format: 'date-time' });
      expect(p.date_to).toMatchObject({ type: 'string', format: 'date-time', nullable: true });
      expect(p.geo_lat).toMatchObject({ type: 'number', nullable: true });
      expect(p.seating_plan).toMatchObject({ type: 'integer', nullable: true });
      expect(deref(p.name.allOf?.[0])?.type).toBe('object');
      expect(p.location).toMatchObject({
        allOf: [{ $ref: '#/components/schemas/I18nString' }],
        nullable: true,
      });
    });

    it('uses the same event schema for list items, create, update and the create body DTO', () => {
      const paths = doc.paths;
      const list = deref(
        jsonSchema(paths['/api/v1/organizers/{organizer}/events/'].get.responses['200'].content),
      );
      expect(deref(list!.properties!.results.items)).toBe(eventSchema());
      const created = paths['/api/v1/organizers/{organizer}/events/'].post;
      expect(deref(jsonSchema(created.responses['201'].content))).toBe(eventSchema());
      const body = deref(jsonSchema(created.requestBody?.content))!;
      // Every field of the event is writable (spec "Conventions" 5) but the read-only `public_url` and `valid_keys`.
      const readOnly = ['public_url', 'valid_keys'];
      expect(Object.keys(body.properties!).sort()).toEqual(
        Object.keys(toEventJson(sampleEvent(), presentation))
          .filter((k) => !readOnly.includes(k))
          .sort(),
      );
      expect([...(body.required ?? [])].sort()).toEqual(['currency', 'date_from', 'name', 'slug']);
      const patchBody = deref(
        jsonSchema(paths['/api/v1/organizers/{organizer}/events/{event}/'].patch.requestBody?.content),
      )!;
      expect(Object.keys(patchBody.properties!).sort()).toEqual(Object.keys(body.properties!).sort());
      expect(patchBody.required ?? []).toEqual([]);
      const putBody = deref(
        jsonSchema(paths['/api/v1/organizers/{organizer}/events/{event}/'].put.requestBody?.content),
      );
      expect(putBody).toBe(body);
    });

    it('documents 204 for delete (and errors only besides)', () => {
      const del = doc.paths['/api/v1/organizers/{organizer}/events/{event}/'].delete;
      expect(Object.keys(del.responses).filter((s) => Number(s) < 400)).toEqual(['204']);
    });
  });
});
