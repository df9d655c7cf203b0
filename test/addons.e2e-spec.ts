import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { listStatements } from './sql-count';
import { startTestApp, TestApp } from './harness';

/**
 * `E/items/{item}/addons/` with PATCH/PUT also at the spec's singular `E/items/{item}/addon/{id}/` (spec "Item
 * add-ons"; compat §3.12; permissions per docs/permissions.md).
 */
describe('item add-ons', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let outsider: string;
  const E = '/api/v1/organizers/org/events/sample';
  const OTHER = '/api/v1/organizers/org/events/other';
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const NOT_FOUND = { detail: 'Not found.' };
  const FOREIGN = { addon_category: ["The add-on's category must belong to the same event as the item."] };
  const DUPLICATE = { addon_category: ['The item already has an add-on of this category.'] };
  const MAX_BELOW_MIN = {
    non_field_errors: ['The maximum count needs to be greater than the minimum count.'],
  };
  const DEFAULTS = { min_count: 0, max_count: 1, position: 0, multi_allowed: false, price_included: false };

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: unknown, tok = token) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(tok))
      .send(body as object);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const put = (path: string, body: object, tok = token) =>
    t.http().put(path).set('Authorization', auth(tok)).send(body);
  const del = (path: string, tok = token) => t.http().delete(path).set('Authorization', auth(tok));

  type Body = { id: number } & Record<string, unknown>;

  async function createItem(base = E): Promise<Body> {
    const res = await post(`${base}/items/`, { name: 'Ticket', default_price: '23.00' });
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function createCategory(base = E): Promise<number> {
    const res = await post(`${base}/categories/`, { name: 'Extras', is_addon: true });
    if (res.status !== 201) throw new Error(`createCategory: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id;
  }

  async function createAddon(itemId: number, body: object, base = E): Promise<Body> {
    const res = await post(`${base}/items/${itemId}/addons/`, body);
    if (res.status !== 201) throw new Error(`createAddon: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function itemLog(itemId: number): Promise<{ action: string; data: Record<string, unknown> }[]> {
    const rows: { action_type: string; data: Record<string, unknown> }[] = await t.db.query(
      "SELECT action_type, data FROM log_entry WHERE content_type = 'item' AND object_id = $1 ORDER BY id",
      [itemId],
    );
    return rows.map((r) => ({ action: r.action_type, data: r.data }));
  }

  async function addonCount(): Promise<number> {
    const rows: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM item_addon');
    return Number(rows[0].n);
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
    it('creates an add-on with the default representation, logged on the item, and lists it on the item', async () => {
      const item = await createItem();
      const category = await createCategory();
      const res = await post(`${E}/items/${item.id}/addons/`, { addon_category: category });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.any(Number), addon_category: category, ...DEFAULTS });
      const again = await get(`${E}/items/${item.id}/addons/${res.body.id}/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
      expect((await get(`${E}/items/${item.id}/`)).body.addons).toEqual([res.body]);
      expect(await itemLog(item.id)).toEqual([
        { action: 'pretix.event.item.added', data: expect.any(Object) },
        { action: 'pretix.event.item.addons.added', data: { addon_category: category, id: res.body.id } },
      ]);
    });

    it('stores every field', async () => {
      const item = await createItem();
      const category = await createCategory();
      const input = {
        addon_category: category,
        min_count: 2,
        max_count: 2,
        position: 4,
        multi_allowed: true,
        price_included: true,
      };
      const res = await post(`${E}/items/${item.id}/addons/`, { ...input, id: 99999 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ ...input, id: res.body.id });
      expect(res.body.id).not.toBe(99999);
      expect((await get(`${E}/items/${item.id}/addons/${res.body.id}/`)).body).toEqual(res.body);
    });

    /** Stands for a fresh category of the event in the cases below. */
    const OWN = 'own category';

    it.each([
      [{}, { addon_category: ['This field is required.'] }],
      [{ addon_category: null }, { addon_category: ['This field may not be null.'] }],
      [{ addon_category: 'abc' }, { addon_category: ['A valid integer is required.'] }],
      [{ addon_category: 987654 }, FOREIGN],
      [
        { addon_category: OWN, min_count: -1 },
        { min_count: ['The minimum count needs to be equal to or greater than zero.'] },
      ],
      [
        { addon_category: OWN, min_count: -1, max_count: -2 },
        {
          min_count: ['The minimum count needs to be equal to or greater than zero.'],
          max_count: ['The maximum count needs to be equal to or greater than zero.'],
        },
      ],
      [{ addon_category: OWN, min_count: 3, max_count: 2 }, MAX_BELOW_MIN],
      [{ addon_category: OWN, min_count: 2 }, MAX_BELOW_MIN],
      [{ addon_category: OWN, min_count: 1.5 }, { min_count: ['A valid integer is required.'] }],
      [
        { addon_category: OWN, position: -1 },
        { position: ['Ensure this value is greater than or equal to 0.'] },
      ],
      [{ addon_category: OWN, multi_allowed: null }, { multi_allowed: ['This field may not be null.'] }],
      [{ addon_category: OWN, price_included: 'yes' }, { price_included: ['Must be a valid boolean.'] }],
    ] as [Record<string, unknown>, object][])(
      'answers 400 for %j and creates nothing',
      async (raw, errors) => {
        const item = await createItem();
        const body = { ...raw };
        if (body.addon_category === OWN) body.addon_category = await createCategory();
        const before = await addonCount();
        const res = await post(`${E}/items/${item.id}/addons/`, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errors);
        expect(await addonCount()).toBe(before);
      },
    );

    it('refuses a category of another event, and the same category twice on an item', async () => {
      const item = await createItem();
      const foreign = await createCategory(OTHER);
      const foreignRes = await post(`${E}/items/${item.id}/addons/`, {
        addon_category: foreign,
        min_count: -1,
      });
      expect(foreignRes.status).toBe(400);
      expect(foreignRes.body).toEqual({
        ...FOREIGN,
        min_count: ['The minimum count needs to be equal to or greater than zero.'],
      });
      const category = await createCategory();
      await createAddon(item.id, { addon_category: category });
      const twice = await post(`${E}/items/${item.id}/addons/`, { addon_category: category, max_count: 5 });
      expect(twice.status).toBe(400);
      expect(twice.body).toEqual(DUPLICATE);
      expect((await get(`${E}/items/${item.id}/addons/`)).body.count).toBe(1);
      // Another item may use the same category.
      const otherItem = await createItem();
      expect((await post(`${E}/items/${otherItem.id}/addons/`, { addon_category: category })).status).toBe(
        201,
      );
    });

    it('answers exactly one 201 to concurrent creates with the same category', async () => {
      const item = await createItem();
      const category = await createCategory();
      const results = await Promise.all(
        Array.from({ length: 8 }, () => post(`${E}/items/${item.id}/addons/`, { addon_category: category })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
      for (const res of results.filter((r) => r.status === 400)) expect(res.body).toEqual(DUPLICATE);
      expect((await get(`${E}/items/${item.id}/addons/`)).body.count).toBe(1);
    });
  });

  describe('list', () => {
    let item: Body;
    let ids: Record<string, number>;

    beforeAll(async () => {
      item = await createItem();
      ids = {};
      for (const [key, position] of [
        ['a', 2],
        ['b', 1],
        ['c', 1],
      ] as const) {
        ids[key] = (await createAddon(item.id, { addon_category: await createCategory(), position })).id;
      }
      await createAddon((await createItem()).id, { addon_category: await createCategory() });
    });

    const keysOf = (res: { body: { results: { id: number }[] } }) =>
      res.body.results.map((r) => Object.keys(ids).find((k) => ids[k] === r.id));

    it.each([
      ['', ['b', 'c', 'a']],
      ['ordering=id', ['a', 'b', 'c']],
      ['ordering=-id', ['c', 'b', 'a']],
      ['ordering=-position', ['a', 'b', 'c']],
      ['ordering=nonsense', ['b', 'c', 'a']],
      ['page_size=2&page=2', ['a']],
    ])('%s', async (query, expected) => {
      const res = await get(`${E}/items/${item.id}/addons/?${query}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(3);
      expect(keysOf(res)).toEqual(expected);
    });

    it('lists the add-ons inline on the item in position, id order', async () => {
      const res = await get(`${E}/items/${item.id}/`);
      expect(res.body.addons.map((a: { id: number }) => a.id)).toEqual([ids.b, ids.c, ids.a]);
    });

    it('runs the same number of SQL statements whatever the page size', async () => {
      const count = (query: string) => listStatements(() => get(`${E}/items/${item.id}/addons/?${query}`));
      const one = await count('page_size=1');
      const two = await count('page_size=2');
      expect([one.rows, two.rows]).toEqual([1, 2]);
      expect(two.statements).toBe(one.statements);
    });
  });

  describe('update', () => {
    it.each(['addons', 'addon'])(
      'PATCH at %s/{id}/ changes only the sent fields and logs',
      async (segment) => {
        const item = await createItem();
        const addon = await createAddon(item.id, { addon_category: await createCategory(), position: 3 });
        const res = await patch(`${E}/items/${item.id}/${segment}/${addon.id}/`, {
          min_count: 100,
          max_count: 101,
        });
        expect(res.status).toBe(200);
        const expected = { ...addon, min_count: 100, max_count: 101 };
        expect(res.body).toEqual(expected);
        expect((await get(`${E}/items/${item.id}/addons/${addon.id}/`)).body).toEqual(expected);
        expect((await itemLog(item.id)).at(-1)).toEqual({
          action: 'pretix.event.item.addons.changed',
          data: { min_count: 100, max_count: 101, id: addon.id },
        });
      },
    );

    it.each(['addons', 'addon'])(
      'PUT at %s/{id}/ resets omitted fields and requires the category',
      async (segment) => {
        const item = await createItem();
        const category = await createCategory();
        const addon = await createAddon(item.id, {
          addon_category: category,
          min_count: 1,
          max_count: 3,
          position: 2,
          multi_allowed: true,
          price_included: true,
        });
        const url = `${E}/items/${item.id}/${segment}/${addon.id}/`;
        const missing = await put(url, { min_count: 0 });
        expect(missing.status).toBe(400);
        expect(missing.body).toEqual({ addon_category: ['This field is required.'] });
        const res = await put(url, { addon_category: category });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ id: addon.id, addon_category: category, ...DEFAULTS });
        expect((await get(`${E}/items/${item.id}/addons/${addon.id}/`)).body).toEqual(res.body);
      },
    );

    it('checks the count rules on the merged data and changes nothing on error', async () => {
      const item = await createItem();
      const addon = await createAddon(item.id, { addon_category: await createCategory(), max_count: 3 });
      const url = `${E}/items/${item.id}/addon/${addon.id}/`;
      const above = await patch(url, { min_count: 4 });
      expect(above.status).toBe(400);
      expect(above.body).toEqual(MAX_BELOW_MIN);
      const negative = await patch(url, { max_count: -1 });
      expect(negative.body).toEqual({
        max_count: ['The maximum count needs to be equal to or greater than zero.'],
      });
      const nulls = await patch(url, { addon_category: null, min_count: null });
      expect(nulls.body).toEqual({
        addon_category: ['This field may not be null.'],
        min_count: ['This field may not be null.'],
      });
      expect((await get(`${E}/items/${item.id}/addons/${addon.id}/`)).body).toEqual(addon);
    });

    it('keeps its own category, refuses one used by another add-on of the item or of another event', async () => {
      const item = await createItem();
      const first = await createCategory();
      const second = await createCategory();
      const addon = await createAddon(item.id, { addon_category: first });
      await createAddon(item.id, { addon_category: second });
      const url = `${E}/items/${item.id}/addons/${addon.id}/`;
      expect((await patch(url, { addon_category: first, position: 1 })).status).toBe(200);
      const taken = await patch(url, { addon_category: second });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual(DUPLICATE);
      const foreign = await patch(url, { addon_category: await createCategory(OTHER) });
      expect(foreign.status).toBe(400);
      expect(foreign.body).toEqual(FOREIGN);
      const third = await createCategory();
      const moved = await put(url, { addon_category: third });
      expect(moved.status).toBe(200);
      expect(moved.body.addon_category).toBe(third);
    });

    it('PATCH that changes nothing logs nothing', async () => {
      const item = await createItem();
      const category = await createCategory();
      const addon = await createAddon(item.id, { addon_category: category, max_count: 2 });
      const res = await patch(`${E}/items/${item.id}/addon/${addon.id}/`, {
        addon_category: category,
        max_count: 2,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(addon);
      expect((await itemLog(item.id)).map((e) => e.action)).toEqual([
        'pretix.event.item.added',
        'pretix.event.item.addons.added',
      ]);
    });
  });

  describe('delete', () => {
    it('deletes the add-on, logs it on the item, and answers 404 afterwards', async () => {
      const item = await createItem();
      const category = await createCategory();
      const addon = await createAddon(item.id, { addon_category: category, max_count: 4 });
      const res = await del(`${E}/items/${item.id}/addons/${addon.id}/`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await get(`${E}/items/${item.id}/addons/${addon.id}/`)).status).toBe(404);
      expect((await get(`${E}/items/${item.id}/`)).body.addons).toEqual([]);
      expect((await itemLog(item.id)).at(-1)).toEqual({
        action: 'pretix.event.item.addons.removed',
        data: { ...addon },
      });
      expect((await del(`${E}/items/${item.id}/addons/${addon.id}/`)).status).toBe(404);
      // The category can be used again.
      expect((await post(`${E}/items/${item.id}/addons/`, { addon_category: category })).status).toBe(201);
    });

    it('disappears with its category', async () => {
      const item = await createItem();
      const category = await createCategory();
      await createAddon(item.id, { addon_category: category });
      expect((await del(`${E}/categories/${category}/`)).status).toBe(204);
      expect((await get(`${E}/items/${item.id}/addons/`)).body.count).toBe(0);
    });
  });

  describe('scoping', () => {
    let foreignItem: Body;
    let foreignAddon: Body;
    let item: Body;
    let siblingAddon: Body;
    let sibling: Body;

    beforeAll(async () => {
      foreignItem = await createItem(OTHER);
      foreignAddon = await createAddon(
        foreignItem.id,
        { addon_category: await createCategory(OTHER) },
        OTHER,
      );
      item = await createItem();
      sibling = await createItem();
      siblingAddon = await createAddon(sibling.id, { addon_category: await createCategory() });
    });

    it('answers 403 for every endpoint under an item of another event', async () => {
      const base = `${E}/items/${foreignItem.id}`;
      const category = await createCategory();
      for (const res of [
        await get(`${base}/addons/`),
        await post(`${base}/addons/`, { addon_category: category }),
        await get(`${base}/addons/${foreignAddon.id}/`),
        await patch(`${base}/addons/${foreignAddon.id}/`, { position: 1 }),
        await patch(`${base}/addon/${foreignAddon.id}/`, { position: 1 }),
        await put(`${base}/addons/${foreignAddon.id}/`, { addon_category: category }),
        await put(`${base}/addon/${foreignAddon.id}/`, { addon_category: category }),
        await del(`${base}/addons/${foreignAddon.id}/`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(`${OTHER}/items/${foreignItem.id}/addons/${foreignAddon.id}/`)).body).toEqual(
        foreignAddon,
      );
    });

    it('answers 404 for an add-on id under a different item of the same event', async () => {
      const base = `${E}/items/${item.id}`;
      for (const res of [
        await get(`${base}/addons/${siblingAddon.id}/`),
        await patch(`${base}/addon/${siblingAddon.id}/`, { position: 1 }),
        await put(`${base}/addons/${siblingAddon.id}/`, { addon_category: siblingAddon.addon_category }),
        await del(`${base}/addons/${siblingAddon.id}/`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
      expect((await get(`${E}/items/${sibling.id}/addons/${siblingAddon.id}/`)).body).toEqual(siblingAddon);
    });

    it.each(['abc', '0', '987654'])('answers 403 for the item id %s and 404 for the add-on id %s', async (id) => {
      expect((await get(`${E}/items/${id}/addons/`)).status).toBe(403);
      expect((await get(`${E}/items/${item.id}/addons/${id}/`)).status).toBe(404);
      expect((await patch(`${E}/items/${item.id}/addon/${id}/`, { position: 1 })).status).toBe(404);
    });
  });

  describe('permissions', () => {
    let item: Body;
    let addon: Body;

    beforeAll(async () => {
      item = await createItem();
      addon = await createAddon(item.id, { addon_category: await createCategory() });
    });

    it('answers 401 without credentials', async () => {
      const base = `${E}/items/${item.id}`;
      for (const res of [
        await t.http().get(`${base}/addons/`),
        await t.http().post(`${base}/addons/`).send({ addon_category: 1 }),
        await t.http().patch(`${base}/addon/${addon.id}/`).send({ position: 1 }),
        await t.http().put(`${base}/addons/${addon.id}/`).send({ addon_category: 1 }),
        await t.http().delete(`${base}/addons/${addon.id}/`),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      }
    });

    it('lets a team with event access but without event.items:write read', async () => {
      const list = await get(`${E}/items/${item.id}/addons/`, reader);
      expect(list.status).toBe(200);
      expect(list.body.results).toEqual([addon]);
      const detail = await get(`${E}/items/${item.id}/addons/${addon.id}/`, reader);
      expect(detail.body).toEqual(addon);
    });

    it('answers 403 to every write without event.items:write, changing nothing', async () => {
      const base = `${E}/items/${item.id}`;
      const category = await createCategory();
      const before = await addonCount();
      for (const res of [
        await post(`${base}/addons/`, { addon_category: category }, reader),
        await patch(`${base}/addons/${addon.id}/`, { position: 5 }, reader),
        await patch(`${base}/addon/${addon.id}/`, { position: 5 }, reader),
        await put(`${base}/addons/${addon.id}/`, { addon_category: category }, reader),
        await put(`${base}/addon/${addon.id}/`, { addon_category: category }, reader),
        await del(`${base}/addons/${addon.id}/`, reader),
        await post(`${base}/addons/`, { addon_category: category }, outsider),
        await get(`${base}/addons/`, outsider),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect(await addonCount()).toBe(before);
      expect((await get(`${base}/addons/${addon.id}/`)).body).toEqual(addon);
    });
  });
});
