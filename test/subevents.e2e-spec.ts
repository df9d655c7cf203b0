import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * `E/subevents/` CRUD and `O/subevents/` (spec "Sub-event", "Sub-events"; compat §3.17; permissions per
 * docs/permissions.md: create `organizer.events:create`, update/delete `event.subevents:write`).
 */
describe('sub-events', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let reader: string;
  let creator: string;
  const O = '/api/v1/organizers/org';
  const S = `${O}/events/series/subevents/`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const put = (path: string, body: object, tok = token) =>
    t.http().put(path).set('Authorization', auth(tok)).send(body);
  const del = (path: string, tok = token) => t.http().delete(path).set('Authorization', auth(tok));

  type Body = { id: number } & Record<string, unknown>;
  const minimal = { name: { en: 'Day 1' }, date_from: '2031-05-01T10:00:00Z' };

  async function createDate(body: object = {}, base = S): Promise<Body> {
    const res = await post(base, { ...minimal, ...body });
    if (res.status !== 201) throw new Error(`createDate: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Body;
  }
  async function createItem(slug = 'series', body: object = {}): Promise<number> {
    const res = await post(`${O}/events/${slug}/items/`, { name: 'Ticket', default_price: '10.00', ...body });
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as Body).id;
  }
  async function row(id: number): Promise<Record<string, unknown> | undefined> {
    const rows: Record<string, unknown>[] = await t.db.query('SELECT * FROM subevent WHERE id = $1', [id]);
    return rows[0];
  }
  async function itemPrices(id: number): Promise<{ item_id: number; price: string | null }[]> {
    return t.db.query(
      'SELECT item_id, price FROM subevent_item_price WHERE subevent_id = $1 ORDER BY item_id',
      [id],
    );
  }
  async function actions(id: number): Promise<string[]> {
    const rows: { action_type: string }[] = await t.db.query(
      "SELECT action_type FROM log_entry WHERE content_type = 'subevent' AND object_id = $1 ORDER BY id",
      [id],
    );
    return rows.map((r) => r.action_type);
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    ({ token: otherToken } = await bootstrapOrganizer(t, 'org2'));
    await createSeries(t, token, 'org', { slug: 'series' });
    await createSeries(t, token, 'org', { slug: 'series2' });
    await createEvent(t, token, 'org', { slug: 'single' });
    await createSeries(t, otherToken, 'org2', { slug: 'foreign' });
    reader = await teamToken(t, 'org', { allEvents: true });
    creator = await teamToken(t, 'org', {
      allEvents: true,
      organizerPermissions: ['organizer.events:create'],
    });
    for (const [name, extra] of [
      ['type', { allowed_values: ['fair', 'talk'], default: 'fair' }],
      ['room', {}],
    ] as const) {
      expect((await post(`${O}/event_meta_properties/`, { name, ...extra })).status).toBe(201);
    }
  });
  afterAll(() => t.close());

  describe('create and read', () => {
    it('creates with defaults and answers every field; GET and the DB agree; logs added', async () => {
      const res = await post(S, minimal);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: { en: 'Day 1' },
        event: 'series',
        active: false,
        is_public: true,
        date_from: '2031-05-01T10:00:00Z',
        date_to: null,
        date_admission: null,
        presale_start: null,
        presale_end: null,
        location: null,
        geo_lat: null,
        geo_lon: null,
        frontpage_text: null,
        comment: null,
        item_price_overrides: [],
        variation_price_overrides: [],
        meta_data: {},
        seating_plan: null,
        seat_category_mapping: {},
        last_modified: expect.any(String),
      });
      const id = (res.body as Body).id;
      expect((await get(`${S}${id}/`)).body).toEqual(res.body);
      expect(await row(id)).toMatchObject({ active: false, is_public: true, meta_data: {} });
      expect(await actions(id)).toEqual(['pretix.subevent.added']);
    });

    it('stores every field: overrides, meta data, location, geo', async () => {
      const item = await createItem();
      const variationItem = await createItem('series', { name: 'Shirt', variations: [{ value: 'S' }] });
      const variation = (
        (await get(`${O}/events/series/items/${variationItem}/`)).body as {
          variations: { id: number }[];
        }
      ).variations[0].id;
      const body = await createDate({
        name: 'Day 2',
        active: true,
        is_public: false,
        date_to: '2031-05-02T18:00:00Z',
        date_admission: '2031-05-01T09:00:00Z',
        presale_start: '2031-01-01T00:00:00Z',
        presale_end: '2031-04-30T00:00:00Z',
        location: 'Hall A',
        geo_lat: 52.5,
        geo_lon: 13.4,
        item_price_overrides: [{ item, price: 12.5 }],
        variation_price_overrides: [{ variation, price: null }],
        meta_data: { type: 'talk' },
        comment: 'internal',
      });
      expect(body).toMatchObject({
        name: { en: 'Day 2' },
        active: true,
        is_public: false,
        location: { en: 'Hall A' },
        geo_lat: 52.5,
        geo_lon: 13.4,
        item_price_overrides: [{ item, price: '12.50' }],
        variation_price_overrides: [{ variation, price: null }],
        meta_data: { type: 'talk' },
        comment: 'internal',
      });
      expect(await itemPrices(body.id)).toEqual([{ item_id: item, price: '12.50' }]);
    });

    it('refuses a date on an event that is not a series (400, nothing stored)', async () => {
      const res = await post(`${O}/events/single/subevents/`, minimal);
      expect([res.status, res.body]).toEqual([
        400,
        { non_field_errors: ['Sub-events can only be created for event series.'] },
      ]);
      const rows: unknown[] = await t.db.query(
        "SELECT 1 FROM subevent s JOIN event e ON e.id = s.event_id WHERE e.slug = 'single'",
      );
      expect(rows).toHaveLength(0);
    });

    it('validates dates, meta data, overrides and the seating plan', async () => {
      const cases: [object, unknown][] = [
        [
          { date_to: '2031-04-30T00:00:00Z' },
          { non_field_errors: ['The event cannot end before it starts.'] },
        ],
        [
          { presale_start: '2031-02-01T00:00:00Z', presale_end: '2031-01-01T00:00:00Z' },
          { non_field_errors: ["The event's presale cannot end before it starts."] },
        ],
        [{ meta_data: { foo: 'x' } }, { meta_data: ["Meta data property 'foo' does not exist."] }],
        [
          { meta_data: { type: 'bar' } },
          { meta_data: ["Meta data property 'type' does not allow value 'bar'."] },
        ],
        [
          { item_price_overrides: [{ item: 999999, price: '1.00' }] },
          { item_price_overrides: [{ item: ['Invalid pk "999999" - object does not exist.'] }] },
        ],
        [{ seating_plan: 999999 }, { seating_plan: ['Invalid pk "999999" - object does not exist.'] }],
        [{ name: undefined }, { name: ['This field is required.'] }],
      ];
      for (const [body, errors] of cases) {
        const res = await post(S, { ...minimal, ...body });
        expect([res.status, res.body]).toEqual([400, errors]);
      }
      const foreignItem = await createItem('single');
      const res = await post(S, { ...minimal, item_price_overrides: [{ item: foreignItem, price: '1.00' }] });
      expect([res.status, res.body]).toEqual([
        400,
        { non_field_errors: ['One or more items do not belong to this event.'] },
      ]);
    });
  });

  describe('update and delete', () => {
    it('PATCH changes the fields sent and keeps the overrides unless sent; PUT resets', async () => {
      const item = await createItem();
      const item2 = await createItem();
      const d = await createDate({ item_price_overrides: [{ item, price: '5.00' }], location: 'X' });
      const patched = await patch(`${S}${d.id}/`, { active: true, meta_data: { room: '1' } });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        active: true,
        location: { en: 'X' },
        meta_data: { room: '1' },
        item_price_overrides: [{ item, price: '5.00' }],
      });
      const replaced = await patch(`${S}${d.id}/`, {
        item_price_overrides: [{ item: item2, price: null }],
      });
      // pretix 2026: entries also carry disabled and the sales window (defaults when not sent)
      expect(replaced.body.item_price_overrides).toEqual([
        { item: item2, price: null, disabled: false, available_from: null, available_until: null },
      ]);
      expect(await itemPrices(d.id)).toEqual([{ item_id: item2, price: null }]);
      const bad = await patch(`${S}${d.id}/`, { date_to: '2000-01-01T00:00:00Z' });
      expect(bad.status).toBe(400);
      const put1 = await put(`${S}${d.id}/`, { name: 'Reset', date_from: '2031-06-01T10:00:00Z' });
      expect(put1.status).toBe(200);
      expect(put1.body).toMatchObject({
        name: { en: 'Reset' },
        active: false,
        location: null,
        meta_data: {},
        item_price_overrides: [],
      });
      expect(await itemPrices(d.id)).toEqual([]);
      expect(await actions(d.id)).toEqual([
        'pretix.subevent.added',
        'pretix.subevent.changed',
        'pretix.subevent.changed',
        'pretix.subevent.changed',
      ]);
    });

    it('DELETE answers 204 and removes the date with its quotas; 403 once orders use it', async () => {
      const d = await createDate();
      const quota = await post(`${O}/events/series/quotas/`, { name: 'Q', subevent: d.id });
      expect(quota.status).toBe(201);
      expect((await del(`${S}${d.id}/`)).status).toBe(204);
      expect(await row(d.id)).toBeUndefined();
      const quotas: unknown[] = await t.db.query('SELECT 1 FROM quota WHERE id = $1', [
        (quota.body as Body).id,
      ]);
      expect(quotas).toHaveLength(0);
      expect(await actions(d.id)).toEqual(['pretix.subevent.added', 'pretix.subevent.deleted']);
      expect((await get(`${S}${d.id}/`)).status).toBe(404);

      const used = await createDate();
      const item = await createItem();
      await post(`${O}/events/series/quotas/`, { name: 'Q', subevent: used.id, items: [item], size: 10 });
      const order = await post(`${O}/events/series/orders/`, {
        positions: [{ item, subevent: used.id }],
      });
      expect(order.status).toBe(201);
      const res = await del(`${S}${used.id}/`);
      expect([res.status, res.body]).toEqual([
        403,
        {
          detail:
            "The sub-event can not be deleted as it has already been used in orders. Please set 'active' to false instead to hide it from users.",
        },
      ]);
      expect(await row(used.id)).toMatchObject({ id: used.id });
    });

    it('permissions: read with event access, create with organizer.events:create, write with event.subevents:write', async () => {
      const d = await createDate();
      expect((await get(S, reader)).status).toBe(200);
      expect((await get(`${S}${d.id}/`, reader)).status).toBe(200);
      expect([(await post(S, minimal, reader)).status, (await post(S, minimal, reader)).body]).toEqual([
        403,
        DENIED,
      ]);
      expect((await post(S, minimal, creator)).status).toBe(201);
      expect((await patch(`${S}${d.id}/`, { active: true }, creator)).status).toBe(403);
      expect((await del(`${S}${d.id}/`, creator)).status).toBe(403);
      expect((await row(d.id))?.active).toBe(false);
      expect((await get(`${O}/events/series2/subevents/${d.id}/`)).status).toBe(404);
      expect((await get(S, otherToken)).status).toBe(403);
    });
  });

  describe('lists and filters', () => {
    const ids: Record<string, number> = {};
    const L = `${O}/events/series2/subevents/`;
    const names = (body: { results: { name: { en: string } }[] }) => body.results.map((r) => r.name.en);

    beforeAll(async () => {
      await t.db.query(
        "UPDATE event SET meta_data = '{\"room\": \"blue\"}' WHERE slug = 'series2' AND organizer_id = (SELECT id FROM organizer WHERE slug = 'org')",
      );
      const make = async (name: string, body: object) => {
        ids[name] = (await createDate({ name, ...body }, L)).id;
      };
      await make('past', { date_from: '2019-01-01T10:00:00Z', active: true });
      await make('future', {
        date_from: '2031-01-01T10:00:00Z',
        is_public: false,
        meta_data: { type: 'talk' },
      });
      await make('running', {
        date_from: '2020-01-01T10:00:00Z',
        date_to: '2035-01-01T10:00:00Z',
        active: true,
        meta_data: { room: 'red' },
      });
    });

    it('orders by date_from by default, also by id and last_modified', async () => {
      expect(names((await get(L)).body)).toEqual(['past', 'running', 'future']);
      expect(names((await get(`${L}?ordering=-date_from`)).body)).toEqual(['future', 'running', 'past']);
      expect(names((await get(`${L}?ordering=id`)).body)).toEqual(['past', 'future', 'running']);
      expect((await get(`${L}?ordering=last_modified`)).status).toBe(200);
    });

    it.each([
      ['active=true', ['past', 'running']],
      ['active=false', ['future']],
      ['is_public=false', ['future']],
      ['is_future=true', ['running', 'future']],
      ['is_future=false', ['past']],
      ['is_past=true', ['past']],
      ['ends_after=2030-01-01T00:00:00Z', ['running', 'future']],
      ['attr[type]=talk', ['future']],
      ['attr[type]=fair', ['past', 'running']],
      ['attr[room]=blue', ['past', 'future']],
      ['attr[room]=red', ['running']],
      ['attr[room]=', []],
    ])('?%s', async (query, expected) => {
      const res = await get(`${L}?${query}`);
      expect(res.status).toBe(200);
      expect(names(res.body)).toEqual(expected);
    });

    it('an empty attr value matches dates without a value (no default)', async () => {
      await t.db.query(
        "UPDATE event SET meta_data = '{}' WHERE slug = 'series2' AND organizer_id = (SELECT id FROM organizer WHERE slug = 'org')",
      );
      expect(names((await get(`${L}?attr[room]=`)).body)).toEqual(['past', 'future']);
    });

    it('refuses unparsable filter values', async () => {
      const res = await get(`${L}?ends_after=soon`);
      expect([res.status, res.body]).toEqual([400, { ends_after: ['Enter a valid date/time.'] }]);
      expect((await get(`${L}?active=maybe`)).body).toEqual({ active: ['Must be a valid boolean.'] });
    });

    it('O/subevents/ lists the dates of reachable series with event__live', async () => {
      const res = await get(`${O}/subevents/?ordering=id`);
      expect(res.status).toBe(200);
      const events = new Set((res.body.results as { event: string }[]).map((r) => r.event));
      expect([...events].sort()).toEqual(['series', 'series2']);
      const one = (res.body.results as Body[]).find((r) => r.id === ids.future);
      expect(one).toEqual((await get(`${L}${ids.future}/`)).body);
      expect((await get(`${O}/subevents/?event__live=true`)).body.count).toBe(0);
      await t.db.query("UPDATE event SET live = true WHERE slug = 'series2'");
      expect(names((await get(`${O}/subevents/?event__live=true`)).body)).toEqual([
        'past',
        'running',
        'future',
      ]);
      const limited = await teamToken(t, 'org', { limitEvents: ['series2'] });
      const seen = await get(`${O}/subevents/`, limited);
      expect((seen.body.results as { event: string }[]).every((r) => r.event === 'series2')).toBe(true);
      expect(seen.body.count).toBe(3);
    });
  });
});
