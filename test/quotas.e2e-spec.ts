import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/** `E/quotas/` (spec "Quotas", "States and transitions"; compat §3.14; permissions per docs/permissions.md). */
describe('quotas', () => {
  let t: TestApp;
  let token: string;
  let foreignToken: string;
  let reader: string;
  let outsider: string;
  const ORG = '/api/v1/organizers/org/events';
  const E = `${ORG}/sample`;
  const OTHER = `${ORG}/other`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const NOT_FOUND = { detail: 'Not found.' };

  /** The representation of `{"name": "Tickets"}` (compat §3.14 defaults). */
  const DEFAULT_QUOTA = {
    name: 'Tickets',
    size: null,
    items: [],
    variations: [],
    subevent: null,
    close_when_sold_out: false,
    closed: false,
    release_after_exit: false,
    ignore_for_event_availability: false,
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

  type QuotaBody = { id: number } & Record<string, unknown>;

  async function createQuota(body: object, base = E): Promise<QuotaBody> {
    const res = await post(`${base}/quotas/`, { name: 'Tickets', ...body });
    if (res.status !== 201) throw new Error(`createQuota: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function createItem(body: object = {}, base = E, tok = token): Promise<number> {
    const res = await post(`${base}/items/`, { name: 'Ticket', default_price: '10.00', ...body }, tok);
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as number;
  }

  /** A variation written straight to the table (the variation endpoints are another resource's). */
  async function addVariation(itemId: number, name: string): Promise<number> {
    const rows: { id: number }[] = await t.db.query(
      'INSERT INTO item_variation (item_id, value) VALUES ($1, $2::jsonb) RETURNING id',
      [itemId, JSON.stringify({ en: name })],
    );
    return rows[0].id;
  }

  /** A blocking voucher written straight to the table (the voucher endpoints are another resource's). */
  async function blockingVoucher(
    eventSlug: string,
    target: { item?: number; variation?: number; quota?: number },
    maxUsages = 1,
  ): Promise<void> {
    await t.db.query(
      `INSERT INTO voucher (event_id, code, max_usages, block_quota, item_id, variation_id, quota_id)
       SELECT e.id, $2, $3, true, $4, $5, $6 FROM event e JOIN organizer o ON o.id = e.organizer_id
        WHERE o.slug = 'org' AND e.slug = $1`,
      [
        eventSlug,
        `V${Math.random().toString(36).slice(2, 12)}`,
        maxUsages,
        target.item ?? null,
        target.variation ?? null,
        target.quota ?? null,
      ],
    );
  }

  async function logActions(objectId: number): Promise<string[]> {
    const rows: { action_type: string }[] = await t.db.query(
      "SELECT action_type FROM log_entry WHERE content_type = 'quota' AND object_id = $1 ORDER BY id",
      [objectId],
    );
    return rows.map((r) => r.action_type);
  }

  /** The stored links of a quota, ascending. */
  async function links(quotaId: number): Promise<{ items: number[]; variations: number[] }> {
    const items: { id: number }[] = await t.db.query(
      'SELECT item_id AS id FROM quota_item WHERE quota_id = $1 ORDER BY 1',
      [quotaId],
    );
    const variations: { id: number }[] = await t.db.query(
      'SELECT variation_id AS id FROM quota_variation WHERE quota_id = $1 ORDER BY 1',
      [quotaId],
    );
    return { items: items.map((r) => r.id), variations: variations.map((r) => r.id) };
  }

  async function quotaCount(): Promise<number> {
    const rows: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM quota');
    return Number(rows[0].n);
  }

  let plain: number;
  let shirt: number;
  let small: number;
  let large: number;
  let otherItem: number;
  let foreignItem: number;
  let foreignVariation: number;
  let otherVariation: number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    ({ token: foreignToken } = await bootstrapOrganizer(t, 'org2'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    await createSeries(t, token, 'org', { slug: 'series' });
    await createEvent(t, foreignToken, 'org2', { slug: 'foreign' });
    reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    outsider = await teamToken(t, 'org', { limitEvents: ['other'], eventPermissions: ['event.items:write'] });
    plain = await createItem({ name: 'Plain' });
    shirt = await createItem({ name: 'Shirt', has_variations: true });
    small = await addVariation(shirt, 'S');
    large = await addVariation(shirt, 'L');
    otherItem = await createItem({ name: 'Elsewhere', has_variations: true }, OTHER);
    otherVariation = await addVariation(otherItem, 'M');
    foreignItem = await createItem(
      { name: 'Foreign' },
      '/api/v1/organizers/org2/events/foreign',
      foreignToken,
    );
    const foreignWithVariations = await createItem(
      { name: 'Foreign shirt', has_variations: true },
      '/api/v1/organizers/org2/events/foreign',
      foreignToken,
    );
    foreignVariation = await addVariation(foreignWithVariations, 'XL');
  });
  afterAll(() => t.close());

  describe('create and detail', () => {
    it('creates a minimal quota with the full default representation and shows it on detail', async () => {
      const res = await post(`${E}/quotas/`, { name: 'Tickets' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.any(Number), ...DEFAULT_QUOTA });
      const again = await get(`${E}/quotas/${res.body.id}/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
      expect(await logActions(res.body.id)).toEqual(['pretix.event.quota.added']);
    });

    it('stores every field, with items and variations in ascending order, and shows it on detail', async () => {
      const res = await post(`${E}/quotas/`, {
        name: 'Everything',
        size: 250,
        items: [shirt, plain],
        variations: [large, small],
        subevent: null,
        close_when_sold_out: true,
        closed: true,
        release_after_exit: true,
        ignore_for_event_availability: true,
      });
      expect(res.status).toBe(201);
      const expected = {
        id: res.body.id,
        name: 'Everything',
        size: 250,
        items: [plain, shirt].sort((a, b) => a - b),
        variations: [small, large].sort((a, b) => a - b),
        subevent: null,
        close_when_sold_out: true,
        closed: true,
        release_after_exit: true,
        ignore_for_event_availability: true,
      };
      expect(res.body).toEqual(expected);
      expect((await get(`${E}/quotas/${res.body.id}/`)).body).toEqual(expected);
      expect(await links(res.body.id)).toEqual({ items: expected.items, variations: expected.variations });
    });

    it('accepts an item with variations when one of its variations is listed, and ignores read-only fields', async () => {
      const res = await post(`${E}/quotas/`, {
        name: 'Small shirts',
        items: [shirt, shirt],
        variations: [small],
        id: 99999,
        available: false,
        available_number: 3,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        ...DEFAULT_QUOTA,
        id: res.body.id,
        name: 'Small shirts',
        items: [shirt],
        variations: [small],
      });
      expect(res.body.id).not.toBe(99999);
    });

    it('shows no availability fields on detail unless with_availability=true', async () => {
      const quota = await createQuota({ size: 4, items: [plain] });
      const res = await get(`${E}/quotas/${quota.id}/`);
      expect(res.body).not.toHaveProperty('available');
      expect(res.body).not.toHaveProperty('available_number');
      expect((await get(`${E}/quotas/${quota.id}/?with_availability=false`)).body).toEqual(res.body);
      const withAvailability = await get(`${E}/quotas/${quota.id}/?with_availability=true`);
      expect(withAvailability.status).toBe(200);
      expect(withAvailability.body).toEqual({ ...res.body, available: true, available_number: 4 });
    });

    it.each([
      ['no name', {}, { name: ['This field is required.'] }],
      ['a null name', { name: null }, { name: ['This field may not be null.'] }],
      ['a blank name', { name: '  ' }, { name: ['This field may not be blank.'] }],
      [
        'a long name',
        { name: 'x'.repeat(201) },
        { name: ['Ensure this field has no more than 200 characters.'] },
      ],
      [
        'a negative size',
        { name: 'Q', size: -1 },
        { size: ['Ensure this value is greater than or equal to 0.'] },
      ],
      ['a fractional size', { name: 'Q', size: 1.5 }, { size: ['A valid integer is required.'] }],
      ['a string size', { name: 'Q', size: 'ten' }, { size: ['A valid integer is required.'] }],
      [
        'items not a list',
        { name: 'Q', items: 'x' },
        { items: ['Expected a list of items but got type "str".'] },
      ],
      [
        'items of strings',
        { name: 'Q', items: ['a'] },
        { items: ['Incorrect type. Expected pk value, received str.'] },
      ],
      ['null items', { name: 'Q', items: null }, { items: ['This field may not be null.'] }],
      [
        'variations not a list',
        { name: 'Q', variations: 5 },
        { variations: ['Expected a list of items but got type "number".'] },
      ],
      [
        'an unknown item',
        { name: 'Q', items: [999999] },
        { items: ['Invalid pk "999999" - object does not exist.'] },
      ],
      [
        'an unknown variation',
        { name: 'Q', variations: [999100] },
        { variations: ['Invalid pk "999100" - object does not exist.'] },
      ],
      [
        'a sub-event id',
        { name: 'Q', subevent: 5 },
        { subevent: ['Invalid pk "5" - object does not exist.'] },
      ],
      [
        'a string sub-event',
        { name: 'Q', subevent: 'x' },
        { subevent: ['Incorrect type. Expected pk value, received str.'] },
      ],
      ['a non-boolean closed', { name: 'Q', closed: 'yes' }, { closed: ['Must be a valid boolean.'] }],
      [
        'a null close_when_sold_out',
        { name: 'Q', close_when_sold_out: null },
        { close_when_sold_out: ['This field may not be null.'] },
      ],
      [
        'a non-boolean release_after_exit',
        { name: 'Q', release_after_exit: 1 },
        { release_after_exit: ['Must be a valid boolean.'] },
      ],
      [
        'a non-boolean ignore_for_event_availability',
        { name: 'Q', ignore_for_event_availability: 'no' },
        { ignore_for_event_availability: ['Must be a valid boolean.'] },
      ],
    ])('answers 400 for %s and creates nothing', async (_label, body, errors) => {
      const before = await quotaCount();
      const res = await post(`${E}/quotas/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await quotaCount()).toBe(before);
    });

    it('reports every field error at once', async () => {
      const res = await post(`${E}/quotas/`, { size: -2, items: [999999], subevent: 7 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        name: ['This field is required.'],
        size: ['Ensure this value is greater than or equal to 0.'],
      });
      const refs = await post(`${E}/quotas/`, {
        name: 'Q',
        items: [999999],
        variations: [999100],
        subevent: 7,
      });
      expect(refs.body).toEqual({
        items: ['Invalid pk "999999" - object does not exist.'],
        variations: ['Invalid pk "999100" - object does not exist.'],
        subevent: ['Invalid pk "7" - object does not exist.'],
      });
    });

    it('treats items and variations of another organizer as unknown', async () => {
      const items = await post(`${E}/quotas/`, { name: 'Q', items: [foreignItem] });
      expect(items.status).toBe(400);
      expect(items.body).toEqual({ items: [`Invalid pk "${foreignItem}" - object does not exist.`] });
      const variations = await post(`${E}/quotas/`, {
        name: 'Q',
        items: [shirt],
        variations: [foreignVariation],
      });
      expect(variations.status).toBe(400);
      expect(variations.body).toEqual({
        variations: [`Invalid pk "${foreignVariation}" - object does not exist.`],
      });
    });

    it.each([
      [
        'items of another event',
        () => ({ name: 'Q', items: [plain, otherItem], variations: [otherVariation] }),
        'One or more items do not belong to this event.',
      ],
      [
        'a variation whose item is not in items',
        () => ({ name: 'Q', items: [plain], variations: [small] }),
        'All variations must belong to an item contained in the items list.',
      ],
      [
        'a variation of another event without its item',
        () => ({ name: 'Q', items: [shirt], variations: [small, otherVariation] }),
        'All variations must belong to an item contained in the items list.',
      ],
      [
        'an item with variations but none of them listed',
        () => ({ name: 'Q', items: [plain, shirt] }),
        'One or more items has variations but none of these are in the variations list.',
      ],
    ])('answers 400 non_field_errors for %s and creates nothing', async (_label, body, message) => {
      const before = await quotaCount();
      const res = await post(`${E}/quotas/`, body());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: [message] });
      expect(await quotaCount()).toBe(before);
    });

    it('requires a sub-event in an event series', async () => {
      const res = await post(`${ORG}/series/quotas/`, { name: 'Q' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: ['Subevent cannot be null for event series.'] });
      const withId = await post(`${ORG}/series/quotas/`, { name: 'Q', subevent: 3 });
      expect(withId.body).toEqual({ subevent: ['Invalid pk "3" - object does not exist.'] });
    });

    it('answers 400 for a body that is not an object', async () => {
      const res = await post(`${E}/quotas/`, [{ name: 'Q' }]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
    });
  });

  describe('permissions and scoping', () => {
    let quota: QuotaBody;
    let foreignQuota: QuotaBody;

    beforeAll(async () => {
      quota = await createQuota({ name: 'Scoped', size: 3 });
      foreignQuota = await createQuota({ name: 'Other event' }, OTHER);
    });

    it('answers 401 without credentials on every quota route', async () => {
      const anonymous = [
        t.http().get(`${E}/quotas/`),
        t.http().get(`${E}/quotas/${quota.id}/`),
        t.http().get(`${E}/quotas/${quota.id}/availability/`),
        t.http().post(`${E}/quotas/`).send({ name: 'Q' }),
        t.http().patch(`${E}/quotas/${quota.id}/`).send({ size: 1 }),
        t.http().put(`${E}/quotas/${quota.id}/`).send({ name: 'Q' }),
        t.http().delete(`${E}/quota/${quota.id}/`),
        t.http().delete(`${E}/quotas/${quota.id}/`),
      ];
      for (const req of anonymous) {
        const res = await req;
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      }
    });

    it('lets a team with event access but without event.items:write read, not write', async () => {
      expect((await get(`${E}/quotas/`, reader)).status).toBe(200);
      expect((await get(`${E}/quotas/${quota.id}/?with_availability=true`, reader)).status).toBe(200);
      expect((await get(`${E}/quotas/${quota.id}/availability/`, reader)).status).toBe(200);
      for (const res of [
        await post(`${E}/quotas/`, { name: 'Q' }, reader),
        await patch(`${E}/quotas/${quota.id}/`, { size: 1 }, reader),
        await put(`${E}/quotas/${quota.id}/`, { name: 'Q' }, reader),
        await del(`${E}/quota/${quota.id}/`, reader),
        await del(`${E}/quotas/${quota.id}/`, reader),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(`${E}/quotas/${quota.id}/`)).body).toMatchObject({ name: 'Scoped', size: 3 });
    });

    it('answers 403 to a team limited to another event, even with event.items:write', async () => {
      for (const res of [
        await get(`${E}/quotas/`, outsider),
        await get(`${E}/quotas/${quota.id}/availability/`, outsider),
        await post(`${E}/quotas/`, { name: 'Q' }, outsider),
        await del(`${E}/quota/${quota.id}/`, outsider),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
    });

    it('answers 404 for the id of a quota of another event on every detail route', async () => {
      const id = foreignQuota.id;
      for (const res of [
        await get(`${E}/quotas/${id}/`),
        await get(`${E}/quotas/${id}/?with_availability=true`),
        await get(`${E}/quotas/${id}/availability/`),
        await patch(`${E}/quotas/${id}/`, { name: 'Hijacked' }),
        await put(`${E}/quotas/${id}/`, { name: 'Hijacked' }),
        await del(`${E}/quota/${id}/`),
        await del(`${E}/quotas/${id}/`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
      expect((await get(`${OTHER}/quotas/${id}/`)).body).toEqual({
        ...DEFAULT_QUOTA,
        id,
        name: 'Other event',
      });
    });

    it('answers 404 for ids that cannot name a quota', async () => {
      for (const path of ['abc', '0', '1e3', '99999999999']) {
        const res = await get(`${E}/quotas/${path}/`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
    });
  });

  describe('list', () => {
    const L = `${ORG}/listing`;
    let ids: Record<string, number>;
    let adult: number;
    let child: number;

    beforeAll(async () => {
      await createEvent(t, token, 'org', { slug: 'listing' });
      adult = await createItem({ name: 'Adult' }, L);
      child = await createItem({ name: 'Child' }, L);
      ids = {};
      for (const [key, body] of [
        ['big', { name: 'Big', size: 100, items: [adult] }],
        ['unlimited', { name: 'Unlimited', size: null, items: [child] }],
        ['tiny', { name: 'Tiny', size: 1, items: [adult, child] }],
        ['empty', { name: 'Empty', size: 10 }],
      ] as const) {
        ids[key] = (await createQuota(body, L)).id;
      }
    });

    const keysOf = (res: { body: { results: { id: number }[] } }) =>
      res.body.results.map((r) => Object.keys(ids).find((k) => ids[k] === r.id));

    it('lists the quotas of the event in the envelope, by id by default', async () => {
      const res = await get(`${L}/quotas/`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(4);
      expect(res.body.next).toBeNull();
      expect(res.body.previous).toBeNull();
      expect(keysOf(res)).toEqual(['big', 'unlimited', 'tiny', 'empty']);
      expect(res.body.results[0]).toEqual({
        ...DEFAULT_QUOTA,
        id: ids.big,
        name: 'Big',
        size: 100,
        items: [adult],
      });
      expect(res.body.results[2].items).toEqual([adult, child].sort((a, b) => a - b));
      expect(res.body.results[0]).not.toHaveProperty('available');
    });

    it.each([
      ['ordering=id', ['big', 'unlimited', 'tiny', 'empty']],
      ['ordering=-id', ['empty', 'tiny', 'unlimited', 'big']],
      ['ordering=position', ['big', 'unlimited', 'tiny', 'empty']],
      ['ordering=-position', ['empty', 'tiny', 'unlimited', 'big']],
      ['ordering=size', ['tiny', 'empty', 'big', 'unlimited']],
      ['ordering=-size', ['unlimited', 'big', 'empty', 'tiny']],
      ['ordering=name', ['big', 'unlimited', 'tiny', 'empty']],
    ])('orders by %s', async (query, expected) => {
      const res = await get(`${L}/quotas/?${query}`);
      expect(res.status).toBe(200);
      expect(keysOf(res)).toEqual(expected);
    });

    it.each([
      ['subevent=1', []],
      ['subevent__in=1,2', []],
      ['items__in=ADULT', ['big', 'tiny']],
      ['items__in=CHILD', ['unlimited', 'tiny']],
      ['items__in=ADULT,CHILD', ['big', 'unlimited', 'tiny']],
      ['items__in=999999', []],
      ['items__in=ADULT&ordering=-id', ['tiny', 'big']],
    ])('filters by %s', async (query, expected) => {
      const res = await get(
        `${L}/quotas/?${query.replace('ADULT', String(adult)).replace('CHILD', String(child))}`,
      );
      expect(res.status).toBe(200);
      expect(keysOf(res)).toEqual(expected);
      expect(res.body.count).toBe(expected.length);
    });

    it.each([
      ['subevent=abc', { subevent: ['Enter a whole number.'] }],
      ['subevent__in=1,x', { subevent__in: ['Enter a whole number.'] }],
      ['items__in=a', { items__in: ['Enter a whole number.'] }],
    ])('answers 400 for %s', async (query, errors) => {
      const res = await get(`${L}/quotas/?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
    });

    it('paginates', async () => {
      const res = await get(`${L}/quotas/?page_size=3&page=2`);
      expect(res.body.count).toBe(4);
      expect(keysOf(res)).toEqual(['empty']);
      expect(res.body.next).toBeNull();
      expect(res.body.previous).toMatch(/\/quotas\/\?page_size=3$/);
      expect((await get(`${L}/quotas/?page=3&page_size=3`)).status).toBe(404);
    });

    it('adds available and available_number with with_availability=true', async () => {
      const res = await get(`${L}/quotas/?with_availability=true`);
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: Record<string, unknown>) => [r.available, r.available_number])).toEqual(
        [
          [true, 100],
          [true, null],
          [true, 1],
          [true, 10],
        ],
      );
      const without = await get(`${L}/quotas/?with_availability=no`);
      expect(without.body.results[0]).not.toHaveProperty('available');
    });

    it('shows only quotas of the event in the URL', async () => {
      const res = await get(`${E}/quotas/?page_size=50`);
      const shown = res.body.results.map((r: { id: number }) => r.id);
      for (const id of Object.values(ids)) expect(shown).not.toContain(id);
    });

    it('answers 304 to If-Modified-Since when no quota changed since, and 200 after a change', async () => {
      const first = await get(`${L}/quotas/`);
      const lastModified = first.headers['last-modified'];
      expect(typeof lastModified).toBe('string');
      const notModified = await get(`${L}/quotas/`).set('If-Modified-Since', lastModified);
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
      await new Promise((r) => setTimeout(r, 1100));
      expect((await patch(`${L}/quotas/${ids.empty}/`, { size: 11 })).status).toBe(200);
      const fresh = await get(`${L}/quotas/`).set('If-Modified-Since', lastModified);
      expect(fresh.status).toBe(200);
      expect(Date.parse(fresh.headers['last-modified'])).toBeGreaterThan(Date.parse(lastModified));
    });

    it('runs the same number of SQL statements whatever the page size, with and without availability', async () => {
      await createEvent(t, token, 'org', { slug: 'stats' });
      const S = `${ORG}/stats`;
      const a = await createItem({ name: 'A' }, S);
      const b = await createItem({ name: 'B', has_variations: true }, S);
      const bv = await addVariation(b, 'Blue');
      const quotaIds: number[] = [];
      for (let i = 0; i < 3; i++) {
        quotaIds.push(
          (await createQuota({ name: `Q${i}`, size: 50, items: [a, b], variations: [bv] }, S)).id,
        );
      }
      await blockingVoucher('stats', { item: a }, 2);
      await blockingVoucher('stats', { variation: bv });
      await blockingVoucher('stats', { quota: quotaIds[2] }, 3);
      const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      try {
        const count = async (query: string) => {
          spy.mockClear();
          const res = await get(`${S}/quotas/?${query}`);
          expect(res.status).toBe(200);
          return { body: res.body, statements: spy.mock.calls.length };
        };
        // Both pages are full, so both run the row and the count statement (TypeORM skips the count otherwise).
        const one = await count('page_size=1');
        const three = await count('page_size=3');
        expect(one.body.results).toHaveLength(1);
        expect(three.body.results).toHaveLength(3);
        expect(three.statements).toBe(one.statements);

        const oneA = await count('page_size=1&with_availability=true');
        const threeA = await count('page_size=3&with_availability=true');
        expect(threeA.body.results.map((r: Record<string, unknown>) => r.available_number)).toEqual([
          47, 47, 44,
        ]);
        expect(threeA.statements).toBe(oneA.statements);
        // The availability costs exactly one statement (the engine's: orders, carts and blocking vouchers
        // together), however many quotas.
        expect(threeA.statements).toBe(three.statements + 1);
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('update', () => {
    it('PATCH changes only the sent fields, and a second GET shows the change', async () => {
      const created = await createQuota({ name: 'Patch me', size: 10, items: [plain] });
      const res = await patch(`${E}/quotas/${created.id}/`, { size: 20, release_after_exit: true });
      expect(res.status).toBe(200);
      const expected = { ...created, size: 20, release_after_exit: true };
      expect(res.body).toEqual(expected);
      expect((await get(`${E}/quotas/${created.id}/`)).body).toEqual(expected);
      expect(await logActions(created.id)).toEqual([
        'pretix.event.quota.added',
        'pretix.event.quota.changed',
      ]);
    });

    it('PATCH of items and variations replaces the stored links', async () => {
      const created = await createQuota({ name: 'Links', items: [plain] });
      const res = await patch(`${E}/quotas/${created.id}/`, { items: [shirt], variations: [large] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...created, items: [shirt], variations: [large] });
      expect(await links(created.id)).toEqual({ items: [shirt], variations: [large] });
      const cleared = await patch(`${E}/quotas/${created.id}/`, { items: [], variations: [] });
      expect(cleared.body).toEqual({ ...created, items: [], variations: [] });
      expect(await links(created.id)).toEqual({ items: [], variations: [] });
    });

    it('checks the rules on the stored data merged with the PATCH', async () => {
      const created = await createQuota({ name: 'Merged', items: [shirt], variations: [small] });
      const dropVariations = await patch(`${E}/quotas/${created.id}/`, { variations: [] });
      expect(dropVariations.status).toBe(400);
      expect(dropVariations.body).toEqual({
        non_field_errors: ['One or more items has variations but none of these are in the variations list.'],
      });
      const dropItems = await patch(`${E}/quotas/${created.id}/`, { items: [plain] });
      expect(dropItems.status).toBe(400);
      expect(dropItems.body).toEqual({
        non_field_errors: ['All variations must belong to an item contained in the items list.'],
      });
      const foreign = await patch(`${E}/quotas/${created.id}/`, { items: [shirt, otherItem] });
      expect(foreign.body).toEqual({ non_field_errors: ['One or more items do not belong to this event.'] });
      const unknown = await patch(`${E}/quotas/${created.id}/`, { variations: [small, 999100] });
      expect(unknown.body).toEqual({ variations: ['Invalid pk "999100" - object does not exist.'] });
      expect((await patch(`${E}/quotas/${created.id}/`, { name: null })).body).toEqual({
        name: ['This field may not be null.'],
      });
      expect((await patch(`${E}/quotas/${created.id}/`, { size: -1 })).body).toEqual({
        size: ['Ensure this value is greater than or equal to 0.'],
      });
      expect((await get(`${E}/quotas/${created.id}/`)).body).toEqual(created);
      expect(await links(created.id)).toEqual({ items: [shirt], variations: [small] });
      expect(await logActions(created.id)).toEqual(['pretix.event.quota.added']);
    });

    it('PUT resets omitted fields to their defaults', async () => {
      const created = await createQuota({
        name: 'Put me',
        size: 5,
        items: [plain],
        release_after_exit: true,
        ignore_for_event_availability: true,
      });
      const res = await put(`${E}/quotas/${created.id}/`, { name: 'Replaced', size: 7 });
      expect(res.status).toBe(200);
      const expected = { ...DEFAULT_QUOTA, id: created.id, name: 'Replaced', size: 7 };
      expect(res.body).toEqual(expected);
      expect((await get(`${E}/quotas/${created.id}/`)).body).toEqual(expected);
      expect(await links(created.id)).toEqual({ items: [], variations: [] });
    });

    it('PUT requires the name', async () => {
      const created = await createQuota({ name: 'Needs name', size: 2 });
      const res = await put(`${E}/quotas/${created.id}/`, { size: 3 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ name: ['This field is required.'] });
      expect((await get(`${E}/quotas/${created.id}/`)).body).toEqual(created);
    });

    it('PATCH that changes nothing writes and logs nothing', async () => {
      const created = await createQuota({
        name: 'Same',
        size: 3,
        items: [plain, shirt],
        variations: [small],
      });
      const res = await patch(`${E}/quotas/${created.id}/`, {
        name: 'Same',
        size: 3,
        items: [shirt, plain],
        variations: [small],
        closed: false,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(created);
      expect((await patch(`${E}/quotas/${created.id}/`, {})).status).toBe(200);
      expect(await logActions(created.id)).toEqual(['pretix.event.quota.added']);
    });
  });

  describe('closed and close_when_sold_out (spec "States and transitions")', () => {
    it('logs closed when closed goes from false to true and opened when it goes back', async () => {
      const created = await createQuota({ name: 'Toggle', size: 5 });
      const closed = await patch(`${E}/quotas/${created.id}/`, { closed: true });
      expect(closed.status).toBe(200);
      expect(closed.body.closed).toBe(true);
      const opened = await patch(`${E}/quotas/${created.id}/`, { closed: false });
      expect(opened.status).toBe(200);
      expect(opened.body.closed).toBe(false);
      expect((await get(`${E}/quotas/${created.id}/`)).body.closed).toBe(false);
      expect(await logActions(created.id)).toEqual([
        'pretix.event.quota.added',
        'pretix.event.quota.closed',
        'pretix.event.quota.changed',
        'pretix.event.quota.opened',
        'pretix.event.quota.changed',
      ]);
    });

    it('closes a quota created sold out with close_when_sold_out', async () => {
      const res = await post(`${E}/quotas/`, { name: 'Zero', size: 0, close_when_sold_out: true });
      expect(res.status).toBe(201);
      expect(res.body.closed).toBe(true);
      expect((await get(`${E}/quotas/${res.body.id}/`)).body.closed).toBe(true);
      expect(await logActions(res.body.id)).toEqual([
        'pretix.event.quota.added',
        'pretix.event.quota.closed',
      ]);
    });

    it('leaves unlimited and not-sold-out quotas with close_when_sold_out open', async () => {
      const unlimited = await createQuota({ name: 'Unlimited', size: null, close_when_sold_out: true });
      const roomy = await createQuota({ name: 'Roomy', size: 1, close_when_sold_out: true });
      const zeroWithoutFlag = await createQuota({ name: 'Zero', size: 0 });
      for (const quota of [unlimited, roomy, zeroWithoutFlag]) expect(quota.closed).toBe(false);
      expect(await logActions(roomy.id)).toEqual(['pretix.event.quota.added']);
    });

    it('closes a quota that an update sells out, and keeps it closed when capacity returns', async () => {
      const item = await createItem({ name: 'Sold out' });
      const created = await createQuota({
        name: 'Sells out',
        size: 5,
        items: [item],
        close_when_sold_out: true,
      });
      await blockingVoucher('sample', { item }, 3);
      const shrunk = await patch(`${E}/quotas/${created.id}/`, { size: 3 });
      expect(shrunk.status).toBe(200);
      expect(shrunk.body).toEqual({ ...created, size: 3, closed: true });
      const grown = await patch(`${E}/quotas/${created.id}/`, { size: 10 });
      expect(grown.status).toBe(200);
      expect(grown.body).toEqual({ ...created, size: 10, closed: true });
      const availability = await get(`${E}/quotas/${created.id}/availability/`);
      expect(availability.body).toMatchObject({
        available: false,
        available_number: 0,
        blocking_vouchers: 3,
      });
      expect(await logActions(created.id)).toEqual([
        'pretix.event.quota.added',
        'pretix.event.quota.changed',
        'pretix.event.quota.closed',
        'pretix.event.quota.changed',
      ]);
    });

    it('reopens a closed quota through PATCH closed=false, and sales resume', async () => {
      const created = await createQuota({ name: 'Reopen', size: 0, close_when_sold_out: true });
      expect(created.closed).toBe(true);
      const reopened = await patch(`${E}/quotas/${created.id}/`, { closed: false, size: 4 });
      expect(reopened.status).toBe(200);
      expect(reopened.body).toEqual({ ...created, size: 4, closed: false });
      expect((await get(`${E}/quotas/${created.id}/availability/`)).body).toMatchObject({
        available: true,
        available_number: 4,
      });
      expect(await logActions(created.id)).toEqual([
        'pretix.event.quota.added',
        'pretix.event.quota.closed',
        'pretix.event.quota.opened',
        'pretix.event.quota.changed',
      ]);
    });

    it('does not close again in the update that reopens a sold-out quota', async () => {
      const created = await createQuota({ name: 'Still full', size: 0, close_when_sold_out: true });
      const reopened = await patch(`${E}/quotas/${created.id}/`, { closed: false });
      expect(reopened.status).toBe(200);
      expect(reopened.body.closed).toBe(false);
      expect((await get(`${E}/quotas/${created.id}/`)).body.closed).toBe(false);
    });

    it('never writes on reads, even for a sold-out quota with close_when_sold_out', async () => {
      const item = await createItem({ name: 'Read only' });
      const created = await createQuota({
        name: 'Read only',
        size: 2,
        items: [item],
        close_when_sold_out: true,
      });
      await blockingVoucher('sample', { item }, 2);
      const detail = await get(`${E}/quotas/${created.id}/?with_availability=true`);
      expect(detail.body).toMatchObject({ closed: false, available: false, available_number: 0 });
      expect((await get(`${E}/quotas/?with_availability=true`)).status).toBe(200);
      expect((await get(`${E}/quotas/${created.id}/availability/`)).body.available_number).toBe(0);
      const stored: { closed: boolean }[] = await t.db.query('SELECT closed FROM quota WHERE id = $1', [
        created.id,
      ]);
      expect(stored[0].closed).toBe(false);
      expect(await logActions(created.id)).toEqual(['pretix.event.quota.added']);
    });
  });

  describe('delete', () => {
    it.each([
      ['the singular form E/quota/{id}/', 'quota'],
      ['the plural form E/quotas/{id}/', 'quotas'],
    ])('deletes through %s with its links, and logs it', async (_label, segment) => {
      const created = await createQuota({ name: 'Doomed', items: [shirt], variations: [small, large] });
      const res = await del(`${E}/${segment}/${created.id}/`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await get(`${E}/quotas/${created.id}/`)).status).toBe(404);
      expect(await links(created.id)).toEqual({ items: [], variations: [] });
      expect(await logActions(created.id)).toEqual([
        'pretix.event.quota.added',
        'pretix.event.quota.deleted',
      ]);
      expect((await del(`${E}/${segment}/${created.id}/`)).status).toBe(404);
    });

    it('deletes a quota that is in use (blocking vouchers on it)', async () => {
      const item = await createItem({ name: 'Used' });
      const created = await createQuota({ name: 'Used', size: 5, items: [item] });
      await blockingVoucher('sample', { quota: created.id }, 2);
      const res = await del(`${E}/quota/${created.id}/`);
      expect(res.status).toBe(204);
      const rows: unknown[] = await t.db.query('SELECT 1 FROM quota WHERE id = $1', [created.id]);
      expect(rows).toHaveLength(0);
      const items: unknown[] = await t.db.query('SELECT 1 FROM item WHERE id = $1', [item]);
      expect(items).toHaveLength(1);
    });
  });
});
