import { readFileSync } from 'fs';
import { FilterReadLog } from '../src/common/listing/filter-reads';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { placePaymentOrder } from './order-payment-fixtures';
import { ROUTE_TABLE_FILE, RouteTableRow } from './print-route-table';

/**
 * Every query parameter a route reads through `QueryFilters` is in the OpenAPI document (README "API
 * conventions"): with a {@link FilterReadLog} installed, every GET route of test/route-table.json is called, and
 * the names each one read (filters, `ordering` fields, `expand` names) are compared with the query parameters of
 * its operation. The reverse holds for lists: what a list documents (besides `page`, `page_size`, `cursor`) it
 * reads; every list documents `cursor` (README "Cursor pagination") and a nullable `count`.
 */

type Schema = { type?: string; enum?: string[]; items?: Schema; format?: string };
type Parameter = { name: string; in: string; schema?: Schema; description?: string };
type Document = { paths: Record<string, Record<string, { parameters?: Parameter[] } | undefined>> };

const ORG = '/api/v1/organizers/org';
const E = `${ORG}/events/sample`;
const PAGINATION = new Set(['page', 'page_size', 'cursor']);

describe('documented query parameters', () => {
  let t: TestApp;
  let token: string;
  let doc: Document;
  let log: FilterReadLog;
  const ids: Record<string, string> = { organizer: 'org', event: 'sample' };
  const statuses = new Map<string, number>();
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  const post = async (path: string, body: object): Promise<string> => {
    const res = await t.http().post(path).set('Authorization', auth(token)).send(body);
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return String((res.body as { id: number }).id);
  };

  /**
   * GET routes of the route table, with their OpenAPI path; not the live event streams, which never end (their
   * `last_event_id` is tested in test/checkin-stream.e2e-spec.ts).
   */
  const routes = (JSON.parse(readFileSync(ROUTE_TABLE_FILE, 'utf8')) as RouteTableRow[])
    .filter((r) => r.method === 'GET' && !r.path.endsWith('/stream/'))
    .map((r) => ({ pattern: r.path, openapi: r.path.replace(/:([A-Za-z_]+)/g, '{$1}') }));
  /** Lists: the paginated GET routes (their operation documents `page`). */
  const lists = () => routes.filter((r) => queryParams(r.openapi).some((p) => p.name === 'page'));

  const queryParams = (openapiPath: string, method = 'get'): Parameter[] =>
    (doc.paths[openapiPath]?.[method]?.parameters ?? []).filter((p) => p.in === 'query');
  /** What the log holds for a route pattern (Express may or may not keep the trailing slash). */
  const readsOf = (pattern: string) =>
    log.routes.get(`GET ${pattern}`) ?? log.routes.get(`GET ${pattern.replace(/\/$/, '')}`);
  const enumOf = (p: Parameter | undefined): string[] => p?.schema?.items?.enum ?? p?.schema?.enum ?? [];

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    ids.item = await post(`${E}/items/`, {
      name: 'Ticket',
      default_price: '10.00',
      variations: [{ value: 'Regular' }],
    });
    ids.id = ids.item;
    // An order, for the routes under `orders/:code/` (payments, refunds).
    ids.code = await placePaymentOrder(t, { item: Number(ids.item) });
    ids.question = await post(`${E}/questions/`, { question: 'Name?', type: 'S', items: [] });
    ids.team = String(((await get(`${ORG}/teams/`)).body as { results: { id: number }[] }).results[0].id);
    ids.list = await post(`${E}/checkinlists/`, { name: 'Main', all_products: true });
    const card = await post(`${ORG}/giftcards/`, { currency: 'EUR', value: '10.00' });
    // Routes under a date of a series (`:subevent`) run on a series event.
    await createEvent(t, token, 'org', { slug: 'series', has_subevents: true });
    ids.subevent = await post(`${ORG}/events/series/subevents/`, {
      name: { en: 'Day' },
      date_from: '2030-01-01T19:00:00Z',
    });
    ids.webhook = await post(`${ORG}/webhooks/`, {
      target_url: 'https://hooks.example.org/in',
      action_types: ['pretix.event.order.placed'],
    });
    doc = (await t.http().get('/api/v1/openapi.json')).body as Document;
    log = FilterReadLog.install();
    for (const r of routes) {
      // The check-in RPC search needs its lists (`?list=`, required) as every list route needs its path ids.
      const required = r.pattern.endsWith('/checkinrpc/search/') ? `?list=${ids.list}` : '';
      const onDate = r.pattern.includes(':subevent');
      const url =
        r.pattern.replace(/:([A-Za-z_]+)/g, (_m, name: string) =>
          onDate && name === 'event' ? 'series' : (ids[name] ?? '1'),
        ) + required;
      const res = await get(url);
      statuses.set(r.pattern, res.status);
    }
    // Writes that read query parameters (`include_accepted`, `expand`).
    const write = (method: 'patch' | 'post', path: string, body: object) =>
      t.http()[method](path).set('Authorization', auth(token)).send(body);
    expect((await write('patch', `${ORG}/giftcards/${card}/`, { testmode: false })).status).toBe(200);
    expect((await write('post', `${ORG}/giftcards/${card}/transact/`, { value: '1.00' })).status).toBe(200);
    const medium = { type: 'barcode', identifier: 'ABC123' };
    expect((await write('post', `${ORG}/reusablemedia/`, medium)).status).toBe(201);
    expect((await write('post', `${ORG}/reusablemedia/lookup/`, medium)).status).toBe(200);
  });

  afterAll(async () => {
    FilterReadLog.uninstall();
    await t?.close();
  });

  it('answers 200 on every list route (so that each one really ran its filters)', () => {
    const failed = lists().filter((r) => statuses.get(r.pattern) !== 200);
    expect(failed.map((r) => `${r.pattern}: ${statuses.get(r.pattern)}`)).toEqual([]);
    expect(lists().length).toBeGreaterThan(25);
    expect(log.routes.size).toBeGreaterThan(25);
  });

  it('documents every query parameter a route reads', () => {
    const missing: string[] = [];
    for (const [key, read] of log.routes) {
      const [method, pattern] = key.split(' ');
      const path = pattern.replace(/:([A-Za-z_]+)/g, '{$1}');
      const operation = [path, `${path}/`].find((p) => doc.paths[p]?.[method.toLowerCase()]);
      if (!operation) {
        missing.push(`${key}: no operation`);
        continue;
      }
      const documented = new Set(queryParams(operation, method.toLowerCase()).map((p) => p.name));
      for (const name of read.params)
        if (!documented.has(name)) missing.push(`${method} ${operation} ?${name}`);
    }
    expect(missing).toEqual([]);
    // Writes that read query parameters were called too.
    expect([...log.routes.keys()].filter((k) => !k.startsWith('GET ')).length).toBeGreaterThanOrEqual(3);
  });

  it('documents exactly the ordering fields and expand names a route accepts', () => {
    const wrong: string[] = [];
    for (const r of routes) {
      const read = readsOf(r.pattern);
      if (!read) continue;
      const params = queryParams(r.openapi);
      const ordering = enumOf(params.find((p) => p.name === 'ordering'))
        .filter((v) => !v.startsWith('-'))
        .sort();
      if (JSON.stringify(ordering) !== JSON.stringify([...read.ordering].sort()))
        wrong.push(
          `GET ${r.openapi} ordering: documents ${ordering.join(',')}, reads ${[...read.ordering].join(',')}`,
        );
      const expand = enumOf(params.find((p) => p.name === 'expand')).sort();
      if (JSON.stringify(expand) !== JSON.stringify([...read.expand].sort()))
        wrong.push(
          `GET ${r.openapi} expand: documents ${expand.join(',')}, reads ${[...read.expand].join(',')}`,
        );
    }
    expect(wrong).toEqual([]);
  });

  it('reads every query parameter a list documents', () => {
    const unread: string[] = [];
    for (const r of lists()) {
      const read = readsOf(r.pattern);
      for (const p of queryParams(r.openapi)) {
        if (!PAGINATION.has(p.name) && !read?.params.has(p.name)) unread.push(`GET ${r.openapi} ?${p.name}`);
      }
    }
    expect(unread).toEqual([]);
  });

  it('documents cursor pages on every list: the cursor parameter and a nullable count', () => {
    const wrong: string[] = [];
    const raw = doc as unknown as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    };
    for (const r of lists()) {
      if (!queryParams(r.openapi).some((p) => p.name === 'cursor' && p.schema?.type === 'string'))
        wrong.push(`GET ${r.openapi}: no cursor`);
      const ok = raw.paths[r.openapi].get.responses?.['200'] as
        | { content?: Record<string, { schema?: { properties?: { count?: { nullable?: boolean } } } }> }
        | undefined;
      if (ok?.content?.['application/json']?.schema?.properties?.count?.nullable !== true)
        wrong.push(`GET ${r.openapi}: count not nullable`);
    }
    expect(wrong).toEqual([]);
  });

  it('gives every query parameter a typed schema and a description', () => {
    const vague: string[] = [];
    for (const r of routes) {
      for (const p of queryParams(r.openapi)) {
        if (!p.schema?.type || !p.description) vague.push(`GET ${r.openapi} ?${p.name}`);
        if (p.schema?.type === 'array' && !p.schema.items?.type)
          vague.push(`GET ${r.openapi} ?${p.name} items`);
      }
    }
    expect(vague).toEqual([]);
  });

  it('documents datetime filters as date-time and the order status as an enum', () => {
    const param = (path: string, name: string) => queryParams(path).find((p) => p.name === name);
    const orders = '/api/v1/organizers/{organizer}/events/{event}/orders/';
    expect(param(orders, 'modified_since')?.schema).toEqual({ type: 'string', format: 'date-time' });
    expect(param(orders, 'status')?.schema).toEqual({ type: 'string', enum: ['n', 'p', 'e', 'c'] });
    expect(param(orders, 'ordering')).toMatchObject({ style: 'form', explode: false });
  });
});
