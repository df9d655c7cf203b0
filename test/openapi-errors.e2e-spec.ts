import type { Response } from 'supertest';
import { IDEMPOTENCY_KEY_MAX } from '../src/common/http/idempotency';
import { RouteInfo, RouteRegistry } from '../src/common/http/route-registry';
import { auth, bootstrapOrganizer, createEvent, createSeries } from './factories';
import { startTestApp, TestApp } from './harness';
import { Components, deref, resolveRef, Schema, schemaProblems } from './openapi-schema';

/**
 * Error responses of the OpenAPI document (compat §1.5; README "API conventions"): every operation documents the
 * errors it answers, with reusable bodies, and real error answers of the HTTP stack match what the document says
 * (status, body schema, headers). So a generated client types its errors instead of `never`.
 */

type Header = { required?: boolean; schema?: Schema };
type ResponseObject = {
  description: string;
  headers?: Record<string, Header | { $ref: string }>;
  content?: Record<string, { schema?: Schema }>;
};
type Parameter = { name: string; in: string; required?: boolean; schema?: Schema };
type Operation = {
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: unknown;
  responses: Record<string, ResponseObject | { $ref: string }>;
  security?: unknown[];
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: Components;
  security?: unknown[];
};

interface Route {
  method: string;
  path: string;
  label: string;
  access: RouteInfo['access'];
}

const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];

