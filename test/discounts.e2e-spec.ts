import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { listStatements } from './sql-count';
import { startTestApp, TestApp } from './harness';

/** `E/discounts/` and `E/discount/{id}/` (compat §3.25; permissions per docs/permissions.md). */
describe('discounts', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let outsider: string;
  const ORG = '/api/v1/organizers/org/events';
  const E = `${ORG}/sample`;
  const OTHER = `${ORG}/other`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const BOTH = 'You can either set a minimum number of matching products or a minimum value, not both.';
  const NEITHER = 'You need to either set a minimum number of matching products or a minimum value.';
  const CHEAPEST =
    'You cannot apply the discount only to some of the matched products if you are matching on a minimum value.';
  const DISTINCT =
    'You cannot apply the discount only to bookings of different dates if you are matching on a minimum value.';

  /** The representation of `{"internal_name": "Group", "condition_min_count": 2}` (compat §3.25 defaults). */
  const DEFAULT_DISCOUNT = {
    active: true,
    internal_name: 'Group',
    position: 0,
    all_sales_channels: true,
    limit_sales_channels: [],
    sales_channels: ['api', 'web'],
    available_from: null,
    available_until: null,
    subevent_mode: 'mixed',
    subevent_date_from: null,
    subevent_date_until: null,
    condition_all_products: true,
    condition_limit_products: [],
    condition_apply_to_addons: true,
    condition_ignore_voucher_discounted: false,
    condition_min_count: 2,
    condition_min_value: '0.00',
    benefit_discount_matching_percent: '0.00',
    benefit_only_apply_to_cheapest_n_matches: null,
    benefit_same_products: true,
    benefit_limit_products: [],
    benefit_apply_to_addons: true,
    benefit_ignore_voucher_discounted: false,
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

  type DiscountBody = { id: number } & Record<string, unknown>;

  async function createDiscount(body: object, base = E): Promise<DiscountBody> {
    const res = await post(`${base}/discounts/`, { internal_name: 'Group', condition_min_count: 2, ...body });
    if (res.status !== 201) throw new Error(`createDiscount: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function createItem(base = E): Promise<number> {
    const res = await post(`${base}/items/`, { name: 'Ticket', default_price: '10.00' });
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as number;
  }

  async function logActions(objectId: number): Promise<string[]> {
    const rows: { action_type: string }[] = await t.db.query(
      "SELECT action_type FROM log_entry WHERE content_type = 'discount' AND object_id = $1 ORDER BY id",
      [objectId],
    );
    return rows.map((r) => r.action_type);
  }

  async function discountCount(): Promise<number> {
    const rows: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM discount');
    return Number(rows[0].n);
  }

  let items: number[];
  let foreignItem: number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    reader = await teamToken(t, 'org', {
      limitEvents: ['sample'],
      eventPermissions: ['event.settings.general:write', 'event.settings.tax:write', 'event.orders:write'],
    });
    outsider = await teamToken(t, 'org', { limitEvents: ['other'], eventPermissions: ['event.items:write'] });
    items = [await createItem(), await createItem(), await createItem()];
    foreignItem = await createItem(OTHER);
  });
  afterAll(() => t.close());

  describe('create and detail', () => {
    it('creates a discount with the full default representation and shows it on detail', async () => {
      const res = await post(`${E}/discounts/`, { internal_name: 'Group', condition_min_count: 2 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.any(Number), ...DEFAULT_DISCOUNT });
      const again = await get(`${E}/discounts/${res.body.id}/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
      expect(await logActions(res.body.id)).toEqual(['pretix.event.discount.added']);
    });

    it('stores every writable field and shows it on detail', async () => {
      const body = {
        active: false,
        internal_name: 'Everything',
        position: 4,
        all_sales_channels: false,
        limit_sales_channels: ['web'],
        available_from: '2030-01-01T10:00:00+01:00',
        available_until: '2030-02-01T10:00:00Z',
        subevent_mode: 'same',
        subevent_date_from: '2030-03-01T00:00:00Z',
        subevent_date_until: '2030-04-01T00:00:00.5Z',
        condition_all_products: false,
        condition_limit_products: [items[1], items[0], items[1]],
        condition_apply_to_addons: false,
        condition_ignore_voucher_discounted: true,
        condition_min_count: 3,
        benefit_discount_matching_percent: 33.5,
        benefit_only_apply_to_cheapest_n_matches: 1,
        benefit_same_products: false,
        benefit_limit_products: [items[2]],
        benefit_apply_to_addons: false,
        benefit_ignore_voucher_discounted: true,
      };
      const res = await post(`${E}/discounts/`, { ...body, id: 9999 });
      expect(res.status).toBe(201);
      const expected = {
        ...DEFAULT_DISCOUNT,
        ...body,
        id: res.body.id,
        sales_channels: ['web'],
        available_from: '2030-01-01T09:00:00Z',
        subevent_date_until: '2030-04-01T00:00:00.500Z',
        condition_limit_products: [items[0], items[1]],
        benefit_discount_matching_percent: '33.50',
      };
      expect(res.body).toEqual(expected);
      expect(res.body.id).not.toBe(9999);
      expect((await get(`${E}/discounts/${res.body.id}/`)).body).toEqual(expected);
    });

    it('matches on a minimum value given as a number, and stores "cheapest 0" as null', async () => {
      const res = await post(`${E}/discounts/`, {
        internal_name: 'Value',
        condition_min_value: 100,
        benefit_discount_matching_percent: '10',
        benefit_only_apply_to_cheapest_n_matches: 0,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        ...DEFAULT_DISCOUNT,
        id: res.body.id,
        internal_name: 'Value',
        condition_min_count: 0,
        condition_min_value: '100.00',
        benefit_discount_matching_percent: '10.00',
      });
    });

    it.each<[object, object]>([
      [{ condition_min_count: 2 }, { internal_name: ['This field is required.'] }],
      [{ internal_name: null, condition_min_count: 2 }, { internal_name: ['This field may not be null.'] }],
      [{ internal_name: ' ', condition_min_count: 2 }, { internal_name: ['This field may not be blank.'] }],
      [
        { internal_name: 'n'.repeat(256), condition_min_count: 2 },
        { internal_name: ['Ensure this field has no more than 255 characters.'] },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, active: 'yes' },
        { active: ['Must be a valid boolean.'] },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, active: null },
        { active: ['This field may not be null.'] },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, position: -1 },
        { position: ['Ensure this value is greater than or equal to 0.'] },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, limit_sales_channels: ['bar'] },
        { limit_sales_channels: ['Object with identifier=bar does not exist.'] },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, sales_channels: null },
        {
          sales_channels: ["The legacy attribute 'sales_channels' cannot be set to None, it must be a list."],
        },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, all_sales_channels: true, sales_channels: ['web'] },
        {
          all_sales_channels: [
            "If 'all_sales_channels' is set, the legacy attribute 'sales_channels' must not be set or set to the list of all sales channels.",
          ],
        },
      ],
      [
        {
          internal_name: 'x',
          condition_min_count: 2,
          limit_sales_channels: ['api'],
          sales_channels: ['web'],
        },
        {
          limit_sales_channels: [
            "If 'limit_sales_channels' is set, the legacy attribute 'sales_channels' must not be set or set to the same list.",
          ],
        },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, available_from: 'soon' },
        {
          available_from: [
            'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
          ],
        },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, subevent_date_until: '2030-02-30T00:00:00Z' },
        {
          subevent_date_until: [
            'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
          ],
        },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, subevent_mode: 'any' },
        { subevent_mode: ['"any" is not a valid choice.'] },
      ],
      [
        { internal_name: 'x', condition_min_count: -1 },
        { condition_min_count: ['Ensure this value is greater than or equal to 0.'] },
      ],
      [
        { internal_name: 'x', condition_min_count: '2' },
        { condition_min_count: ['A valid integer is required.'] },
      ],
      [
        { internal_name: 'x', condition_min_value: '1.001' },
        { condition_min_value: ['Ensure that there are no more than 2 decimal places.'] },
      ],
      [
        { internal_name: 'x', condition_min_value: -5 },
        { condition_min_value: ['Ensure this value is greater than or equal to 0.'] },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, benefit_discount_matching_percent: '100.01' },
        { benefit_discount_matching_percent: ['Ensure this value is less than or equal to 100.'] },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, benefit_discount_matching_percent: -1 },
        { benefit_discount_matching_percent: ['Ensure this value is greater than or equal to 0.'] },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, benefit_discount_matching_percent: 'half' },
        { benefit_discount_matching_percent: ['A valid number is required.'] },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, benefit_only_apply_to_cheapest_n_matches: -1 },
        { benefit_only_apply_to_cheapest_n_matches: ['Ensure this value is greater than or equal to 0.'] },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, condition_limit_products: 'all' },
        { condition_limit_products: ['Expected a list of items but got type "str".'] },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, benefit_limit_products: ['1'] },
        { benefit_limit_products: ['Incorrect type. Expected pk value, received str.'] },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, condition_limit_products: [987654] },
        { condition_limit_products: ['Invalid pk "987654" - object does not exist.'] },
      ],
      [{ internal_name: 'x' }, { non_field_errors: [NEITHER] }],
      [
        { internal_name: 'x', condition_min_count: 0, condition_min_value: '0.00' },
        { non_field_errors: [NEITHER] },
      ],
      [
        { internal_name: 'x', condition_min_count: 2, condition_min_value: '10' },
        { non_field_errors: [BOTH] },
      ],
      [
        { internal_name: 'x', condition_min_value: '10', benefit_only_apply_to_cheapest_n_matches: 1 },
        { non_field_errors: [CHEAPEST] },
      ],
      [
        { internal_name: 'x', condition_min_value: '10', subevent_mode: 'distinct' },
        { non_field_errors: [DISTINCT] },
      ],
    ])('answers 400 for %j and creates nothing', async (body, errors) => {
      const before = await discountCount();
      const res = await post(`${E}/discounts/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await discountCount()).toBe(before);
    });

    it('refuses products of another event and collects field and combination errors together', async () => {
      const res = await post(`${E}/discounts/`, {
        internal_name: 'x',
        condition_min_value: '10',
        subevent_mode: 'distinct',
        benefit_only_apply_to_cheapest_n_matches: 2,
        condition_limit_products: [items[0], foreignItem],
        benefit_limit_products: [foreignItem],
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        condition_limit_products: [`Invalid pk "${foreignItem}" - object does not exist.`],
        benefit_limit_products: [`Invalid pk "${foreignItem}" - object does not exist.`],
        non_field_errors: [CHEAPEST, DISTINCT],
      });
    });
  });

  describe('sales channels', () => {
    it.each([
      [{ all_sales_channels: false, limit_sales_channels: ['web'] }, false, ['web'], ['web']],
      [
        { all_sales_channels: false, limit_sales_channels: ['web', 'api', 'web'] },
        false,
        ['api', 'web'],
        ['api', 'web'],
      ],
      [{ all_sales_channels: true, limit_sales_channels: ['web'] }, true, [], ['api', 'web']],
      [{ sales_channels: ['web'] }, false, ['web'], ['web']],
      [{ sales_channels: ['web', 'api'] }, true, [], ['api', 'web']],
      [{ sales_channels: [] }, false, [], []],
      [{ sales_channels: ['api'], limit_sales_channels: ['api'] }, false, ['api'], ['api']],
    ])('%j → all=%s, limit=%j, legacy=%j', async (body, all, limit, legacy) => {
      const discount = await createDiscount(body);
      expect({
        all: discount.all_sales_channels,
        limit: discount.limit_sales_channels,
        legacy: discount.sales_channels,
      }).toEqual({ all, limit, legacy });
      expect((await get(`${E}/discounts/${discount.id}/`)).body).toEqual(discount);
    });

    it('PATCH with legacy sales_channels switches between all and limited', async () => {
      const discount = await createDiscount({});
      const limited = await patch(`${E}/discounts/${discount.id}/`, { sales_channels: ['api'] });
      expect(limited.status).toBe(200);
      expect([
        limited.body.all_sales_channels,
        limited.body.limit_sales_channels,
        limited.body.sales_channels,
      ]).toEqual([false, ['api'], ['api']]);
      const all = await patch(`${E}/discounts/${discount.id}/`, { sales_channels: ['web', 'api'] });
      expect([all.body.all_sales_channels, all.body.limit_sales_channels]).toEqual([true, []]);
    });
  });

  describe('list', () => {
    let base: string;
    let ids: Record<string, number>;

    beforeAll(async () => {
      await createEvent(t, token, 'org', { slug: 'listing' });
      base = `${ORG}/listing`;
      const item = await createItem(base);
      ids = {};
      for (const [key, body] of [
        ['late', { position: 5, condition_limit_products: [item] }],
        ['early', { position: 1, benefit_limit_products: [item] }],
        ['off', { position: 1, active: false }],
      ] as const) {
        ids[key] = (await createDiscount({ internal_name: key, ...body }, base)).id;
      }
    });

    const keysOf = (res: { body: { results: DiscountBody[] } }) =>
      res.body.results.map((r) => Object.keys(ids).find((k) => ids[k] === r.id));

    it.each([
      ['', ['early', 'off', 'late']],
      ['ordering=-position', ['late', 'early', 'off']],
      ['ordering=id', ['late', 'early', 'off']],
      ['ordering=-id', ['off', 'early', 'late']],
      ['ordering=internal_name', ['early', 'off', 'late']],
      ['active=true', ['early', 'late']],
      ['active=false', ['off']],
      ['active=0', ['off']],
    ])('lists with %s', async (query, expected) => {
      const res = await get(`${base}/discounts/?${query}`);
      expect(res.status).toBe(200);
      expect(keysOf(res)).toEqual(expected);
      expect(res.body.count).toBe(expected.length);
    });

    it('shows the product lists in the list as on detail', async () => {
      const res = await get(`${base}/discounts/`);
      for (const row of res.body.results as DiscountBody[]) {
        expect((await get(`${base}/discounts/${row.id}/`)).body).toEqual(row);
      }
    });

    it('answers 400 for a non-boolean active filter', async () => {
      const res = await get(`${base}/discounts/?active=maybe`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ active: ['Must be a valid boolean.'] });
    });

    it('paginates', async () => {
      const res = await get(`${base}/discounts/?page_size=2&page=2`);
      expect(res.body.count).toBe(3);
      expect(keysOf(res)).toEqual(['late']);
      expect(res.body.next).toBeNull();
      expect((await get(`${base}/discounts/?page_size=2&page=3`)).status).toBe(404);
    });

    it('shows only discounts of the event in the URL', async () => {
      const res = await get(`${OTHER}/discounts/`);
      for (const id of Object.values(ids)) {
        expect(res.body.results.map((r: DiscountBody) => r.id)).not.toContain(id);
      }
    });

    it('runs the same number of SQL statements whatever the page size', async () => {
      const count = (query: string) => listStatements(() => get(`${base}/discounts/?${query}`));
      const one = await count('page_size=1');
      const three = await count('page_size=3');
      expect([one.rows, three.rows]).toEqual([1, 3]);
      expect(three.statements).toBe(one.statements);
    });
  });

  describe('update', () => {
    it('PATCH changes only the sent fields, logs it, and a second GET shows the change', async () => {
      const discount = await createDiscount({ condition_limit_products: [items[0]], position: 3 });
      const res = await patch(`${E}/discounts/${discount.id}/`, { internal_name: 'Renamed' });
      expect(res.status).toBe(200);
      const expected = { ...discount, internal_name: 'Renamed' };
      expect(res.body).toEqual(expected);
      expect((await get(`${E}/discounts/${discount.id}/`)).body).toEqual(expected);
      expect(await logActions(discount.id)).toEqual([
        'pretix.event.discount.added',
        'pretix.event.discount.changed',
      ]);
    });

    it('PATCH replaces the product lists', async () => {
      const discount = await createDiscount({
        condition_limit_products: [items[0], items[1]],
        benefit_limit_products: [items[2]],
      });
      const url = `${E}/discounts/${discount.id}/`;
      const res = await patch(url, { condition_limit_products: [items[2]], benefit_limit_products: [] });
      expect(res.status).toBe(200);
      expect([res.body.condition_limit_products, res.body.benefit_limit_products]).toEqual([[items[2]], []]);
      expect((await get(url)).body).toEqual(res.body);
      const refused = await patch(url, { benefit_limit_products: [foreignItem] });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        benefit_limit_products: [`Invalid pk "${foreignItem}" - object does not exist.`],
      });
      expect((await get(url)).body).toEqual(res.body);
    });

    it('PATCH that changes nothing logs nothing', async () => {
      const discount = await createDiscount({
        condition_limit_products: [items[0]],
        benefit_discount_matching_percent: '10',
        sales_channels: ['web'],
      });
      const res = await patch(`${E}/discounts/${discount.id}/`, {
        internal_name: 'Group',
        condition_limit_products: [items[0], items[0]],
        benefit_discount_matching_percent: 10,
        limit_sales_channels: ['web'],
        benefit_only_apply_to_cheapest_n_matches: 0,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(discount);
      expect(await logActions(discount.id)).toEqual(['pretix.event.discount.added']);
    });

    it('checks the combination rules on the merged data', async () => {
      const discount = await createDiscount({});
      const url = `${E}/discounts/${discount.id}/`;
      for (const [body, message] of [
        [{ condition_min_value: '10' }, BOTH],
        [{ condition_min_count: 0 }, NEITHER],
      ] as const) {
        const res = await patch(url, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ non_field_errors: [message] });
      }
      expect((await get(url)).body).toEqual(discount);
      const value = await patch(url, { condition_min_count: 0, condition_min_value: '10' });
      expect(value.status).toBe(200);
      for (const [body, message] of [
        [{ subevent_mode: 'distinct' }, DISTINCT],
        [{ benefit_only_apply_to_cheapest_n_matches: 1 }, CHEAPEST],
      ] as const) {
        const res = await patch(url, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ non_field_errors: [message] });
      }
      expect((await get(url)).body).toEqual(value.body);
    });

    it('PATCH refuses null on non-nullable fields and accepts it on nullable ones', async () => {
      const discount = await createDiscount({
        available_from: '2030-01-01T00:00:00Z',
        benefit_only_apply_to_cheapest_n_matches: 1,
      });
      const url = `${E}/discounts/${discount.id}/`;
      const bad = await patch(url, { internal_name: null, condition_min_count: null, subevent_mode: null });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        internal_name: ['This field may not be null.'],
        condition_min_count: ['This field may not be null.'],
        subevent_mode: ['This field may not be null.'],
      });
      const legacy = await patch(url, { sales_channels: null });
      expect(legacy.status).toBe(400);
      expect(legacy.body).toEqual({
        sales_channels: ["The legacy attribute 'sales_channels' cannot be set to None, it must be a list."],
      });
      expect((await get(url)).body).toEqual(discount);
      const ok = await patch(url, { available_from: null, benefit_only_apply_to_cheapest_n_matches: null });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({
        ...discount,
        available_from: null,
        benefit_only_apply_to_cheapest_n_matches: null,
      });
    });

    it('PUT resets omitted fields to their defaults', async () => {
      const discount = await createDiscount({
        active: false,
        position: 9,
        sales_channels: ['web'],
        condition_limit_products: [items[0]],
        benefit_limit_products: [items[1]],
        subevent_mode: 'same',
      });
      const res = await put(`${E}/discounts/${discount.id}/`, {
        internal_name: 'Group',
        condition_min_count: 2,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...DEFAULT_DISCOUNT, id: discount.id });
      expect((await get(`${E}/discounts/${discount.id}/`)).body).toEqual(res.body);
      expect(await logActions(discount.id)).toEqual([
        'pretix.event.discount.added',
        'pretix.event.discount.changed',
      ]);
    });

    it('PUT requires internal_name and a condition', async () => {
      const discount = await createDiscount({});
      const res = await put(`${E}/discounts/${discount.id}/`, { position: 1 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ internal_name: ['This field is required.'] });
      const noCondition = await put(`${E}/discounts/${discount.id}/`, { internal_name: 'x' });
      expect(noCondition.status).toBe(400);
      expect(noCondition.body).toEqual({ non_field_errors: [NEITHER] });
      expect((await get(`${E}/discounts/${discount.id}/`)).body).toEqual(discount);
    });

    it('drops a deleted item from the product lists', async () => {
      const doomed = await createItem();
      const discount = await createDiscount({
        condition_limit_products: [items[0], doomed],
        benefit_limit_products: [doomed],
      });
      expect((await del(`${E}/items/${doomed}/`)).status).toBe(204);
      const res = await get(`${E}/discounts/${discount.id}/`);
      expect([res.body.condition_limit_products, res.body.benefit_limit_products]).toEqual([[items[0]], []]);
    });
  });

  describe('delete', () => {
    it.each(['discounts', 'discount'])('deletes at E/%s/{id}/ and logs it', async (segment) => {
      const discount = await createDiscount({ condition_limit_products: [items[0]] });
      const res = await del(`${E}/${segment}/${discount.id}/`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const gone = await get(`${E}/discounts/${discount.id}/`);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ detail: 'Not found.' });
      expect(await logActions(discount.id)).toEqual([
        'pretix.event.discount.added',
        'pretix.event.discount.deleted',
      ]);
      const rows: unknown[] = await t.db.query(
        'SELECT 1 FROM discount_condition_item WHERE discount_id = $1',
        [discount.id],
      );
      expect(rows).toHaveLength(0);
      for (const again of ['discounts', 'discount']) {
        const res2 = await del(`${E}/${again}/${discount.id}/`);
        expect(res2.status).toBe(404);
        expect(res2.body).toEqual({ detail: 'Not found.' });
      }
    });
  });

  describe('scoping', () => {
    let foreign: DiscountBody;

    beforeAll(async () => {
      foreign = await createDiscount({ internal_name: 'Foreign' }, OTHER);
    });

    it.each(['get', 'patch', 'put', 'delete', 'delete singular'] as const)(
      '%s of a discount of another event answers 404',
      async (method) => {
        const url = `${E}/discounts/${foreign.id}/`;
        const res =
          method === 'get'
            ? await get(url)
            : method === 'delete'
              ? await del(url)
              : method === 'delete singular'
                ? await del(`${E}/discount/${foreign.id}/`)
                : method === 'patch'
                  ? await patch(url, { internal_name: 'hijack' })
                  : await put(url, { internal_name: 'hijack', condition_min_count: 1 });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: 'Not found.' });
        expect((await get(`${OTHER}/discounts/${foreign.id}/`)).body).toEqual(foreign);
      },
    );

    it.each(['abc', '1.5', '0', '-1', '99999999999'])('answers 404 for the id %s', async (id) => {
      const res = await get(`${E}/discounts/${id}/`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
      expect((await patch(`${E}/discounts/${id}/`, { position: 1 })).status).toBe(404);
      expect(
        (await put(`${E}/discounts/${id}/`, { internal_name: 'x', condition_min_count: 1 })).status,
      ).toBe(404);
      expect((await del(`${E}/discounts/${id}/`)).status).toBe(404);
      expect((await del(`${E}/discount/${id}/`)).status).toBe(404);
    });
  });

  describe('permissions', () => {
    let discount: DiscountBody;

    beforeAll(async () => {
      discount = await createDiscount({ internal_name: 'Perm' });
    });

    it('answers 401 without credentials', async () => {
      const res = await t.http().get(`${E}/discounts/`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect((await t.http().get(`${E}/discounts/${discount.id}/`)).status).toBe(401);
      expect((await t.http().post(`${E}/discounts/`).send({ internal_name: 'x' })).status).toBe(401);
      expect((await t.http().patch(`${E}/discounts/${discount.id}/`).send({ position: 1 })).status).toBe(401);
      expect((await t.http().delete(`${E}/discounts/${discount.id}/`)).status).toBe(401);
      expect((await t.http().delete(`${E}/discount/${discount.id}/`)).status).toBe(401);
    });

    it('lets a team with event access but without event.items:write read', async () => {
      const list = await get(`${E}/discounts/`, reader);
      expect(list.status).toBe(200);
      expect(list.body.results.map((r: DiscountBody) => r.id)).toContain(discount.id);
      const detail = await get(`${E}/discounts/${discount.id}/`, reader);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(discount);
    });

    it('answers 403 to every write without event.items:write, changing nothing', async () => {
      const before = await discountCount();
      const url = `${E}/discounts/${discount.id}/`;
      for (const res of [
        await post(`${E}/discounts/`, { internal_name: 'x', condition_min_count: 1 }, reader),
        await patch(url, { position: 1 }, reader),
        await put(url, { internal_name: 'x', condition_min_count: 1 }, reader),
        await del(url, reader),
        await del(`${E}/discount/${discount.id}/`, reader),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(url)).body).toEqual(discount);
      expect(await discountCount()).toBe(before);
    });

    it('answers 403 for an event outside the team limit, and for unknown organizer or event', async () => {
      for (const res of [
        await get(`${E}/discounts/`, outsider),
        await get(`${E}/discounts/${discount.id}/`, outsider),
        await post(`${E}/discounts/`, { internal_name: 'x', condition_min_count: 1 }, outsider),
        await patch(`${E}/discounts/${discount.id}/`, { position: 1 }, outsider),
        await del(`${E}/discounts/${discount.id}/`, outsider),
        await del(`${E}/discount/${discount.id}/`, outsider),
        await get('/api/v1/organizers/nope/events/sample/discounts/'),
        await get(`${ORG}/nope/discounts/`),
        await del(`${ORG}/nope/discount/1/`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(`${E}/discounts/${discount.id}/`)).body).toEqual(discount);
    });
  });
});
