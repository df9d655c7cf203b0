import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { countStatements } from './sql-count';

type Json = Record<string, unknown>;

/**
 * Rendered catalogue list pages are cached under the event's catalogue version (bench/README.md "List
 * throughput"). The cache must never serve a page older than the last committed write: after every kind of write
 * (through the API and by raw SQL), the list equals what the uncached detail endpoints say, and a repeated request
 * with no write in between is served without reading the rows.
 */
describe('rendered catalogue list cache', () => {
  let t: TestApp;
  let token: string;
  const base = '/api/v1/organizers/org/events/sample';
  const http = () => t.http();
  const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: Json) => {
    // supertest binds a new port per request: a fixed Host keeps the cache key (which holds the host) stable.
    const req = http()
      [method](`${base}/${path}`)
      .set('Authorization', auth(token))
      .set('Host', 'api.example');
    return body ? req.send(body) : req;
  };
  const ok = async (method: 'post' | 'patch' | 'delete', path: string, body?: Json): Promise<Json> => {
    const res = await call(method, path, body);
    if (![200, 201, 204].includes(res.status))
      throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body as Json;
  };

  /** The item list must equal the detail of every item (details are never cached). */
  async function expectItemListFresh(): Promise<Json[]> {
    const list = await call('get', 'items/?page_size=50');
    expect(list.status).toBe(200);
    const results = list.body.results as Json[];
    for (const item of results) {
      const detail = await call('get', `items/${item.id as number}/`);
      expect(item).toEqual(detail.body);
    }
    return results;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
  });
  afterAll(() => t.close());

  it('serves a repeated list without reading its rows, and the same bytes', async () => {
    await ok('post', 'items/', { name: { en: 'Ticket' }, default_price: '10.00' });
    const first = await call('get', 'items/');
    const cold = await countStatements(() => call('get', 'items/?ordering=id'));
    const warm = await countStatements(() => call('get', 'items/?ordering=id'));
    expect(warm.statements).toBe(cold.statements - 1);
    expect(warm.sql.join('\n')).not.toMatch(/FROM "item"|FROM item /);
    const again = await call('get', 'items/');
    expect(again.text).toBe(first.text);
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    // The same bytes, so the same strong ETag (README "ETags and conditional requests").
    expect(again.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(again.headers.etag).toBe(first.headers.etag);
  });

  it('shows every kind of catalogue write at once', async () => {
    const item = await ok('post', 'items/', {
      name: { en: 'Shirt' },
      default_price: '20.00',
      has_variations: true,
    });
    const id = item.id as number;
    expect((await expectItemListFresh()).map((i) => i.id)).toContain(id);

    await ok('patch', `items/${id}/`, { name: { en: 'Polo' } });
    expect((await expectItemListFresh()).find((i) => i.id === id)?.name).toEqual({ en: 'Polo' });

    const variation = await ok('post', `items/${id}/variations/`, {
      value: { en: 'S' },
      default_price: '21.00',
    });
    expect(((await expectItemListFresh()).find((i) => i.id === id)?.variations as Json[]).length).toBe(1);
    await ok('patch', `items/${id}/variations/${variation.id as number}/`, { default_price: '22.00' });
    await expectItemListFresh();

    const category = await ok('post', 'categories/', { name: { en: 'Extras' } });
    await ok('post', `items/${id}/addons/`, { addon_category: category.id, min_count: 0, max_count: 1 });
    expect(((await expectItemListFresh()).find((i) => i.id === id)?.addons as Json[]).length).toBe(1);
    const other = await ok('post', 'items/', { name: { en: 'Sticker' }, default_price: '1.00' });
    await ok('post', `items/${id}/bundles/`, { bundled_item: other.id, count: 1, designated_price: '0.00' });
    expect(((await expectItemListFresh()).find((i) => i.id === id)?.bundles as Json[]).length).toBe(1);

    const rule = await ok('post', 'taxrules/', { name: { en: 'VAT' }, rate: '19.00' });
    await ok('patch', `items/${id}/`, { tax_rule: rule.id });
    await expectItemListFresh();
    await ok('patch', `taxrules/${rule.id as number}/`, { rate: '7.00' });
    expect((await expectItemListFresh()).find((i) => i.id === id)?.tax_rate).toBe('7.00');

    await ok('patch', `items/${id}/`, { category: category.id });
    await expectItemListFresh();
    await ok(
      'delete',
      `items/${id}/addons/${((await call('get', `items/${id}/addons/`)).body.results as Json[])[0].id as number}/`,
    );
    await expectItemListFresh();

    await ok('delete', `items/${other.id as number}/`).catch(() => undefined);
    await ok('delete', `items/${id}/`);
    expect((await expectItemListFresh()).map((i) => i.id)).not.toContain(id);
  });

  it('shows writes made by raw SQL, bypassing the services (database triggers bump the version)', async () => {
    const item = await ok('post', 'items/', {
      name: { en: 'Raw' },
      default_price: '5.00',
      has_variations: true,
    });
    await expectItemListFresh();
    await t.db.query(`UPDATE item SET internal_name = 'set by SQL' WHERE id = $1`, [item.id]);
    expect((await expectItemListFresh()).find((i) => i.id === item.id)?.internal_name).toBe('set by SQL');
    await t.db.query(`UPDATE item_variation SET position = position WHERE false`);
    const variation = await ok('post', `items/${item.id as number}/variations/`, { value: { en: 'A' } });
    await expectItemListFresh();
    await t.db.query(`UPDATE item_variation SET active = false WHERE id = $1`, [variation.id]);
    const listed = (await expectItemListFresh()).find((i) => i.id === item.id)?.variations as Json[];
    expect(listed[0].active).toBe(false);
  });

  it('keeps categories and tax rules fresh too', async () => {
    const before = await call('get', 'categories/');
    const created = await ok('post', 'categories/', { name: { en: 'Fresh' } });
    const after = await call('get', 'categories/');
    expect(after.body.count).toBe((before.body.count as number) + 1);
    await t.db.query(`UPDATE item_category SET internal_name = 'sql' WHERE id = $1`, [created.id]);
    const listed = (await call('get', 'categories/?page_size=50')).body.results as Json[];
    expect(listed.find((c) => c.id === created.id)?.internal_name).toBe('sql');

    const rules = (await call('get', 'taxrules/')).body.count as number;
    await ok('post', 'taxrules/', { name: { en: 'Reduced' }, rate: '5.00' });
    expect((await call('get', 'taxrules/')).body.count).toBe(rules + 1);
  });

  it('renders next/previous links for the host of each request, never another caller’s', async () => {
    await ok('post', 'items/', { name: { en: 'Two' }, default_price: '2.00' });
    const a = await call('get', 'items/?page_size=1').set('Host', 'a.example');
    const b = await call('get', 'items/?page_size=1').set('Host', 'b.example');
    expect(a.body.next).toMatch(/^http:\/\/a\.example\//);
    expect(b.body.next).toMatch(/^http:\/\/b\.example\//);
  });

  it('keeps the access checks: no token 401, a foreign token 403/404, before any cached page', async () => {
    await call('get', 'items/');
    expect((await http().get(`${base}/items/`)).status).toBe(401);
    const other = await bootstrapOrganizer(t, 'other');
    const foreign = await http().get(`${base}/items/`).set('Authorization', auth(other.token));
    expect([403, 404]).toContain(foreign.status);
  });

  it('lets an event with a catalogue be deleted (the triggers follow the cascade)', async () => {
    await createEvent(t, token, 'org', { slug: 'gone' });
    const path = '/api/v1/organizers/org/events/gone';
    const made = await http()
      .post(`${path}/items/`)
      .set('Authorization', auth(token))
      .send({ name: { en: 'X' }, default_price: '1.00', variations: [{ value: { en: 'V' } }] });
    expect(made.status).toBe(201);
    expect((await http().delete(`${path}/`).set('Authorization', auth(token))).status).toBe(204);
    const left = await t.db.query(`SELECT count(*)::int AS n FROM event WHERE slug = 'gone'`);
    expect(left[0].n).toBe(0);
  });
});

describe('rendered catalogue list cache switched off', () => {
  it('answers the same with LIST_CACHE_BYTES=0, reading the rows every time', async () => {
    const t = await startTestApp({ listCacheBytes: 0 });
    try {
      const { token } = await bootstrapOrganizer(t, 'org');
      await createEvent(t, token, 'org');
      const url = '/api/v1/organizers/org/events/sample/items/';
      await t
        .http()
        .post(url)
        .set('Authorization', auth(token))
        .send({ name: { en: 'A' }, default_price: '1.00' });
      const first = await countStatements(() => t.http().get(url).set('Authorization', auth(token)));
      const second = await countStatements(() => t.http().get(url).set('Authorization', auth(token)));
      expect(second.statements).toBe(first.statements);
      expect(second.rows).toBe(1);
    } finally {
      await t.close();
    }
  });
});