describe('OpenAPI error responses', () => {
  let t: TestApp;
  let doc: Document;
  let routes: Route[];
  let token: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/real`;

  const op = (r: Route): Operation => doc.paths[r.path][r.method.toLowerCase()];
  const response = (o: Operation, status: number | string): ResponseObject | undefined => {
    const r = o.responses[String(status)];
    return r && deref<ResponseObject>(doc.components, r);
  };
  const parameters = (o: Operation): Parameter[] =>
    (o.parameters ?? []).map((p) => deref<Parameter>(doc.components, p));
  const isPublic = (r: Route) => r.access?.kind === 'public';
  /** Routes missing one of `statuses`, as `label: status`. */
  const lacking = (selected: Route[], statuses: number[]) =>
    selected.flatMap((r) => statuses.filter((s) => !response(op(r), s)).map((s) => `${r.label}: ${s}`));

  /**
   * Fails unless `res` is an answer the document promises for the operation at `path` (OpenAPI form): its status
   * is documented, its JSON body fits the documented schema, and every required documented header is sent.
   */
  function expectDocumented(method: string, path: string, res: Response): void {
    const operation = doc.paths[path]?.[method];
    if (!operation) throw new Error(`${method} ${path} is not in the document`);
    const documented = response(operation, res.status);
    if (!documented) throw new Error(`${method} ${path}: ${res.status} is not documented`);
    const schema = documented.content?.['application/json']?.schema;
    if (!schema) throw new Error(`${method} ${path}: ${res.status} documents no JSON body`);
    expect(schemaProblems(doc.components, schema, res.body)).toEqual([]);
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const h = deref<Header>(doc.components, header);
      if (h.required) expect([name, res.headers[name.toLowerCase()]]).toEqual([name, expect.any(String)]);
    }
  }

  beforeAll(async () => {
    // Two refused credentials are allowed, the third answers 429 (only the last test presents bad ones).
    t = await startTestApp({ authFailureLimit: 2, authFailureWindowS: 60 });
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await bootstrapOrganizer(t, 'other');
    await createEvent(t, token, 'org', { slug: 'real' });
    const res = await t.http().get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body as Document;
    routes = t.app.get(RouteRegistry).routes.map((r) => {
      const path = r.path.replace(/:([A-Za-z_]+)/g, '{$1}') + (r.trailingSlash ? '/' : '');
      return { method: r.method, path, label: `${r.method} ${path}`, access: r.access };
    });
  });
  afterAll(() => t?.close());

  describe('the document', () => {
    it('has reusable error bodies, headers and responses whose references all resolve', () => {
      expect(Object.keys(doc.components.schemas!)).toEqual(
        expect.arrayContaining(['ErrorDetail', 'FieldErrors', 'ValidationError', 'ConflictError']),
      );
      const text = JSON.stringify(doc);
      const refs = new Set([...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]));
      const dangling = [...refs].filter((ref) => {
        try {
          resolveRef(doc.components, ref);
          return false;
        } catch {
          return true;
        }
      });
      expect(dangling).toEqual([]);
    });

    it('gives every error response of every operation a JSON body schema', () => {
      const problems = routes.flatMap((r) =>
        Object.keys(op(r).responses)
          .filter((s) => Number(s) >= 400)
          .filter((s) => !response(op(r), s)?.content?.['application/json']?.schema)
          .map((s) => `${r.label}: ${s}`),
      );
      expect(problems).toEqual([]);
    });

    it('documents 401, 429 and 503 (with Retry-After) on every authenticated operation', () => {
      const authenticated = routes.filter((r) => !isPublic(r));
      expect(authenticated.length).toBeGreaterThan(100);
      expect(lacking(authenticated, [401, 429, 503])).toEqual([]);
      const withoutRetryAfter = authenticated
        .flatMap((r) => [429, 503].map((s) => [r, s] as const))
        .filter(([r, s]) => !response(op(r), s)?.headers?.['Retry-After'])
        .map(([r, s]) => `${r.label}: ${s}`);
      expect(withoutRetryAfter).toEqual([]);
      const wwwAuthenticate = response(op(authenticated[0]), 401)?.headers?.['WWW-Authenticate'];
      if (!wwwAuthenticate) throw new Error('401 documents no WWW-Authenticate header');
      expect(deref<Header>(doc.components, wwwAuthenticate)).toMatchObject({
        required: true,
        schema: { type: 'string', enum: ['Token'] },
      });
    });

    it('documents 403 on every authenticated operation (a scope or permission, or the device security profile)', () => {
      const scoped = routes.filter((r) => !isPublic(r));
      expect(lacking(scoped, [403])).toEqual([]);
    });

    it('documents 404 on every operation with an object id in the path, item writes and paginated lists', () => {
      const withIds = routes.filter(
        (r) =>
          [...r.path.matchAll(/\{([^}]+)\}/g)].some((m) => !['organizer', 'event'].includes(m[1])) ||
          (['PUT', 'PATCH', 'DELETE'].includes(r.method) && r.path.endsWith('}/')) ||
          parameters(op(r)).some((p) => p.in === 'query' && p.name === 'page'),
      );
      expect(withIds.length).toBeGreaterThan(50);
      expect(lacking(withIds, [404])).toEqual([]);
    });

    it('documents 400 on every operation with a body, filters or a write method', () => {
      const inputs = routes.filter(
        (r) =>
          WRITES.includes(r.method) ||
          op(r).requestBody !== undefined ||
          parameters(op(r)).some((p) => p.in === 'query'),
      );
      expect(lacking(inputs, [400])).toEqual([]);
      const schema = response(op(inputs[0]), 400)?.content?.['application/json']?.schema;
      expect(schema).toEqual({ $ref: '#/components/schemas/ValidationError' });
    });

    it('documents 409, 422 and the optional X-Idempotency-Key header on every write', () => {
      const writes = routes.filter((r) => WRITES.includes(r.method) && !r.path.startsWith('/api/v1/oauth/'));
      expect(writes.length).toBeGreaterThan(50);
      expect(lacking(writes, [409, 422])).toEqual([]);
      const withoutKey = writes.filter((r) => {
        const key = parameters(op(r)).find((p) => p.name === 'X-Idempotency-Key');
        return (
          key?.in !== 'header' ||
          key.required !== false ||
          key.schema?.type !== 'string' ||
          (key.schema as { maxLength?: number }).maxLength !== IDEMPOTENCY_KEY_MAX
        );
      });
      expect(withoutKey.map((r) => r.label)).toEqual([]);
      // Reads never take the key, but the idempotency query (pretix), which looks one up by it.
      const reads = routes.filter((r) => r.method === 'GET' && r.path !== '/api/v1/idempotency_query');
      expect(reads.filter((r) => parameters(op(r)).some((p) => p.name === 'X-Idempotency-Key'))).toEqual([]);
    });

    it('marks public operations `security: []`; the others keep the document security', () => {
      const publicOps = routes.filter(isPublic).map((r) => r.label);
      expect(publicOps).toEqual(
        expect.arrayContaining(['GET /api/v1/healthz', 'GET /api/v1/readyz', 'GET /api/v1/openapi.json']),
      );
      for (const r of routes) {
        if (isPublic(r)) expect([r.label, op(r).security]).toEqual([r.label, []]);
        // The device endpoints take only device tokens (pretix `device/update`, `info`, `roll`, `revoke`).
        else if (r.path.startsWith('/api/v1/device/'))
          expect([r.label, op(r).security]).toEqual([r.label, [{ device: [] }]]);
        else expect([r.label, op(r).security]).toEqual([r.label, undefined]);
      }
      expect(doc.security).toEqual([{ token: [] }, { oauth2: ['read', 'write'] }, { device: [] }]);
      // 400: a body that is not JSON is refused before routing, whatever the method; 304: a JSON GET (ETag).
      expect(Object.keys(op(routes.find((r) => r.path === '/api/v1/healthz')!).responses)).toEqual([
        '200',
        '304',
        '400',
      ]);
    });
  });

  describe('real answers match the document', () => {
    const get = (path: string, as: string | null = token) => {
      const req = t.http().get(path);
      return as === null ? req : req.set('Authorization', auth(as));
    };
    const post = (path: string, body: unknown, key?: string) => {
      const req = t.http().post(path).set('Authorization', auth(token));
      if (key !== undefined) req.set('X-Idempotency-Key', key);
      return req.send(body as object);
    };

    it('healthz answers without credentials, as `security: []` says', async () => {
      const res = await get('/api/v1/healthz', null);
      expect(res.status).toBe(200);
      expect(doc.paths['/api/v1/healthz'].get.security).toEqual([]);
    });

    it('401 without a token, with WWW-Authenticate', async () => {
      const res = await get(`${O}/events/`, null);
      expect(res.status).toBe(401);
      expectDocumented('get', '/api/v1/organizers/{organizer}/events/', res);
      const me = await get('/api/v1/me', null);
      expect(me.status).toBe(401);
      expectDocumented('get', '/api/v1/me', me);
    });

    it('403 for an organizer out of reach', async () => {
      const res = await get('/api/v1/organizers/other/events/');
      expect(res.status).toBe(403);
      expectDocumented('get', '/api/v1/organizers/{organizer}/events/', res);
    });

    it('404 for an unknown id and for a page past the last one', async () => {
      const item = await get(`${E}/items/999999/`);
      expect(item.status).toBe(404);
      expect(item.body).toEqual({ detail: 'Not found.' });
      expectDocumented('get', '/api/v1/organizers/{organizer}/events/{event}/items/{id}/', item);
      const page = await get(`${O}/events/?page=9`);
      expect(page.status).toBe(404);
      expectDocumented('get', '/api/v1/organizers/{organizer}/events/', page);
    });

    it('404 declared in the code: bulk seat blocking of an event series, with the standard body', async () => {
      await createSeries(t, token, 'org', { slug: 'series' });
      const res = await post(`${O}/events/series/seats/bulk_block/`, { ids: [1] });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Please use the subevent-specific endpoint' });
      expectDocumented('post', '/api/v1/organizers/{organizer}/events/{event}/seats/bulk_block/', res);
    });

    it('400 with field errors for a create with a bad body', async () => {
      const res = await post(`${O}/events/`, { slug: 'x y', name: 'not an object' });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body as object)).toEqual(expect.arrayContaining(['slug']));
      expectDocumented('post', '/api/v1/organizers/{organizer}/events/', res);
    });

    it('400 `{"detail"}` for malformed JSON and for an idempotency key that is too long', async () => {
      const malformed = await t
        .http()
        .post(`${O}/events/`)
        .set('Authorization', auth(token))
        .set('Content-Type', 'application/json')
        .send('{"slug": ');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ detail: expect.stringMatching(/^JSON parse error/) });
      expectDocumented('post', '/api/v1/organizers/{organizer}/events/', malformed);
      const long = await post(`${O}/giftcards/`, { currency: 'EUR', value: '1.00' }, 'k'.repeat(256));
      expect(long.status).toBe(400);
      expectDocumented('post', '/api/v1/organizers/{organizer}/giftcards/', long);
    });

    it('409 with field errors for a gift card debit beyond its balance; 400 for a bad filter of its detail', async () => {
      const card = await post(`${O}/giftcards/`, { currency: 'EUR', value: '5.00' });
      expect(card.status).toBe(201);
      const id = (card.body as { id: number }).id;
      const res = await post(`${O}/giftcards/${id}/transact/`, { value: '-5.01' });
      expect(res.status).toBe(409);
      expectDocumented('post', '/api/v1/organizers/{organizer}/giftcards/{id}/transact/', res);
      const filter = await get(`${O}/giftcards/${id}/?include_accepted=maybe`);
      expect(filter.status).toBe(400);
      expect(filter.body).toEqual({ include_accepted: ['Must be a valid boolean.'] });
      expectDocumented('get', '/api/v1/organizers/{organizer}/giftcards/{id}/', filter);
    });

    it('412 for a conditional list changed since If-Unmodified-Since', async () => {
      const created = await post(`${E}/categories/`, { name: 'Tickets' });
      expect(created.status).toBe(201);
      const first = await get(`${E}/categories/`);
      const older = new Date(Date.parse(first.headers['last-modified']) - 1000).toUTCString();
      const res = await get(`${E}/categories/`).set('If-Unmodified-Since', older);
      expect(res.status).toBe(412);
      const path = '/api/v1/organizers/{organizer}/events/{event}/categories/';
      expectDocumented('get', path, res);
      expect(response(doc.paths[path].get, 304)).toEqual({
        description: expect.stringContaining('If-Modified-Since'),
        headers: { ETag: { $ref: '#/components/headers/ETag' } },
      });
      const names = parameters(doc.paths[path].get).map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(['If-Modified-Since', 'If-Unmodified-Since']));
    });

    it('422 for an idempotency key reused with another body', async () => {
      const first = await post(`${O}/giftcards/`, { currency: 'EUR', value: '1.00' }, 'reused-key');
      expect(first.status).toBe(201);
      const again = await post(`${O}/giftcards/`, { currency: 'EUR', value: '2.00' }, 'reused-key');
      expect(again.status).toBe(422);
      expectDocumented('post', '/api/v1/organizers/{organizer}/giftcards/', again);
    });

    it('429 with Retry-After once refused credentials pass the limit', async () => {
      for (let i = 0; i < 2; i++) {
        const refused = await get(`${O}/events/`, `wrong${i}`);
        expect(refused.status).toBe(401);
        expectDocumented('get', '/api/v1/organizers/{organizer}/events/', refused);
      }
      const throttled = await get(`${O}/events/`, 'wrong-again');
      expect(throttled.status).toBe(429);
      expectDocumented('get', '/api/v1/organizers/{organizer}/events/', throttled);
    });
  });
});
