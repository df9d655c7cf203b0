import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { listStatements } from './sql-count';
import { startTestApp, TestApp } from './harness';

/** `E/items/{item}/bundles/` (spec "Item bundles"; compat §3.13; permissions per docs/permissions.md). */
describe('item bundles', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let outsider: string;
  const E = '/api/v1/organizers/org/events/sample';
  const OTHER = '/api/v1/organizers/org/events/other';
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const NOT_FOUND = { detail: 'Not found.' };
  const nonField = (message: string) => ({ non_field_errors: [message] });
  const FOREIGN_ITEM = nonField('The bundled item must belong to the same event as the item.');
  const SELF = nonField('The bundled item must not be the same item as the bundling one.');
  const NESTED = nonField('The bundled item must not have bundles on its own.');
  const FOREIGN_VARIATION = nonField('The chosen variation does not belong to this item.');
  const VARIATION_REQUIRED = nonField('A variation needs to be set for this item.');

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

  async function createItem(body: object = {}, base = E): Promise<Body> {
    const res = await post(`${base}/items/`, { name: 'Ticket', default_price: '23.00', ...body });
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** An item with two variations; returns the item and the variation ids. */
  async function itemWithVariations(base = E): Promise<{ item: Body; variations: number[] }> {
    const item = await createItem({ name: 'Shirt', variations: [{ value: 'S' }, { value: 'M' }] }, base);
    return { item, variations: (item.variations as Body[]).map((v) => v.id) };
  }

  async function createBundle(itemId: number, body: object, base = E): Promise<Body> {
    const res = await post(`${base}/items/${itemId}/bundles/`, body);
    if (res.status !== 201) throw new Error(`createBundle: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function itemLog(itemId: number): Promise<{ action: string; data: Record<string, unknown> }[]> {
    const rows: { action_type: string; data: Record<string, unknown> }[] = await t.db.query(
      "SELECT action_type, data FROM log_entry WHERE content_type = 'item' AND object_id = $1 ORDER BY id",
      [itemId],
    );
    return rows.map((r) => ({ action: r.action_type, data: r.data }));
  }

  async function bundleCount(): Promise<number> {
    const rows: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM item_bundle');
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
    it('creates a bundle with the default representation, logged on the item, and lists it on the item', async () => {
      const item = await createItem();
      const included = await createItem({ name: 'Included' });
      const res = await post(`${E}/items/${item.id}/bundles/`, { bundled_item: included.id });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        bundled_item: included.id,
        bundled_variation: null,
        count: 1,
        designated_price: '0.00',
      });
      const again = await get(`${E}/items/${item.id}/bundles/${res.body.id}/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
      expect((await get(`${E}/items/${item.id}/`)).body.bundles).toEqual([res.body]);
      expect(await itemLog(item.id)).toEqual([
        { action: 'pretix.event.item.added', data: expect.any(Object) },
        { action: 'pretix.event.item.bundles.added', data: { bundled_item: included.id, id: res.body.id } },
      ]);
    });

    it('stores every field, with a variation of a bundled item that has variations', async () => {
      const item = await createItem();
      const { item: shirt, variations } = await itemWithVariations();
      const res = await post(`${E}/items/${item.id}/bundles/`, {
        bundled_item: shirt.id,
        bundled_variation: variations[1],
        count: 2,
        designated_price: 1.5,
        id: 99999,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: res.body.id,
        bundled_item: shirt.id,
        bundled_variation: variations[1],
        count: 2,
        designated_price: '1.50',
      });
      expect(res.body.id).not.toBe(99999);
      expect((await get(`${E}/items/${item.id}/bundles/${res.body.id}/`)).body).toEqual(res.body);
    });

    it.each([
      [{}, { bundled_item: ['This field is required.'] }],
      [{ bundled_item: null }, { bundled_item: ['This field may not be null.'] }],
      [{ bundled_item: 'x' }, { bundled_item: ['A valid integer is required.'] }],
      [{ bundled_item: 987654 }, FOREIGN_ITEM],
      [{ bundled_item: 'OWN', count: 0 }, { count: ['Ensure this value is greater than or equal to 1.'] }],
      [{ bundled_item: 'OWN', count: null }, { count: ['This field may not be null.'] }],
      [
        { bundled_item: 'OWN', designated_price: '1.234' },
        { designated_price: ['Ensure that there are no more than 2 decimal places.'] },
      ],
      [
        { bundled_item: 'OWN', designated_price: '-1' },
        { designated_price: ['Ensure this value is greater than or equal to 0.'] },
      ],
      [
        { bundled_item: 'OWN', bundled_variation: 'v' },
        { bundled_variation: ['A valid integer is required.'] },
      ],
      [{ bundled_item: 'OWN', bundled_variation: 987654 }, FOREIGN_VARIATION],
    ] as [Record<string, unknown>, object][])(
      'answers 400 for %j and creates nothing',
      async (raw, errors) => {
        const item = await createItem();
        const body = { ...raw };
        if (body.bundled_item === 'OWN') body.bundled_item = (await createItem({ name: 'Included' })).id;
        const before = await bundleCount();
        const res = await post(`${E}/items/${item.id}/bundles/`, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errors);
        expect(await bundleCount()).toBe(before);
      },
    );

    it('refuses an item of another event, the item itself, and an item with bundles of its own', async () => {
      const item = await createItem();
      const foreign = await createItem({}, OTHER);
      const bundling = await createItem({ name: 'Bundling' });
      await createBundle(bundling.id, { bundled_item: (await createItem()).id });
      const before = await bundleCount();
      for (const [body, errors] of [
        [{ bundled_item: foreign.id }, FOREIGN_ITEM],
        [{ bundled_item: item.id }, SELF],
        [{ bundled_item: bundling.id }, NESTED],
      ] as const) {
        const res = await post(`${E}/items/${item.id}/bundles/`, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errors);
      }
      expect(await bundleCount()).toBe(before);
    });

    it('requires a variation exactly when the bundled item has variations, and one of its own', async () => {
      const item = await createItem();
      const { item: shirt, variations } = await itemWithVariations();
      const { variations: otherVariations } = await itemWithVariations();
      const { variations: foreignVariations } = await itemWithVariations(OTHER);
      const plain = await createItem({ name: 'Plain' });
      for (const [body, errors] of [
        [{ bundled_item: shirt.id }, VARIATION_REQUIRED],
        [{ bundled_item: shirt.id, bundled_variation: null }, VARIATION_REQUIRED],
        [{ bundled_item: shirt.id, bundled_variation: otherVariations[0] }, FOREIGN_VARIATION],
        [{ bundled_item: shirt.id, bundled_variation: foreignVariations[0] }, FOREIGN_VARIATION],
        [{ bundled_item: plain.id, bundled_variation: variations[0] }, FOREIGN_VARIATION],
      ] as const) {
        const res = await post(`${E}/items/${item.id}/bundles/`, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errors);
      }
      expect((await get(`${E}/items/${item.id}/bundles/`)).body.count).toBe(0);
    });

    it('never builds bundles of bundles under concurrency (rows locked in id order)', async () => {
      for (let round = 0; round < 5; round++) {
        const x = await createItem({ name: 'X' });
        const y = await createItem({ name: 'Y' });
        const [first, second] = await Promise.all([
          post(`${E}/items/${x.id}/bundles/`, { bundled_item: y.id }),
          post(`${E}/items/${y.id}/bundles/`, { bundled_item: x.id }),
        ]);
        expect([first.status, second.status].sort()).toEqual([201, 400]);
        expect([first, second].find((r) => r.status === 400)!.body).toEqual(NESTED);
      }
    });
  });

  describe('list', () => {
    let item: Body;
    let ids: number[];

    beforeAll(async () => {
      item = await createItem();
      ids = [];
      for (let i = 0; i < 3; i++) {
        ids.push((await createBundle(item.id, { bundled_item: (await createItem()).id, count: i + 1 })).id);
      }
      await createBundle((await createItem()).id, { bundled_item: (await createItem()).id });
    });

    it.each([
      ['', [0, 1, 2]],
      ['ordering=-id', [2, 1, 0]],
      ['ordering=position', [0, 1, 2]],
      ['page_size=2&page=2', [2]],
    ])('%s', async (query, expected) => {
      const res = await get(`${E}/items/${item.id}/bundles/?${query}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(3);
      expect(res.body.results.map((r: Body) => r.id)).toEqual(expected.map((i) => ids[i]));
    });

    it('runs the same number of SQL statements whatever the page size', async () => {
      const count = (query: string) => listStatements(() => get(`${E}/items/${item.id}/bundles/?${query}`));
      const one = await count('page_size=1');
      const two = await count('page_size=2');
      expect([one.rows, two.rows]).toEqual([1, 2]);
      expect(two.statements).toBe(one.statements);
    });
  });

  describe('update', () => {
    it('PATCH changes only the sent fields and logs on the item', async () => {
      const item = await createItem();
      const bundle = await createBundle(item.id, {
        bundled_item: (await createItem()).id,
        designated_price: 2,
      });
      const url = `${E}/items/${item.id}/bundles/${bundle.id}/`;
      const res = await patch(url, { count: 3 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...bundle, count: 3 });
      expect((await get(url)).body).toEqual(res.body);
      expect((await itemLog(item.id)).at(-1)).toEqual({
        action: 'pretix.event.item.bundles.changed',
        data: { count: 3, id: bundle.id },
      });
    });

    it('checks the rules on the merged data (stored bundled item, patched variation and vice versa)', async () => {
      const item = await createItem();
      const { item: shirt, variations } = await itemWithVariations();
      const plain = await createItem({ name: 'Plain' });
      const bundle = await createBundle(item.id, {
        bundled_item: shirt.id,
        bundled_variation: variations[0],
      });
      const url = `${E}/items/${item.id}/bundles/${bundle.id}/`;
      const cleared = await patch(url, { bundled_variation: null });
      expect(cleared.status).toBe(400);
      expect(cleared.body).toEqual(VARIATION_REQUIRED);
      const switched = await patch(url, { bundled_item: plain.id });
      expect(switched.status).toBe(400);
      expect(switched.body).toEqual(FOREIGN_VARIATION);
      const self = await patch(url, { bundled_item: item.id, bundled_variation: null });
      expect(self.body).toEqual(SELF);
      expect((await get(url)).body).toEqual(bundle);
      const ok = await patch(url, { bundled_item: plain.id, bundled_variation: null });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ ...bundle, bundled_item: plain.id, bundled_variation: null });
      const other = await patch(url, { bundled_item: shirt.id, bundled_variation: variations[1] });
      expect(other.body).toEqual({ ...bundle, bundled_variation: variations[1] });
    });

    it('PUT resets omitted fields and requires bundled_item', async () => {
      const item = await createItem();
      const included = await createItem();
      const bundle = await createBundle(item.id, {
        bundled_item: included.id,
        count: 4,
        designated_price: '3.00',
      });
      const url = `${E}/items/${item.id}/bundles/${bundle.id}/`;
      const missing = await put(url, { count: 1 });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ bundled_item: ['This field is required.'] });
      const res = await put(url, { bundled_item: included.id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...bundle, count: 1, designated_price: '0.00' });
      expect((await get(url)).body).toEqual(res.body);
    });

    it('PATCH that changes nothing logs nothing', async () => {
      const item = await createItem();
      const included = await createItem();
      const bundle = await createBundle(item.id, { bundled_item: included.id, designated_price: 2 });
      const res = await patch(`${E}/items/${item.id}/bundles/${bundle.id}/`, {
        bundled_item: included.id,
        designated_price: '2',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(bundle);
      expect((await itemLog(item.id)).map((e) => e.action)).toEqual([
        'pretix.event.item.added',
        'pretix.event.item.bundles.added',
      ]);
    });
  });

  describe('delete', () => {
    it('deletes the bundle, logs it on the item, and answers 404 afterwards', async () => {
      const item = await createItem();
      const bundle = await createBundle(item.id, { bundled_item: (await createItem()).id, count: 2 });
      const url = `${E}/items/${item.id}/bundles/${bundle.id}/`;
      const res = await del(url);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await get(url)).status).toBe(404);
      expect((await get(`${E}/items/${item.id}/`)).body.bundles).toEqual([]);
      expect((await itemLog(item.id)).at(-1)).toEqual({
        action: 'pretix.event.item.bundles.removed',
        data: { ...bundle },
      });
      expect((await del(url)).status).toBe(404);
    });

    it('disappears when its bundled item or variation is deleted', async () => {
      const item = await createItem();
      const included = await createItem();
      const { item: shirt, variations } = await itemWithVariations();
      await createBundle(item.id, { bundled_item: included.id });
      await createBundle(item.id, { bundled_item: shirt.id, bundled_variation: variations[0] });
      expect((await del(`${E}/items/${included.id}/`)).status).toBe(204);
      expect((await del(`${E}/items/${shirt.id}/variations/${variations[0]}/`)).status).toBe(204);
      expect((await get(`${E}/items/${item.id}/bundles/`)).body.count).toBe(0);
    });
  });

  describe('scoping', () => {
    let foreignItem: Body;
    let foreignBundle: Body;
    let item: Body;
    let sibling: Body;
    let siblingBundle: Body;

    beforeAll(async () => {
      foreignItem = await createItem({}, OTHER);
      foreignBundle = await createBundle(
        foreignItem.id,
        { bundled_item: (await createItem({}, OTHER)).id },
        OTHER,
      );
      item = await createItem();
      sibling = await createItem();
      siblingBundle = await createBundle(sibling.id, { bundled_item: (await createItem()).id });
    });

    it('answers 403 for every endpoint under an item of another event', async () => {
      const base = `${E}/items/${foreignItem.id}/bundles`;
      const included = (await createItem()).id;
      for (const res of [
        await get(`${base}/`),
        await post(`${base}/`, { bundled_item: included }),
        await get(`${base}/${foreignBundle.id}/`),
        await patch(`${base}/${foreignBundle.id}/`, { count: 2 }),
        await put(`${base}/${foreignBundle.id}/`, { bundled_item: included }),
        await del(`${base}/${foreignBundle.id}/`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(`${OTHER}/items/${foreignItem.id}/bundles/${foreignBundle.id}/`)).body).toEqual(
        foreignBundle,
      );
    });

    it('answers 404 for a bundle id under a different item of the same event', async () => {
      const url = `${E}/items/${item.id}/bundles/${siblingBundle.id}/`;
      for (const res of [
        await get(url),
        await patch(url, { count: 2 }),
        await put(url, { bundled_item: siblingBundle.bundled_item }),
        await del(url),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
      expect((await get(`${E}/items/${sibling.id}/bundles/${siblingBundle.id}/`)).body).toEqual(
        siblingBundle,
      );
    });

    it.each(['abc', '0', '987654'])('answers 403 for the item id %s and 404 for the bundle id %s', async (id) => {
      expect((await get(`${E}/items/${id}/bundles/`)).status).toBe(403);
      expect((await get(`${E}/items/${item.id}/bundles/${id}/`)).status).toBe(404);
      expect((await patch(`${E}/items/${item.id}/bundles/${id}/`, { count: 1 })).status).toBe(404);
    });
  });

  describe('permissions', () => {
    let item: Body;
    let bundle: Body;

    beforeAll(async () => {
      item = await createItem();
      bundle = await createBundle(item.id, { bundled_item: (await createItem()).id });
    });

    it('answers 401 without credentials', async () => {
      const base = `${E}/items/${item.id}/bundles`;
      for (const res of [
        await t.http().get(`${base}/`),
        await t.http().post(`${base}/`).send({ bundled_item: 1 }),
        await t.http().patch(`${base}/${bundle.id}/`).send({ count: 2 }),
        await t.http().delete(`${base}/${bundle.id}/`),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      }
    });

    it('lets a team with event access but without event.items:write read', async () => {
      const list = await get(`${E}/items/${item.id}/bundles/`, reader);
      expect(list.status).toBe(200);
      expect(list.body.results).toEqual([bundle]);
      expect((await get(`${E}/items/${item.id}/bundles/${bundle.id}/`, reader)).body).toEqual(bundle);
    });

    it('answers 403 to every write without event.items:write, changing nothing', async () => {
      const base = `${E}/items/${item.id}/bundles`;
      const included = (await createItem()).id;
      const before = await bundleCount();
      for (const res of [
        await post(`${base}/`, { bundled_item: included }, reader),
        await patch(`${base}/${bundle.id}/`, { count: 5 }, reader),
        await put(`${base}/${bundle.id}/`, { bundled_item: included }, reader),
        await del(`${base}/${bundle.id}/`, reader),
        await post(`${base}/`, { bundled_item: included }, outsider),
        await get(`${base}/`, outsider),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect(await bundleCount()).toBe(before);
      expect((await get(`${base}/${bundle.id}/`)).body).toEqual(bundle);
    });
  });
});
