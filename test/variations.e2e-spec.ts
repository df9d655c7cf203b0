import type { ItemUsage } from '../src/catalogue/items/item-usage.port';
import { VariationsService } from '../src/catalogue/variations/variations.service';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { listStatements } from './sql-count';
import { startTestApp, TestApp } from './harness';

/** `E/items/{item}/variations/` (spec "Item variations"; compat §3.11; permissions per docs/permissions.md). */
describe('item variations', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let outsider: string;
  let organizerId: number;
  const E = '/api/v1/organizers/org/events/sample';
  const OTHER = '/api/v1/organizers/org/events/other';
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const NOT_FOUND = { detail: 'Not found.' };
  const NO_VARIATIONS = {
    detail:
      'This variation cannot be created because the item does not have variations. Changing a product without variations to a product with variations is not allowed.',
  };
  const ONLY_VARIATION = {
    detail:
      'This variation cannot be deleted because it is the only variation. Changing a product with variations to a product without variations is not allowed.',
  };
  const IN_USE = {
    detail:
      "This variation cannot be deleted because it has already been ordered by a user or currently is in a users's cart. Please set the variation as 'inactive' instead.",
  };

  /** The representation of `{"value": {"en": "S"}}` on an item priced 23.00 (compat §3.11 defaults). */
  const DEFAULT_VARIATION = {
    value: { en: 'S' },
    default_price: null,
    price: '23.00',
    original_price: null,
    free_price_suggestion: null,
    active: true,
    description: null,
    position: 0,
    checkin_attention: false,
    checkin_text: null,
    require_approval: false,
    require_membership: false,
    require_membership_hidden: false,
    require_membership_types: [],
    sales_channels: ['api', 'web'],
    all_sales_channels: true,
    limit_sales_channels: [],
    available_from: null,
    available_from_mode: 'hide',
    available_until: null,
    available_until_mode: 'hide',
    hide_without_voucher: false,
    meta_data: {},
  };

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

  async function createItem(body: object, base = E): Promise<Body> {
    const res = await post(`${base}/items/`, {
      name: { en: 'Shirt' },
      default_price: '23.00',
      has_variations: true,
      ...body,
    });
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function createVariation(itemId: number, body: object, base = E): Promise<Body> {
    const res = await post(`${base}/items/${itemId}/variations/`, { value: { en: 'S' }, ...body });
    if (res.status !== 201) throw new Error(`createVariation: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function membershipType(orgId = organizerId): Promise<number> {
    const rows: { id: number }[] = await t.db.query(
      `INSERT INTO membership_type (organizer_id, name) VALUES ($1, '{"en": "Member"}') RETURNING id`,
      [orgId],
    );
    return rows[0].id;
  }

  /** Action names logged on the item (variation changes are logged on their item, compat §5). */
  async function itemLog(itemId: number): Promise<{ action: string; data: Record<string, unknown> }[]> {
    const rows: { action_type: string; data: Record<string, unknown> }[] = await t.db.query(
      "SELECT action_type, data FROM log_entry WHERE content_type = 'item' AND object_id = $1 ORDER BY id",
      [itemId],
    );
    return rows.map((r) => ({ action: r.action_type, data: r.data }));
  }

  async function variationCount(): Promise<number> {
    const rows: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM item_variation');
    return Number(rows[0].n);
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token, organizerId } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    reader = await teamToken(t, 'org', { limitEvents: ['sample'], eventPermissions: ['event.orders:read'] });
    outsider = await teamToken(t, 'org', { limitEvents: ['other'], eventPermissions: ['event.items:write'] });
  });
  afterAll(() => t.close());

  describe('create and detail', () => {
    it('creates a minimal variation with the full default representation, logged on the item', async () => {
      const item = await createItem({});
      const res = await post(`${E}/items/${item.id}/variations/`, { value: { en: 'S' } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.any(Number), ...DEFAULT_VARIATION });
      const again = await get(`${E}/items/${item.id}/variations/${res.body.id}/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
      expect(await itemLog(item.id)).toEqual([
        { action: 'pretix.event.item.added', data: expect.any(Object) },
        {
          action: 'pretix.event.item.variation.added',
          data: { value: { en: 'S' }, id: res.body.id },
        },
      ]);
      const shown = await get(`${E}/items/${item.id}/`);
      expect(shown.body.variations).toEqual([res.body]);
    });

    it('stores every writable field and shows it on detail and inline on the item', async () => {
      const item = await createItem({});
      const type = await membershipType();
      const input = {
        value: { en: 'Large', de: 'Groß' },
        default_price: 30,
        free_price_suggestion: '35.5',
        original_price: '40.00',
        active: false,
        description: { en: 'Big' },
        position: 3,
        checkin_attention: true,
        checkin_text: 'Check size',
        require_approval: true,
        require_membership: true,
        require_membership_hidden: true,
        require_membership_types: [type, type],
        all_sales_channels: false,
        limit_sales_channels: ['web', 'web'],
        available_from: '2030-01-01T10:00:00+01:00',
        available_from_mode: 'info',
        available_until: '2030-02-01T10:00:00Z',
        available_until_mode: 'info',
        hide_without_voucher: true,
        meta_data: {},
      };
      const res = await post(`${E}/items/${item.id}/variations/`, input);
      expect(res.status).toBe(201);
      const expected = {
        ...input,
        id: res.body.id,
        default_price: '30.00',
        price: '30.00',
        free_price_suggestion: '35.50',
        require_membership_types: [type],
        sales_channels: ['web'],
        limit_sales_channels: ['web'],
        available_from: '2030-01-01T09:00:00Z',
      };
      expect(res.body).toEqual(expected);
      expect((await get(`${E}/items/${item.id}/variations/${res.body.id}/`)).body).toEqual(expected);
      expect((await get(`${E}/items/${item.id}/`)).body.variations).toEqual([expected]);
    });

    it('ignores the read-only id and price, and accepts a plain-string value', async () => {
      const item = await createItem({});
      const res = await post(`${E}/items/${item.id}/variations/`, { value: 'M', price: '99.00', id: 777777 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ ...DEFAULT_VARIATION, id: res.body.id, value: { en: 'M' } });
      expect(res.body.id).not.toBe(777777);
    });

    it('derives price from the item while default_price is null, and follows item price changes', async () => {
      const item = await createItem({ default_price: '10.00' });
      const own = await createVariation(item.id, { default_price: '12.50' });
      const inherited = await createVariation(item.id, { value: 'L' });
      expect([own.price, inherited.price]).toEqual(['12.50', '10.00']);
      expect((await patch(`${E}/items/${item.id}/`, { default_price: '11' })).status).toBe(200);
      expect((await get(`${E}/items/${item.id}/variations/${own.id}/`)).body.price).toBe('12.50');
      expect((await get(`${E}/items/${item.id}/variations/${inherited.id}/`)).body.price).toBe('11.00');
      const cleared = await patch(`${E}/items/${item.id}/variations/${own.id}/`, { default_price: null });
      expect([cleared.body.default_price, cleared.body.price]).toEqual([null, '11.00']);
    });

    it.each([
      [{}, { value: ['This field is required.'] }],
      [{ value: null }, { value: ['This field may not be null.'] }],
      [{ value: 5 }, { value: ['Invalid i18n string: expected an object or a string.'] }],
      [
        { value: 'S', default_price: '1.001' },
        { default_price: ['Ensure that there are no more than 2 decimal places.'] },
      ],
      [{ value: 'S', original_price: 'x' }, { original_price: ['A valid number is required.'] }],
      [{ value: 'S', active: null }, { active: ['This field may not be null.'] }],
      [{ value: 'S', position: -1 }, { position: ['Ensure this value is greater than or equal to 0.'] }],
      [{ value: 'S', position: 'first' }, { position: ['A valid integer is required.'] }],
      [
        { value: 'S', available_until_mode: 'show' },
        { available_until_mode: ['"show" is not a valid choice.'] },
      ],
      [
        { value: 'S', available_from: 'soon' },
        {
          available_from: [
            'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
          ],
        },
      ],
      [
        { value: 'S', require_membership_types: ['a'] },
        { require_membership_types: ['Incorrect type. Expected pk value, received str.'] },
      ],
      [
        { value: 'S', require_membership_types: [987654] },
        { require_membership_types: ['Invalid pk "987654" - object does not exist.'] },
      ],
      [
        { value: 'S', limit_sales_channels: ['bar'] },
        { limit_sales_channels: ['Object with identifier=bar does not exist.'] },
      ],
      [
        { value: 'S', sales_channels: null },
        {
          sales_channels: ["The legacy attribute 'sales_channels' cannot be set to None, it must be a list."],
        },
      ],
      [
        { value: 'S', all_sales_channels: true, sales_channels: ['web'] },
        {
          all_sales_channels: [
            "If 'all_sales_channels' is set, the legacy attribute 'sales_channels' must not be set or set to the list of all sales channels.",
          ],
        },
      ],
      [
        { value: 'S', limit_sales_channels: ['api'], sales_channels: ['web'] },
        {
          limit_sales_channels: [
            "If 'limit_sales_channels' is set, the legacy attribute 'sales_channels' must not be set or set to the same list.",
          ],
        },
      ],
      [
        { value: 'S', meta_data: { color: 'red' } },
        { meta_data: ["Item meta data property 'color' does not exist."] },
      ],
      [
        { value: 'S', meta_data: 'red' },
        { meta_data: ['Expected a dictionary of items but got type "str".'] },
      ],
    ])('answers 400 for %j and creates nothing', async (body, errors) => {
      const item = await createItem({});
      const before = await variationCount();
      const res = await post(`${E}/items/${item.id}/variations/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await variationCount()).toBe(before);
    });

    it('refuses membership types of another organizer', async () => {
      const { organizerId: foreignOrg } = await bootstrapOrganizer(t, 'foreign-org');
      const foreign = await membershipType(foreignOrg);
      const item = await createItem({});
      const res = await post(`${E}/items/${item.id}/variations/`, {
        value: 'S',
        require_membership_types: [foreign],
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        require_membership_types: [`Invalid pk "${foreign}" - object does not exist.`],
      });
    });

    it.each([
      [{ sales_channels: ['web'] }, false, ['web'], ['web']],
      [{ sales_channels: ['api', 'web'] }, true, [], ['api', 'web']],
      [{ all_sales_channels: true, limit_sales_channels: ['web'] }, true, [], ['api', 'web']],
      [{ all_sales_channels: false }, false, [], []],
    ])('sales channels %j → all=%s, limit=%j, legacy=%j', async (body, all, limit, legacy) => {
      const item = await createItem({});
      const variation = await createVariation(item.id, body);
      expect([
        variation.all_sales_channels,
        variation.limit_sales_channels,
        variation.sales_channels,
      ]).toEqual([all, limit, legacy]);
    });

    it('answers 403 on an item without variations, after validating the body, and creates nothing', async () => {
      const plain = await createItem({ has_variations: false });
      const before = await variationCount();
      const res = await post(`${E}/items/${plain.id}/variations/`, { value: 'S', price: 23 });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(NO_VARIATIONS);
      const invalid = await post(`${E}/items/${plain.id}/variations/`, {});
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({ value: ['This field is required.'] });
      expect(await variationCount()).toBe(before);
      expect((await get(`${E}/items/${plain.id}/`)).body.has_variations).toBe(false);
    });
  });

  describe('list', () => {
    let item: Body;
    let ids: Record<string, number>;
    let base: string;

    beforeAll(async () => {
      item = await createItem({ name: 'Listed' });
      base = `${E}/items/${item.id}/variations`;
      ids = {};
      for (const [key, body] of [
        ['red', { value: { en: 'Red', de: 'Rot' }, position: 2 }],
        ['blue', { value: 'Blue', position: 1, active: false }],
        ['green', { value: { en: 'Green', de: 'Grün' }, position: 1 }],
        ['navy', { value: 'Navy blue 100%', position: 0 }],
      ] as const) {
        ids[key] = (await createVariation(item.id, body)).id;
      }
      // A variation of another item that must never show up.
      await createVariation((await createItem({})).id, { value: 'Red' });
    });

    const keysOf = (res: { body: { results: { id: number }[] } }) =>
      res.body.results.map((r) => Object.keys(ids).find((k) => ids[k] === r.id));

    it('lists the item’s variations in position, id order by default', async () => {
      const res = await get(`${base}/`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: 4,
        next: null,
        previous: null,
        results: expect.any(Array),
      });
      expect(keysOf(res)).toEqual(['navy', 'blue', 'green', 'red']);
      expect(res.body.results[3]).toEqual({
        ...DEFAULT_VARIATION,
        id: ids.red,
        value: { en: 'Red', de: 'Rot' },
        position: 2,
      });
    });

    it.each([
      ['ordering=id', ['red', 'blue', 'green', 'navy']],
      ['ordering=-id', ['navy', 'green', 'blue', 'red']],
      ['ordering=-position', ['red', 'blue', 'green', 'navy']],
      ['ordering=unknown', ['navy', 'blue', 'green', 'red']],
      ['active=true', ['navy', 'green', 'red']],
      ['active=false', ['blue']],
      ['search=rot', ['red']],
      ['search=BLUE', ['navy', 'blue']],
      ['search=0%25', ['navy']],
      ['search=_', []],
    ])('%s', async (query, expected) => {
      const res = await get(`${base}/?${query}`);
      expect(res.status).toBe(200);
      expect(keysOf(res)).toEqual(expected);
      expect(res.body.count).toBe(expected.length);
    });

    it('answers 400 for a non-boolean active filter', async () => {
      const res = await get(`${base}/?active=maybe`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ active: ['Must be a valid boolean.'] });
    });

    it('paginates', async () => {
      const res = await get(`${base}/?page_size=3&page=2`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(4);
      expect(keysOf(res)).toEqual(['red']);
      expect((await get(`${base}/?page=3&page_size=3`)).status).toBe(404);
    });

    it('runs the same number of SQL statements whatever the page size', async () => {
      const count = (query: string) => listStatements(() => get(`${base}/?${query}`));
      const one = await count('page_size=1');
      const three = await count('page_size=3');
      expect([one.rows, three.rows]).toEqual([1, 3]);
      expect(three.statements).toBe(one.statements);
    });
  });

  describe('update', () => {
    it('PATCH changes only the sent fields, logs on the item, and a second GET shows the change', async () => {
      const item = await createItem({});
      const variation = await createVariation(item.id, { position: 2, description: 'd' });
      const url = `${E}/items/${item.id}/variations/${variation.id}/`;
      const res = await patch(url, { value: { en: 'XL' }, default_price: '20.00', original_price: '50.00' });
      expect(res.status).toBe(200);
      const expected = {
        ...variation,
        value: { en: 'XL' },
        default_price: '20.00',
        price: '20.00',
        original_price: '50.00',
      };
      expect(res.body).toEqual(expected);
      expect((await get(url)).body).toEqual(expected);
      expect((await itemLog(item.id)).map((e) => e.action)).toEqual([
        'pretix.event.item.added',
        'pretix.event.item.variation.added',
        'pretix.event.item.variation.changed',
      ]);
    });

    it('PATCH that changes nothing logs nothing', async () => {
      const item = await createItem({});
      const variation = await createVariation(item.id, { sales_channels: ['web'], default_price: 5 });
      const res = await patch(`${E}/items/${item.id}/variations/${variation.id}/`, {
        value: { en: 'S' },
        default_price: '5',
        limit_sales_channels: ['web'],
        price: '1.00',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(variation);
      expect((await itemLog(item.id)).map((e) => e.action)).toEqual([
        'pretix.event.item.added',
        'pretix.event.item.variation.added',
      ]);
    });

    it('PUT resets omitted fields to their defaults and requires value', async () => {
      const item = await createItem({});
      const variation = await createVariation(item.id, {
        default_price: 9,
        active: false,
        position: 5,
        checkin_text: 'x',
        sales_channels: ['api'],
      });
      const url = `${E}/items/${item.id}/variations/${variation.id}/`;
      const missing = await put(url, { position: 1 });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ value: ['This field is required.'] });
      const res = await put(url, { value: 'S' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...DEFAULT_VARIATION, id: variation.id });
      expect((await get(url)).body).toEqual(res.body);
    });

    it('PATCH refuses null for non-nullable fields, validates references, and changes nothing', async () => {
      const item = await createItem({});
      const variation = await createVariation(item.id, {});
      const url = `${E}/items/${item.id}/variations/${variation.id}/`;
      const nulls = await patch(url, { value: null, active: null, position: null });
      expect(nulls.status).toBe(400);
      expect(nulls.body).toEqual({
        value: ['This field may not be null.'],
        active: ['This field may not be null.'],
        position: ['This field may not be null.'],
      });
      const refs = await patch(url, { require_membership_types: [987654], meta_data: { a: 'b' } });
      expect(refs.status).toBe(400);
      expect(refs.body).toEqual({
        require_membership_types: ['Invalid pk "987654" - object does not exist.'],
        meta_data: ["Item meta data property 'a' does not exist."],
      });
      expect((await get(url)).body).toEqual(variation);
      const type = await membershipType();
      const ok = await patch(url, {
        require_membership_types: [type],
        description: null,
        checkin_text: null,
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ ...variation, require_membership_types: [type] });
    });

    it('PATCH with legacy sales_channels switches between all and limited', async () => {
      const item = await createItem({});
      const variation = await createVariation(item.id, {});
      const url = `${E}/items/${item.id}/variations/${variation.id}/`;
      const limited = await patch(url, { sales_channels: ['api'] });
      expect([limited.body.all_sales_channels, limited.body.limit_sales_channels]).toEqual([false, ['api']]);
      const all = await patch(url, { all_sales_channels: true });
      expect([all.body.all_sales_channels, all.body.limit_sales_channels, all.body.sales_channels]).toEqual([
        true,
        [],
        ['api', 'web'],
      ]);
    });
  });

  describe('delete', () => {
    it('deletes a variation that is not the only one and logs it on the item', async () => {
      const item = await createItem({});
      const doomed = await createVariation(item.id, { value: 'A' });
      const kept = await createVariation(item.id, { value: 'B' });
      const res = await del(`${E}/items/${item.id}/variations/${doomed.id}/`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await get(`${E}/items/${item.id}/variations/${doomed.id}/`)).status).toBe(404);
      expect((await get(`${E}/items/${item.id}/`)).body.variations).toEqual([kept]);
      expect((await itemLog(item.id)).at(-1)).toEqual({
        action: 'pretix.event.item.variation.deleted',
        data: { id: doomed.id, value: { en: 'A' } },
      });
      expect((await del(`${E}/items/${item.id}/variations/${doomed.id}/`)).status).toBe(404);
    });

    it('refuses to delete the only variation with 403', async () => {
      const item = await createItem({});
      const only = await createVariation(item.id, {});
      const res = await del(`${E}/items/${item.id}/variations/${only.id}/`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(ONLY_VARIATION);
      expect((await get(`${E}/items/${item.id}/variations/${only.id}/`)).status).toBe(200);
    });

    it('refuses to delete an ordered or carted variation (ITEM_USAGE port), before the only-variation rule', async () => {
      const item = await createItem({});
      const ordered = await createVariation(item.id, { value: 'A' });
      const other = await createVariation(item.id, { value: 'B' });
      const service = t.app.get<VariationsService>(VariationsService) as unknown as { usage: ItemUsage };
      const real = service.usage;
      const asked: number[] = [];
      service.usage = {
        isOrdered: () => Promise.resolve(false),
        releaseCarts: () => Promise.resolve(),
        isVariationInUse: (_em, variationId) => {
          asked.push(variationId);
          return Promise.resolve(variationId === ordered.id);
        },
      };
      try {
        const res = await del(`${E}/items/${item.id}/variations/${ordered.id}/`);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(IN_USE);
        expect((await del(`${E}/items/${item.id}/variations/${other.id}/`)).status).toBe(204);
        const last = await del(`${E}/items/${item.id}/variations/${ordered.id}/`);
        expect(last.body).toEqual(IN_USE);
        expect(asked).toEqual([ordered.id, other.id, ordered.id]);
      } finally {
        service.usage = real;
      }
      expect((await get(`${E}/items/${item.id}/`)).body.variations).toEqual([ordered]);
    });

    it('lets exactly one of two concurrent deletes of the last two variations through', async () => {
      for (let round = 0; round < 5; round++) {
        const item = await createItem({});
        const a = await createVariation(item.id, { value: 'A' });
        const b = await createVariation(item.id, { value: 'B' });
        const results = await Promise.all([
          del(`${E}/items/${item.id}/variations/${a.id}/`),
          del(`${E}/items/${item.id}/variations/${b.id}/`),
        ]);
        expect(results.map((r) => r.status).sort()).toEqual([204, 403]);
        expect(results.find((r) => r.status === 403)!.body).toEqual(ONLY_VARIATION);
        expect((await get(`${E}/items/${item.id}/variations/`)).body.count).toBe(1);
      }
    });
  });

  describe('conditional item list (compat §1.7)', () => {
    it('moves the item list Last-Modified when a variation changes', async () => {
      await createEvent(t, token, 'org', { slug: 'conditional' });
      const base = '/api/v1/organizers/org/events/conditional';
      const item = await createItem({}, base);
      const first = await createVariation(item.id, { value: 'A' }, base);
      await createVariation(item.id, { value: 'B' }, base);
      const list = await get(`${base}/items/`);
      const lastModified = list.headers['last-modified'];
      expect(lastModified).toEqual(expect.any(String));
      const unchanged = await get(`${base}/items/`).set('If-Modified-Since', lastModified);
      expect(unchanged.status).toBe(304);
      await new Promise((r) => setTimeout(r, 1100));
      expect((await patch(`${base}/items/${item.id}/variations/${first.id}/`, { position: 4 })).status).toBe(
        200,
      );
      const changed = await get(`${base}/items/`).set('If-Modified-Since', lastModified);
      expect(changed.status).toBe(200);
      expect(changed.body.results[0].variations.map((v: Body) => v.position)).toEqual([0, 4]);
    });
  });

  describe('scoping', () => {
    let foreignItem: Body;
    let foreignVariation: Body;
    let item: Body;
    let sibling: Body;
    let siblingVariation: Body;

    beforeAll(async () => {
      foreignItem = await createItem({ name: 'Foreign' }, OTHER);
      foreignVariation = await createVariation(foreignItem.id, {}, OTHER);
      item = await createItem({});
      await createVariation(item.id, {});
      sibling = await createItem({});
      siblingVariation = await createVariation(sibling.id, {});
    });

    it('answers 403 for every endpoint under an item of another event, and changes nothing', async () => {
      const base = `${E}/items/${foreignItem.id}/variations`;
      const detail = `${base}/${foreignVariation.id}/`;
      for (const res of [
        await get(`${base}/`),
        await post(`${base}/`, { value: 'X' }),
        await get(detail),
        await patch(detail, { value: 'X' }),
        await put(detail, { value: 'X' }),
        await del(detail),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect(
        (await get(`${OTHER}/items/${foreignItem.id}/variations/${foreignVariation.id}/`, token)).body,
      ).toEqual(foreignVariation);
      expect((await get(`${OTHER}/items/${foreignItem.id}/variations/`)).body.count).toBe(1);
    });

    it('answers 404 for a variation id under a different item of the same event', async () => {
      const url = `${E}/items/${item.id}/variations/${siblingVariation.id}/`;
      for (const res of [
        await get(url),
        await patch(url, { position: 1 }),
        await put(url, { value: 'X' }),
        await del(url),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
      expect((await get(`${E}/items/${sibling.id}/variations/${siblingVariation.id}/`)).body).toEqual(
        siblingVariation,
      );
    });

    it.each(['abc', '0', '99999999999', '987654'])('answers 403 for the item id %s', async (id) => {
      const res = await get(`${E}/items/${id}/variations/`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(DENIED);
      expect((await post(`${E}/items/${id}/variations/`, { value: 'X' })).status).toBe(403);
    });

    it.each(['abc', '1.5', '-1'])('answers 404 for the variation id %s', async (id) => {
      const url = `${E}/items/${item.id}/variations/${id}/`;
      expect((await get(url)).status).toBe(404);
      expect((await patch(url, { position: 1 })).status).toBe(404);
      expect((await del(url)).status).toBe(404);
    });
  });

  describe('permissions', () => {
    let item: Body;
    let variation: Body;

    beforeAll(async () => {
      item = await createItem({ name: 'Perm' });
      variation = await createVariation(item.id, { value: 'A' });
      await createVariation(item.id, { value: 'B' });
    });

    it('answers 401 without credentials', async () => {
      const base = `${E}/items/${item.id}/variations/`;
      for (const res of [
        await t.http().get(base),
        await t.http().post(base).send({ value: 'X' }),
        await t.http().patch(`${base}${variation.id}/`).send({ value: 'X' }),
        await t.http().delete(`${base}${variation.id}/`),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      }
    });

    it('lets a team with event access but without event.items:write read', async () => {
      const list = await get(`${E}/items/${item.id}/variations/`, reader);
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(2);
      const detail = await get(`${E}/items/${item.id}/variations/${variation.id}/`, reader);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(variation);
    });

    it('answers 403 to every write without event.items:write, changing nothing', async () => {
      const before = await variationCount();
      const url = `${E}/items/${item.id}/variations/${variation.id}/`;
      for (const res of [
        await post(`${E}/items/${item.id}/variations/`, { value: 'X' }, reader),
        await patch(url, { value: 'X' }, reader),
        await put(url, { value: 'X' }, reader),
        await del(url, reader),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(url)).body).toEqual(variation);
      expect(await variationCount()).toBe(before);
    });

    it('answers 403 for an event outside the team limit, and for unknown organizer or event', async () => {
      for (const res of [
        await get(`${E}/items/${item.id}/variations/`, outsider),
        await post(`${E}/items/${item.id}/variations/`, { value: 'X' }, outsider),
        await del(`${E}/items/${item.id}/variations/${variation.id}/`, outsider),
        await get(`/api/v1/organizers/nope/events/sample/items/${item.id}/variations/`),
        await get(`/api/v1/organizers/org/events/nope/items/${item.id}/variations/`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
    });
  });
});
