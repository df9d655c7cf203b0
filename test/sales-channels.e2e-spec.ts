import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * `O/saleschannels/` (pretix `SalesChannelViewSet`, tests/api/test_saleschannels.py): the built-in channels,
 * CRUD with pretix's rules and messages, permission `organizer.settings.general:write`, and the organizer's
 * channels as the ones items, variations, discounts, events and orders may name.
 */
describe('sales channels', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  const O = '/api/v1/organizers/org';
  const C = `${O}/saleschannels/`;
  const E = `${O}/events/sample`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const put = (path: string, body: object, tok = token) =>
    t.http().put(path).set('Authorization', auth(tok)).send(body);
  const del = (path: string, tok = token) => t.http().delete(path).set('Authorization', auth(tok));

  async function stored(identifier: string, org = 'org'): Promise<Record<string, unknown> | undefined> {
    const rows: Record<string, unknown>[] = await t.db.query(
      `SELECT identifier, type, label, position FROM sales_channel
        WHERE identifier = $1 AND organizer_id = (SELECT id FROM organizer WHERE slug = $2)`,
      [identifier, org],
    );
    return rows[0];
  }

  async function actions(): Promise<string[]> {
    const rows: { action_type: string }[] = await t.db.query(
      "SELECT action_type FROM log_entry WHERE content_type = 'saleschannel' ORDER BY id",
    );
    return rows.map((r) => r.action_type);
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    ({ token: otherToken } = await bootstrapOrganizer(t, 'org2'));
    await createEvent(t, token, 'org', { slug: 'sample' });
  });
  afterAll(() => t.close());

  describe('built-in channels', () => {
    it('lists web and api for every organizer, in pretix order', async () => {
      const res = await get(C);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: 2,
        next: null,
        previous: null,
        results: [
          { identifier: 'api', type: 'api', label: { en: 'API' }, position: 0 },
          { identifier: 'web', type: 'web', label: { en: 'Online shop' }, position: 0 },
        ],
      });
      expect((await get(`${'/api/v1/organizers/org2'}/saleschannels/`, otherToken)).body.count).toBe(2);
    });

    it('shows one channel by identifier and filters by type and identifier', async () => {
      const res = await get(`${C}web/`);
      expect([res.status, res.body]).toEqual([
        200,
        { identifier: 'web', type: 'web', label: { en: 'Online shop' }, position: 0 },
      ]);
      expect(
        (await get(`${C}?type=web`)).body.results.map((c: { identifier: string }) => c.identifier),
      ).toEqual(['web']);
      expect((await get(`${C}?identifier=api`)).body.results).toHaveLength(1);
      expect((await get(`${C}nope/`)).status).toBe(404);
    });

    it('refuses to delete a built-in channel (403, kept)', async () => {
      for (const id of ['web', 'api']) {
        const res = await del(`${C}${id}/`);
        expect([res.status, res.body]).toEqual([403, { detail: 'Can only be deleted if unused.' }]);
        expect(await stored(id)).toMatchObject({ identifier: id, type: id });
        expect((await get(`${C}${id}/`)).status).toBe(200);
      }
    });
  });

  describe('create', () => {
    it('creates an api channel, logs it, and lists it by position', async () => {
      const res = await post(C, { label: { en: 'API 1' }, type: 'api', identifier: 'api.1', position: 5 });
      expect([res.status, res.body]).toEqual([
        201,
        { identifier: 'api.1', type: 'api', label: { en: 'API 1' }, position: 5 },
      ]);
      expect(await stored('api.1')).toEqual({
        identifier: 'api.1',
        type: 'api',
        label: { en: 'API 1' },
        position: 5,
      });
      const list = await get(C);
      expect(list.body.results.map((c: { identifier: string }) => c.identifier)).toEqual([
        'api',
        'web',
        'api.1',
      ]);
      expect(await actions()).toContain('pretix.saleschannel.created');
    });

    it('defaults type to api and position to 0', async () => {
      const res = await post(C, { label: 'Box office', identifier: 'api.box' });
      expect([res.status, res.body]).toEqual([
        201,
        { identifier: 'api.box', type: 'api', label: { en: 'Box office' }, position: 0 },
      ]);
    });

    it("refuses other types, identifiers without 'api.', invalid characters and duplicates", async () => {
      const body = { label: { en: 'API 1' }, type: 'api', identifier: 'api.x', position: 5 };
      let res = await post(C, { ...body, type: 'foo' });
      expect([res.status, res.body]).toEqual([
        400,
        { type: ["You can currently only create channels of type 'api' through the API."] },
      ]);
      res = await post(C, { ...body, identifier: 'foo.1' });
      expect([res.status, res.body]).toEqual([
        400,
        { identifier: ["Your identifier needs to start with 'api.'."] },
      ]);
      res = await post(C, { ...body, identifier: 'api.Ungültig' });
      expect([res.status, res.body]).toEqual([
        400,
        { identifier: ['The identifier may only contain letters, numbers, dots, dashes, and underscores.'] },
      ]);
      res = await post(C, { ...body, identifier: 'api.1' });
      expect([res.status, res.body]).toEqual([
        400,
        { identifier: ['A sales channel with this identifier already exists.'] },
      ]);
      res = await post(C, { identifier: 'api.y' });
      expect([res.status, res.body]).toEqual([400, { label: ['This field is required.'] }]);
      expect(await stored('api.x')).toBeUndefined();
    });
  });

  describe('update', () => {
    it('changes label and position of a built-in channel and logs pretix.sales_channel.changed', async () => {
      const res = await patch(`${C}web/`, { label: { en: 'World Wide Web' }, position: 9000 });
      expect([res.status, res.body]).toEqual([
        200,
        { identifier: 'web', type: 'web', label: { en: 'World Wide Web' }, position: 9000 },
      ]);
      expect(await stored('web')).toEqual({
        identifier: 'web',
        type: 'web',
        label: { en: 'World Wide Web' },
        position: 9000,
      });
      expect(await actions()).toContain('pretix.sales_channel.changed');
    });

    it('refuses to change identifier or type', async () => {
      let res = await patch(`${C}web/`, { identifier: 'foobar' });
      expect([res.status, res.body]).toEqual([
        400,
        { identifier: ['You cannot change the identifier of a sales channel.'] },
      ]);
      res = await patch(`${C}web/`, { type: 'foobar' });
      expect([res.status, res.body]).toEqual([
        400,
        { type: ['You cannot change the type of a sales channel.'] },
      ]);
      expect((await stored('web'))!.type).toBe('web');
    });

    it('PUT keeps identifier and type when sent unchanged', async () => {
      const res = await put(`${C}api.1/`, { identifier: 'api.1', type: 'api', label: 'One' });
      expect([res.status, res.body]).toEqual([
        200,
        { identifier: 'api.1', type: 'api', label: { en: 'One' }, position: 0 },
      ]);
    });
  });

  describe('permissions', () => {
    it('needs organizer.settings.general:write to read and to write', async () => {
      const eventsOnly = await teamToken(t, 'org', {
        allEvents: true,
        allEventPermissions: true,
        organizerPermissions: ['organizer.events:create'],
      });
      expect((await get(C, eventsOnly)).body).toEqual(DENIED);
      expect((await get(`${C}web/`, eventsOnly)).status).toBe(403);
      expect((await post(C, { label: 'x', identifier: 'api.z' }, eventsOnly)).status).toBe(403);
      expect((await get(C, otherToken)).status).toBe(403);
    });
  });

  describe('as the channels of the catalogue, events and orders', () => {
    it('accepts the organizer channels in limit lists and refuses others with pretix message', async () => {
      let res = await post(`${E}/items/`, {
        name: 'Ticket',
        default_price: '10.00',
        all_sales_channels: false,
        limit_sales_channels: ['api.box', 'web'],
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        all_sales_channels: false,
        limit_sales_channels: ['api.box', 'web'],
        sales_channels: ['api.box', 'web'],
      });
      res = await post(`${E}/items/`, { name: 'Bad', default_price: '1.00', limit_sales_channels: ['bar'] });
      expect([res.status, res.body]).toEqual([
        400,
        { limit_sales_channels: ['Object with identifier=bar does not exist.'] },
      ]);
      res = await post(`${E}/items/`, { name: 'Bad', default_price: '1.00', sales_channels: ['web', 'box'] });
      expect([res.status, res.body]).toEqual([
        400,
        { limit_sales_channels: ['Object with identifier=box does not exist.'] },
      ]);
      // Another organizer's channel is unknown here.
      await post(
        `${'/api/v1/organizers/org2'}/saleschannels/`,
        { label: 'x', identifier: 'api.only2' },
        otherToken,
      );
      res = await post(`${E}/items/`, {
        name: 'Bad',
        default_price: '1.00',
        limit_sales_channels: ['api.only2'],
      });
      expect(res.status).toBe(400);
    });

    it("lists every organizer channel as the legacy sales_channels and maps the full list to 'all'", async () => {
      const all = ['api', 'api.1', 'api.box', 'web'];
      const res = await post(`${E}/items/`, { name: 'Everywhere', default_price: '5.00' });
      expect(res.body).toMatchObject({
        all_sales_channels: true,
        limit_sales_channels: [],
        sales_channels: all,
      });
      const legacy = await post(`${E}/items/`, {
        name: 'Legacy',
        default_price: '5.00',
        sales_channels: all,
      });
      expect(legacy.body).toMatchObject({ all_sales_channels: true, limit_sales_channels: [] });
      const partial = await post(`${E}/items/`, {
        name: 'Partial',
        default_price: '5.00',
        sales_channels: ['web', 'api'],
      });
      expect(partial.body).toMatchObject({ all_sales_channels: false, limit_sales_channels: ['api', 'web'] });
      const discount = await post(`${E}/discounts/`, {
        internal_name: 'D',
        condition_min_count: 2,
        limit_sales_channels: ['api.1'],
        all_sales_channels: false,
      });
      expect([discount.status, discount.body]).toMatchObject([201, {}]);
      expect(discount.body).toMatchObject({ limit_sales_channels: ['api.1'], sales_channels: ['api.1'] });
    });

    it('accepts an order through a custom channel; such a channel can then not be deleted', async () => {
      const item = await post(`${E}/items/`, { name: 'Seat', default_price: '0.00' });
      await post(`${E}/quotas/`, { name: 'Q', size: 10, items: [item.body.id] });
      let res = await post(`${E}/orders/`, {
        email: 'a@example.org',
        sales_channel: 'api.box',
        positions: [{ item: item.body.id }],
      });
      expect(res.status).toBe(201);
      expect(res.body.sales_channel).toBe('api.box');
      res = await post(`${E}/orders/`, {
        email: 'a@example.org',
        sales_channel: 'api.none',
        positions: [{ item: item.body.id }],
      });
      expect([res.status, res.body]).toEqual([400, { sales_channel: ['Unknown sales channel.'] }]);
      res = await del(`${C}api.box/`);
      expect([res.status, res.body]).toEqual([403, { detail: 'Can only be deleted if unused.' }]);
      expect(await stored('api.box')).toMatchObject({ identifier: 'api.box', type: 'api' });
      expect((await get(`${C}api.box/`)).status).toBe(200);
    });

    it('deletes an unused channel, removes it from limit lists, and logs it', async () => {
      const item = await post(`${E}/items/`, {
        name: 'Only 1',
        default_price: '1.00',
        all_sales_channels: false,
        limit_sales_channels: ['api.1', 'web'],
      });
      const event = await patch(`${E}/`, {
        all_sales_channels: false,
        limit_sales_channels: ['api.1', 'web'],
      });
      expect(event.status).toBe(200);
      const res = await del(`${C}api.1/`);
      expect(res.status).toBe(204);
      expect(await stored('api.1')).toBeUndefined();
      expect((await get(`${C}api.1/`)).status).toBe(404);
      expect((await get(`${E}/items/${item.body.id}/`)).body.limit_sales_channels).toEqual(['web']);
      expect((await get(`${E}/`)).body).toMatchObject({
        limit_sales_channels: ['web'],
        sales_channels: ['web'],
      });
      expect(await actions()).toContain('pretix.saleschannel.deleted');
    });
  });
});
