import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/** `E/categories/` (compat §3.9; permissions per docs/permissions.md). */
describe('item categories', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let outsider: string;
  const E = '/api/v1/organizers/org/events/sample';
  const OTHER = '/api/v1/organizers/org/events/other';

  const DEFAULT_CATEGORY = {
    internal_name: null,
    description: {},
    position: 0,
    is_addon: false,
    cross_selling_mode: null,
    cross_selling_condition: null,
    cross_selling_match_products: [],
  };

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const put = (path: string, body: object, tok = token) =>
    t.http().put(path).set('Authorization', auth(tok)).send(body);
  const del = (path: string, tok = token) => t.http().delete(path).set('Authorization', auth(tok));

  async function createCategory(body: object, base = E): Promise<{ id: number } & Record<string, unknown>> {
    const res = await post(`${base}/categories/`, body);
    if (res.status !== 201) throw new Error(`createCategory: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function createItem(body: object, base = E): Promise<{ id: number } & Record<string, unknown>> {
    const res = await post(`${base}/items/`, { name: 'Ticket', default_price: '10.00', ...body });
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function logActions(objectId: number): Promise<string[]> {
    const rows: { action_type: string }[] = await t.db.query(
      "SELECT action_type FROM log_entry WHERE content_type = 'itemcategory' AND object_id = $1 ORDER BY id",
      [objectId],
    );
    return rows.map((r) => r.action_type);
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    reader = await teamToken(t, 'org', { limitEvents: ['sample'], eventPermissions: ['event.orders:read'] });
    outsider = await teamToken(t, 'org', { limitEvents: ['other'], eventPermissions: ['event.items:write'] });
  });
  afterAll(() => t.close());

  describe('create and detail', () => {
    it('creates a minimal category with every default and shows it on detail', async () => {
      const res = await post(`${E}/categories/`, { name: { en: 'Tickets' } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.any(Number), name: { en: 'Tickets' }, ...DEFAULT_CATEGORY });
      const again = await get(`${E}/categories/${res.body.id}/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
      expect(await logActions(res.body.id)).toEqual(['pretix.event.category.added']);
    });

    it('stores every field, a plain-string name under "en", and sorted unique cross-selling items', async () => {
      const a = await createItem({ name: 'A' });
      const b = await createItem({ name: 'B' });
      const res = await post(`${E}/categories/`, {
        name: 'Merch',
        internal_name: 'merch-internal',
        description: { en: 'Shirts', de: 'Hemden' },
        position: 4,
        is_addon: true,
        cross_selling_mode: 'both',
        cross_selling_condition: 'products',
        cross_selling_match_products: [b.id, a.id, b.id],
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: { en: 'Merch' },
        internal_name: 'merch-internal',
        description: { en: 'Shirts', de: 'Hemden' },
        position: 4,
        is_addon: true,
        cross_selling_mode: 'both',
        cross_selling_condition: 'products',
        cross_selling_match_products: [a.id, b.id],
      });
      expect((await get(`${E}/categories/${res.body.id}/`)).body).toEqual(res.body);
    });

    it.each([
      [{}, { name: ['This field is required.'] }],
      [{ name: null }, { name: ['This field may not be null.'] }],
      [{ name: 5 }, { name: ['Invalid i18n string: expected an object or a string.'] }],
      [{ name: 'x', description: null }, { description: ['This field may not be null.'] }],
      [{ name: 'x', position: 'first' }, { position: ['A valid integer is required.'] }],
      [{ name: 'x', is_addon: 'yes' }, { is_addon: ['Must be a valid boolean.'] }],
      [
        { name: 'x', internal_name: 'n'.repeat(256) },
        { internal_name: ['Ensure this field has no more than 255 characters.'] },
      ],
      [
        { name: 'x', cross_selling_mode: 'sometimes' },
        { cross_selling_mode: ['"sometimes" is not a valid choice.'] },
      ],
      [
        { name: 'x', cross_selling_condition: 'never' },
        { cross_selling_condition: ['"never" is not a valid choice.'] },
      ],
      [
        { name: 'x', cross_selling_match_products: 'all' },
        { cross_selling_match_products: ['Expected a list of items but got type "str".'] },
      ],
      [
        { name: 'x', cross_selling_match_products: [999999] },
        { cross_selling_match_products: ['Invalid pk "999999" - object does not exist.'] },
      ],
    ])('answers 400 for %j', async (body, errors) => {
      const before = await get(`${E}/categories/`);
      const res = await post(`${E}/categories/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect((await get(`${E}/categories/`)).body.count).toBe(before.body.count);
    });

    it('refuses cross-selling items of another event', async () => {
      const foreign = await createItem({ name: 'Foreign' }, OTHER);
      const res = await post(`${E}/categories/`, { name: 'x', cross_selling_match_products: [foreign.id] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        cross_selling_match_products: [`Invalid pk "${foreign.id}" - object does not exist.`],
      });
    });
  });

  describe('list', () => {
    let base: string;
    let ids: Record<string, number>;

    beforeAll(async () => {
      await createEvent(t, token, 'org', { slug: 'listing' });
      base = '/api/v1/organizers/org/events/listing';
      ids = {};
      for (const [name, position, isAddon] of [
        ['c', 1, false],
        ['a', 2, true],
        ['b', 1, true],
      ] as const) {
        ids[name] = (await createCategory({ name, position, is_addon: isAddon }, base)).id;
      }
    });

    const names = (res: { body: { results: { name: { en: string } }[] } }) =>
      res.body.results.map((c) => c.name.en);

    it('lists in the envelope ordered by position, id by default', async () => {
      const res = await get(`${base}/categories/`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: 3,
        next: null,
        previous: null,
        results: [
          { ...DEFAULT_CATEGORY, id: ids.c, name: { en: 'c' }, position: 1 },
          { ...DEFAULT_CATEGORY, id: ids.b, name: { en: 'b' }, position: 1, is_addon: true },
          { ...DEFAULT_CATEGORY, id: ids.a, name: { en: 'a' }, position: 2, is_addon: true },
        ],
      });
    });

    it('orders by id, -id and -position; ignores unknown fields', async () => {
      expect(names(await get(`${base}/categories/?ordering=id`))).toEqual(['c', 'a', 'b']);
      expect(names(await get(`${base}/categories/?ordering=-id`))).toEqual(['b', 'a', 'c']);
      expect(names(await get(`${base}/categories/?ordering=-position`))).toEqual(['a', 'c', 'b']);
      expect(names(await get(`${base}/categories/?ordering=name`))).toEqual(['c', 'b', 'a']);
    });

    it('filters by is_addon and refuses a non-boolean', async () => {
      expect(names(await get(`${base}/categories/?is_addon=true`))).toEqual(['b', 'a']);
      expect(names(await get(`${base}/categories/?is_addon=false`))).toEqual(['c']);
      const bad = await get(`${base}/categories/?is_addon=maybe`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ is_addon: ['Must be a valid boolean.'] });
    });

    it('paginates', async () => {
      const res = await get(`${base}/categories/?page_size=2&page=2`);
      expect(res.body.count).toBe(3);
      expect(names(res)).toEqual(['a']);
      expect(res.body.next).toBeNull();
      expect(res.body.previous).not.toBeNull();
    });

    it('shows only categories of the event in the URL', async () => {
      const res = await get(`${OTHER}/categories/`);
      expect(res.body.results.map((c: { id: number }) => c.id)).not.toContain(ids.a);
    });
  });

  describe('update', () => {
    it('PATCH changes only the sent fields', async () => {
      const cat = await createCategory({
        name: 'Old',
        internal_name: 'int',
        description: 'desc',
        position: 3,
        is_addon: true,
        cross_selling_mode: 'only',
      });
      const res = await patch(`${E}/categories/${cat.id}/`, { name: { en: 'New', de: 'Neu' } });
      expect(res.status).toBe(200);
      const expected = { ...cat, name: { en: 'New', de: 'Neu' } };
      expect(res.body).toEqual(expected);
      expect((await get(`${E}/categories/${cat.id}/`)).body).toEqual(expected);
      expect(await logActions(cat.id)).toEqual([
        'pretix.event.category.added',
        'pretix.event.category.changed',
      ]);
    });

    it('PATCH can null nullable fields and refuses null for the others', async () => {
      const cat = await createCategory({ name: 'x', internal_name: 'int', cross_selling_mode: 'both' });
      const ok = await patch(`${E}/categories/${cat.id}/`, { internal_name: null, cross_selling_mode: null });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ ...cat, internal_name: null, cross_selling_mode: null });
      const bad = await patch(`${E}/categories/${cat.id}/`, { name: null, position: null });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        name: ['This field may not be null.'],
        position: ['This field may not be null.'],
      });
    });

    it('PATCH with unchanged values logs nothing', async () => {
      const cat = await createCategory({ name: { en: 'Same' }, position: 2 });
      const res = await patch(`${E}/categories/${cat.id}/`, { name: { en: 'Same' }, position: 2 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(cat);
      expect(await logActions(cat.id)).toEqual(['pretix.event.category.added']);
    });

    it('PUT resets omitted optional fields to their defaults', async () => {
      const item = await createItem({});
      const cat = await createCategory({
        name: 'Full',
        internal_name: 'int',
        description: 'desc',
        position: 3,
        is_addon: true,
        cross_selling_mode: 'both',
        cross_selling_condition: 'always',
        cross_selling_match_products: [item.id],
      });
      const res = await put(`${E}/categories/${cat.id}/`, { name: 'Reset' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: cat.id, name: { en: 'Reset' }, ...DEFAULT_CATEGORY });
      expect((await get(`${E}/categories/${cat.id}/`)).body).toEqual(res.body);
    });

    it('PUT requires name', async () => {
      const cat = await createCategory({ name: 'x' });
      const res = await put(`${E}/categories/${cat.id}/`, { position: 1 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ name: ['This field is required.'] });
    });

    it('PATCH validates cross-selling items', async () => {
      const cat = await createCategory({ name: 'x' });
      const res = await patch(`${E}/categories/${cat.id}/`, { cross_selling_match_products: [424242] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        cross_selling_match_products: ['Invalid pk "424242" - object does not exist.'],
      });
      expect((await get(`${E}/categories/${cat.id}/`)).body).toEqual(cat);
    });
  });

  describe('delete', () => {
    it('deletes the category, keeps its items with category null, and logs', async () => {
      const cat = await createCategory({ name: 'Doomed' });
      const item = await createItem({ category: cat.id });
      expect(item.category).toBe(cat.id);
      const res = await del(`${E}/categories/${cat.id}/`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const gone = await get(`${E}/categories/${cat.id}/`);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ detail: 'Not found.' });
      const after = await get(`${E}/items/${item.id}/`);
      expect(after.status).toBe(200);
      expect(after.body.category).toBeNull();
      expect(await logActions(cat.id)).toEqual([
        'pretix.event.category.added',
        'pretix.event.category.deleted',
      ]);
    });

    it('removes a deleted item from cross-selling lists', async () => {
      const a = await createItem({ name: 'A' });
      const b = await createItem({ name: 'B' });
      const cat = await createCategory({ name: 'x', cross_selling_match_products: [a.id, b.id] });
      expect((await del(`${E}/items/${a.id}/`)).status).toBe(204);
      expect((await get(`${E}/categories/${cat.id}/`)).body.cross_selling_match_products).toEqual([b.id]);
    });
  });

  describe('scoping', () => {
    let foreign: { id: number };

    beforeAll(async () => {
      foreign = await createCategory({ name: 'Foreign' }, OTHER);
    });

    it.each(['get', 'patch', 'put', 'delete'] as const)(
      '%s of a category of another event answers 404',
      async (method) => {
        const url = `${E}/categories/${foreign.id}/`;
        const res =
          method === 'get'
            ? await get(url)
            : method === 'delete'
              ? await del(url)
              : method === 'patch'
                ? await patch(url, { name: 'hijack' })
                : await put(url, { name: 'hijack' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: 'Not found.' });
        expect((await get(`${OTHER}/categories/${foreign.id}/`)).body.name).toEqual({ en: 'Foreign' });
      },
    );

    it.each(['abc', '1.5', '0', '-1', '99999999999'])('answers 404 for the id %s', async (id) => {
      const res = await get(`${E}/categories/${id}/`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
      expect((await patch(`${E}/categories/${id}/`, { name: 'x' })).status).toBe(404);
      expect((await del(`${E}/categories/${id}/`)).status).toBe(404);
    });
  });

  describe('permissions', () => {
    let cat: { id: number };
    const DENIED = { detail: 'You do not have permission to perform this action.' };

    beforeAll(async () => {
      cat = await createCategory({ name: 'Perm' });
    });

    it('answers 401 without credentials', async () => {
      const res = await t.http().get(`${E}/categories/`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect((await t.http().post(`${E}/categories/`).send({ name: 'x' })).status).toBe(401);
    });

    it('lets a team with event access but without event.items:write read', async () => {
      expect((await get(`${E}/categories/`, reader)).status).toBe(200);
      const detail = await get(`${E}/categories/${cat.id}/`, reader);
      expect(detail.status).toBe(200);
      expect(detail.body.name).toEqual({ en: 'Perm' });
    });

    it('answers 403 to every write without event.items:write, changing nothing', async () => {
      const url = `${E}/categories/${cat.id}/`;
      for (const res of [
        await post(`${E}/categories/`, { name: 'x' }, reader),
        await patch(url, { name: 'x' }, reader),
        await put(url, { name: 'x' }, reader),
        await del(url, reader),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(url)).body.name).toEqual({ en: 'Perm' });
    });

    it('answers 403 for an event outside the team limit, and for unknown organizer or event', async () => {
      for (const res of [
        await get(`${E}/categories/`, outsider),
        await get(`${E}/categories/${cat.id}/`, outsider),
        await post(`${E}/categories/`, { name: 'x' }, outsider),
        await get('/api/v1/organizers/nope/events/sample/categories/'),
        await get('/api/v1/organizers/org/events/nope/categories/'),
        await post('/api/v1/organizers/org/events/nope/categories/', { name: 'x' }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
    });
  });
});
