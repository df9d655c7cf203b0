import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { listStatements } from './sql-count';
import { startTestApp, TestApp } from './harness';

/**
 * `E/item_meta_properties/` (pretix "Item meta properties"), `meta_data` of items and variations checked against
 * them, and the event field `item_meta_properties`.
 */
describe('item meta properties', () => {
  let t: TestApp;
  let token: string;
  let itemsWriter: string;
  let reader: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/sample`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };

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

  async function createProperty(body: object, base = E): Promise<Body> {
    const res = await post(`${base}/item_meta_properties/`, { allowed_values: null, ...body });
    if (res.status !== 201) throw new Error(`createProperty: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function createItem(body: object = {}, base = E): Promise<Body> {
    const res = await post(`${base}/items/`, { name: 'Ticket', default_price: '10.00', ...body });
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function log(action: string): Promise<Record<string, unknown>[]> {
    const rows: { data: Record<string, unknown> }[] = await t.db.query(
      'SELECT data FROM log_entry WHERE action_type = $1 ORDER BY id',
      [action],
    );
    return rows.map((r) => r.data);
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    itemsWriter = await teamToken(t, 'org', {
      limitEvents: ['sample'],
      eventPermissions: ['event.items:write'],
    });
    reader = await teamToken(t, 'org', { limitEvents: ['sample'], eventPermissions: ['event.orders:read'] });
  });
  afterAll(() => t.close());

  describe('resource', () => {
    const E2 = `${O}/events/crud`;
    beforeAll(async () => {
      await createEvent(t, token, 'org', { slug: 'crud' });
    });

    it('creates a property (allowed values stored one a line) and shows it in list and detail', async () => {
      const res = await post(`${E2}/item_meta_properties/`, {
        name: 'Color',
        default: 'Red',
        required: false,
        allowed_values: ['Red', 'Green', 'Blue'],
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: 'Color',
        default: 'Red',
        required: false,
        allowed_values: ['Red', 'Green', 'Blue'],
      });
      const stored: { allowed_values: string }[] = await t.db.query(
        'SELECT allowed_values FROM item_meta_property WHERE id = $1',
        [res.body.id],
      );
      expect(stored[0].allowed_values).toBe('Red\nGreen\nBlue');
      expect((await get(`${E2}/item_meta_properties/${res.body.id}/`)).body).toEqual(res.body);
      const list = await get(`${E2}/item_meta_properties/`);
      expect(list.status).toBe(200);
      expect(list.body.results).toEqual([res.body]);
      expect(await log('pretix.event.item_meta_property.added')).toContainEqual({
        name: 'Color',
        default: 'Red',
        required: false,
        allowed_values: ['Red', 'Green', 'Blue'],
      });
    });

    it('lists by name with a fixed number of statements', async () => {
      const E3 = `${O}/events/listing`;
      await createEvent(t, token, 'org', { slug: 'listing' });
      await createProperty({ name: 'zeta' }, E3);
      await createProperty({ name: 'alpha' }, E3);
      const list = await get(`${E3}/item_meta_properties/`);
      expect((list.body.results as Body[]).map((p) => p.name)).toEqual(['alpha', 'zeta']);
      const count = (q: string) => listStatements(() => get(`${E3}/item_meta_properties/?${q}`));
      const one = await count('page_size=1');
      const two = await count('page_size=2');
      expect([one.rows, two.rows]).toEqual([1, 2]);
      expect(two.statements).toBe(one.statements);
    });

    it('uses the defaults of the optional fields and refuses bad input with pretix messages', async () => {
      const minimal = await post(`${E2}/item_meta_properties/`, { name: 'Size', allowed_values: null });
      expect(minimal.status).toBe(201);
      expect(minimal.body).toEqual({
        id: expect.any(Number),
        name: 'Size',
        default: '',
        required: false,
        allowed_values: null,
      });
      const cases: [object, object][] = [
        [{ name: 'Weight' }, { allowed_values: ['This field is required.'] }],
        [{ name: 'Weight', allowed_values: [] }, { allowed_values: ['Invalid data type.'] }],
        [{ name: 'Weight', allowed_values: 'Red' }, { allowed_values: ['Invalid data type.'] }],
        [
          { name: 'has space', allowed_values: null },
          { name: ['The property name may only contain letters, numbers and underscores.'] },
        ],
        [{ allowed_values: null }, { name: ['This field is required.'] }],
        [
          { name: 'x'.repeat(51), allowed_values: null },
          { name: ['Ensure this field has no more than 50 characters.'] },
        ],
        [
          { name: 'Size', allowed_values: null },
          { name: ['An item meta property with this name already exists.'] },
        ],
      ];
      for (const [body, errors] of cases) {
        const res = await post(`${E2}/item_meta_properties/`, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errors);
      }
    });

    it('PATCH (pretix test: required true, allowed_values null) and PUT (omitted fields reset)', async () => {
      const p = await createProperty(
        { name: 'Fabric', default: 'Cotton', allowed_values: ['Cotton', 'Wool'] },
        E2,
      );
      const url = `${E2}/item_meta_properties/${p.id}/`;
      const patched = await patch(url, { required: true, allowed_values: null });
      expect(patched.status).toBe(200);
      expect(patched.body).toEqual({ ...p, required: true, allowed_values: null });
      const replaced = await put(url, { name: 'Fabric', allowed_values: ['Silk'] });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toEqual({
        id: p.id,
        name: 'Fabric',
        default: '',
        required: false,
        allowed_values: ['Silk'],
      });
      expect((await get(url)).body).toEqual(replaced.body);
      expect((await log('pretix.event.item_meta_property.changed')).length).toBeGreaterThanOrEqual(2);
    });

    it('deletes a property and logs its id', async () => {
      const p = await createProperty({ name: 'Doomed' }, E2);
      const res = await del(`${E2}/item_meta_properties/${p.id}/`);
      expect(res.status).toBe(204);
      expect((await get(`${E2}/item_meta_properties/${p.id}/`)).status).toBe(404);
      expect(await log('pretix.event.item_meta_property.deleted')).toContainEqual({ id: p.id });
    });

    it('reads with event access, writes need event.settings.general:write', async () => {
      const p = await createProperty({ name: 'Visible' });
      expect((await get(`${E}/item_meta_properties/`, reader)).status).toBe(200);
      expect((await get(`${E}/item_meta_properties/${p.id}/`, reader)).status).toBe(200);
      for (const res of [
        await post(`${E}/item_meta_properties/`, { name: 'Nope', allowed_values: null }, itemsWriter),
        await patch(`${E}/item_meta_properties/${p.id}/`, { default: 'x' }, itemsWriter),
        await del(`${E}/item_meta_properties/${p.id}/`, reader),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(`${E}/item_meta_properties/${p.id}/`)).body.default).toBe('');
    });
  });

  describe('meta_data of items and variations', () => {
    const E4 = `${O}/events/meta`;
    beforeAll(async () => {
      await createEvent(t, token, 'org', { slug: 'meta' });
      await createProperty({ name: 'color', default: 'red', allowed_values: ['red', 'blue'] }, E4);
      await createProperty({ name: 'venue' }, E4);
    });

    it('stores the values sent (pretix shows only set values, no defaults)', async () => {
      const item = await createItem({ meta_data: { color: 'blue' } }, E4);
      expect(item.meta_data).toEqual({ color: 'blue' });
      const plain = await createItem({}, E4);
      expect(plain.meta_data).toEqual({});
      const patched = await patch(`${E4}/items/${plain.id}/`, { meta_data: { venue: 'Hall 1' } });
      expect(patched.status).toBe(200);
      expect(patched.body.meta_data).toEqual({ venue: 'Hall 1' });
      expect((await get(`${E4}/items/${plain.id}/`)).body.meta_data).toEqual({ venue: 'Hall 1' });
      const cleared = await patch(`${E4}/items/${plain.id}/`, { meta_data: {} });
      expect(cleared.body.meta_data).toEqual({});
    });

    it('refuses unknown keys and non-string values; values outside allowed_values pass as in pretix', async () => {
      const unknown = await post(`${E4}/items/`, { name: 'X', default_price: 1, meta_data: { size: 'L' } });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ meta_data: ["Item meta data property 'size' does not exist."] });
      const number = await post(`${E4}/items/`, { name: 'X', default_price: 1, meta_data: { color: 5 } });
      expect(number.status).toBe(400);
      expect(number.body).toEqual({ meta_data: ['meta_data needs to be an object (str -> str).'] });
      const outside = await createItem({ meta_data: { color: 'green' } }, E4);
      expect(outside.meta_data).toEqual({ color: 'green' });
    });

    it('checks variation meta_data, inline and on the nested endpoint', async () => {
      const bad = await post(`${E4}/items/`, {
        name: 'Shirt',
        default_price: 1,
        variations: [
          { value: 'S', meta_data: { color: 'red' } },
          { value: 'M', meta_data: { nope: 'x' } },
        ],
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        variations: [{}, { meta_data: ["Item meta data property 'nope' does not exist."] }],
      });
      const shirt = await createItem(
        { name: 'Shirt', variations: [{ value: 'S', meta_data: { color: 'red' } }] },
        E4,
      );
      expect((shirt.variations as Body[])[0].meta_data).toEqual({ color: 'red' });
      const url = `${E4}/items/${shirt.id}/variations/`;
      const created = await post(url, { value: 'L', meta_data: { venue: 'Hall' } });
      expect(created.status).toBe(201);
      expect(created.body.meta_data).toEqual({ venue: 'Hall' });
      const refused = await patch(`${url}${created.body.id}/`, { meta_data: { nope: 'x' } });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ meta_data: ["Item meta data property 'nope' does not exist."] });
    });

    it('renames and deletes carry into stored values of items and variations', async () => {
      const E5 = `${O}/events/rename`;
      await createEvent(t, token, 'org', { slug: 'rename' });
      const prop = await createProperty({ name: 'room' }, E5);
      const gone = await createProperty({ name: 'floor' }, E5);
      const item = await createItem(
        {
          meta_data: { room: 'A', floor: '1' },
          variations: [{ value: 'S', meta_data: { room: 'B', floor: '2' } }],
        },
        E5,
      );
      const renamed = await patch(`${E5}/item_meta_properties/${prop.id}/`, { name: 'hall' });
      expect(renamed.status).toBe(200);
      expect((await del(`${E5}/item_meta_properties/${gone.id}/`)).status).toBe(204);
      const after = await get(`${E5}/items/${item.id}/`);
      expect(after.body.meta_data).toEqual({ hall: 'A' });
      expect((after.body.variations as Body[])[0].meta_data).toEqual({ hall: 'B' });
    });
  });

  describe('event field item_meta_properties', () => {
    it('shows name to default on the event (detail and list)', async () => {
      const E6 = `${O}/events/shown`;
      await createEvent(t, token, 'org', { slug: 'shown' });
      await createProperty({ name: 'b_prop', default: 'two' }, E6);
      await createProperty({ name: 'a_prop', default: 'one' }, E6);
      const detail = await get(E6 + '/');
      expect(detail.body.item_meta_properties).toEqual({ a_prop: 'one', b_prop: 'two' });
      const list = await get(`${O}/events/?page_size=100`);
      const shown = (list.body.results as { slug: string; item_meta_properties: object }[]).find(
        (e) => e.slug === 'shown',
      );
      expect(shown?.item_meta_properties).toEqual({ a_prop: 'one', b_prop: 'two' });
      expect(
        (list.body.results as { slug: string; item_meta_properties: object }[]).find(
          (e) => e.slug === 'sample',
        )?.item_meta_properties,
      ).toEqual({ Visible: '' });
    });

    it('creates properties with the event and replaces them on update (pretix EventSerializer)', async () => {
      const created = await post(`${O}/events/`, {
        name: { en: 'With props' },
        slug: 'withprops',
        currency: 'EUR',
        date_from: '2030-12-27T10:00:00Z',
        item_meta_properties: { color: 'red', size: 'M' },
      });
      expect(created.status).toBe(201);
      expect(created.body.item_meta_properties).toEqual({ color: 'red', size: 'M' });
      const EP = `${O}/events/withprops`;
      const props = await get(`${EP}/item_meta_properties/`);
      expect(
        (props.body.results as Body[]).map((p) => [p.name, p.default, p.required, p.allowed_values]),
      ).toEqual([
        ['color', 'red', false, null],
        ['size', 'M', false, null],
      ]);
      const item = await createItem({ meta_data: { color: 'blue', size: 'L' } }, EP);
      const untouched = await patch(`${EP}/`, { is_public: false });
      expect(untouched.body.item_meta_properties).toEqual({ color: 'red', size: 'M' });
      const replaced = await patch(`${EP}/`, { item_meta_properties: { color: 'green', fabric: 'wool' } });
      expect(replaced.status).toBe(200);
      expect(replaced.body.item_meta_properties).toEqual({ color: 'green', fabric: 'wool' });
      expect((await get(`${EP}/`)).body.item_meta_properties).toEqual({ color: 'green', fabric: 'wool' });
      expect((await get(`${EP}/items/${item.id}/`)).body.meta_data).toEqual({ color: 'blue' });
      const after = await get(`${EP}/item_meta_properties/`);
      const color = (after.body.results as Body[]).find((p) => p.name === 'color')!;
      expect(color.id).toBe((props.body.results as Body[])[0].id);
    });

    it('refuses anything but an object of strings', async () => {
      const nullValue = await patch(`${E}/`, { item_meta_properties: null });
      expect(nullValue.status).toBe(400);
      expect(nullValue.body).toEqual({ item_meta_properties: ['This field may not be null.'] });
      for (const value of [['a'], { a: 1 }, 'x']) {
        const res = await patch(`${E}/`, { item_meta_properties: value });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          item_meta_properties: ['item_meta_properties needs to be an object (str -> str).'],
        });
      }
      expect((await get(`${E}/`)).body.item_meta_properties).toEqual({ Visible: '' });
    });
  });
});
