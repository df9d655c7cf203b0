import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { listStatements } from './sql-count';
import { startTestApp, TestApp } from './harness';

/**
 * `O/membershiptypes/` (compat §3.6; permissions per docs/permissions.md: reads and writes need
 * organizer.settings.general:write).
 */
describe('membership types', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let eventsOnly: string;
  let settingsOnly: string;
  const O = '/api/v1/organizers/org';
  const O2 = '/api/v1/organizers/org2';
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const IN_USE = { detail: 'Can only be deleted if unused.' };
  const DEFAULT_TYPE = {
    name: { en: 'Annual pass' },
    transferable: false,
    allow_parallel_usage: false,
    max_usages: null,
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

  type TypeBody = { id: number } & Record<string, unknown>;

  async function createType(body: object, base = O, tok = token): Promise<TypeBody> {
    const res = await post(`${base}/membershiptypes/`, { name: { en: 'Annual pass' }, ...body }, tok);
    if (res.status !== 201) throw new Error(`createType: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function logEntries(objectId: number): Promise<{ action_type: string; event_id: number | null }[]> {
    return t.db.query(
      "SELECT action_type, event_id FROM log_entry WHERE content_type = 'membershiptype' AND object_id = $1 ORDER BY id",
      [objectId],
    );
  }

  async function typeCount(): Promise<number> {
    const rows: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM membership_type');
    return Number(rows[0].n);
  }

  /** An item of the organizer's event; tests set its membership references in SQL (they test types, not items). */
  async function createItem(): Promise<number> {
    const res = await post(`${O}/events/sample/items/`, { name: 'Ticket', default_price: '10.00' });
    expect(res.status).toBe(201);
    return res.body.id as number;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    ({ token: otherToken } = await bootstrapOrganizer(t, 'org2'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    eventsOnly = await teamToken(t, 'org', {
      allEvents: true,
      allEventPermissions: true,
      organizerPermissions: ['organizer.events:create', 'organizer.teams:write'],
    });
    settingsOnly = await teamToken(t, 'org', { organizerPermissions: ['organizer.settings.general:write'] });
  });
  afterAll(() => t.close());

  describe('create and detail', () => {
    it('creates a type with the default representation, logged without an event', async () => {
      const res = await post(`${O}/membershiptypes/`, { name: { en: 'Annual pass' } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.any(Number), ...DEFAULT_TYPE });
      const again = await get(`${O}/membershiptypes/${res.body.id}/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
      expect(await logEntries(res.body.id)).toEqual([
        { action_type: 'pretix.membershiptype.created', event_id: null },
      ]);
    });

    it('stores every field', async () => {
      const body = {
        name: { en: 'Family pass', de: 'Familienpass' },
        transferable: true,
        allow_parallel_usage: true,
        max_usages: 10,
      };
      const res = await post(`${O}/membershiptypes/`, { ...body, id: 9999 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ ...body, id: res.body.id });
      expect(res.body.id).not.toBe(9999);
      expect((await get(`${O}/membershiptypes/${res.body.id}/`)).body).toEqual(res.body);
    });

    it('accepts a plain-string name and max_usages of 1', async () => {
      const res = await post(`${O}/membershiptypes/`, { name: 'Single', max_usages: 1 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ ...DEFAULT_TYPE, id: res.body.id, name: { en: 'Single' }, max_usages: 1 });
    });

    it.each<[object, object]>([
      [{}, { name: ['This field is required.'] }],
      [{ name: null }, { name: ['This field may not be null.'] }],
      [{ name: ['x'] }, { name: ['Invalid i18n string: expected an object or a string.'] }],
      [{ name: 'x', transferable: 'yes' }, { transferable: ['Must be a valid boolean.'] }],
      [{ name: 'x', transferable: null }, { transferable: ['This field may not be null.'] }],
      [{ name: 'x', allow_parallel_usage: 0 }, { allow_parallel_usage: ['Must be a valid boolean.'] }],
      [{ name: 'x', max_usages: 0 }, { max_usages: ['Ensure this value is greater than or equal to 1.'] }],
      [{ name: 'x', max_usages: -3 }, { max_usages: ['Ensure this value is greater than or equal to 1.'] }],
      [{ name: 'x', max_usages: 1.5 }, { max_usages: ['A valid integer is required.'] }],
      [{ name: 'x', max_usages: '5' }, { max_usages: ['A valid integer is required.'] }],
    ])('answers 400 for %j and creates nothing', async (body, errors) => {
      const before = await typeCount();
      const res = await post(`${O}/membershiptypes/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await typeCount()).toBe(before);
    });
  });

  describe('list', () => {
    let ids: number[];

    beforeAll(async () => {
      await t.db.query('DELETE FROM membership_type');
      ids = [];
      for (const name of ['A', 'B', 'C']) ids.push((await createType({ name })).id);
      await createType({ name: 'Foreign' }, O2, otherToken);
    });

    it("lists the organizer's types in id order", async () => {
      const res = await get(`${O}/membershiptypes/`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: 3,
        next: null,
        previous: null,
        results: ['A', 'B', 'C'].map((name, i) => ({ ...DEFAULT_TYPE, id: ids[i], name: { en: name } })),
      });
    });

    it.each([
      ['ordering=-id', [2, 1, 0]],
      ['ordering=id', [0, 1, 2]],
      ['ordering=name', [0, 1, 2]],
    ])('orders by %s', async (query, order) => {
      const res = await get(`${O}/membershiptypes/?${query}`);
      expect(res.body.results.map((r: TypeBody) => r.id)).toEqual(order.map((i) => ids[i]));
    });

    it('paginates', async () => {
      const res = await get(`${O}/membershiptypes/?page_size=2&page=2`);
      expect(res.body.count).toBe(3);
      expect(res.body.results.map((r: TypeBody) => r.id)).toEqual([ids[2]]);
      expect(res.body.next).toBeNull();
      expect((await get(`${O}/membershiptypes/?page=3&page_size=2`)).status).toBe(404);
    });

    it('runs the same number of SQL statements whatever the page size', async () => {
      const count = (query: string) => listStatements(() => get(`${O}/membershiptypes/?${query}`));
      const one = await count('page_size=1');
      const two = await count('page_size=2');
      expect([one.rows, two.rows]).toEqual([1, 2]);
      expect(two.statements).toBe(one.statements);
    });
  });

  describe('update', () => {
    it('PATCH changes only the sent fields, logs it, and a second GET shows the change', async () => {
      const type = await createType({ transferable: true, max_usages: 3 });
      const res = await patch(`${O}/membershiptypes/${type.id}/`, {
        allow_parallel_usage: true,
        max_usages: null,
      });
      expect(res.status).toBe(200);
      const expected = { ...type, allow_parallel_usage: true, max_usages: null };
      expect(res.body).toEqual(expected);
      expect((await get(`${O}/membershiptypes/${type.id}/`)).body).toEqual(expected);
      expect((await logEntries(type.id)).map((e) => e.action_type)).toEqual([
        'pretix.membershiptype.created',
        'pretix.membershiptype.changed',
      ]);
    });

    it('PATCH that changes nothing logs nothing', async () => {
      const type = await createType({ name: { en: 'Same', de: 'Gleich' }, max_usages: 2 });
      const res = await patch(`${O}/membershiptypes/${type.id}/`, {
        name: { de: 'Gleich', en: 'Same' },
        max_usages: 2,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(type);
      expect((await logEntries(type.id)).map((e) => e.action_type)).toEqual([
        'pretix.membershiptype.created',
      ]);
    });

    it('PATCH refuses null on non-nullable fields and invalid values, changing nothing', async () => {
      const type = await createType({});
      const res = await patch(`${O}/membershiptypes/${type.id}/`, {
        name: null,
        transferable: null,
        max_usages: 0,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        name: ['This field may not be null.'],
        transferable: ['This field may not be null.'],
        max_usages: ['Ensure this value is greater than or equal to 1.'],
      });
      expect((await get(`${O}/membershiptypes/${type.id}/`)).body).toEqual(type);
    });

    it('PUT resets omitted fields to their defaults', async () => {
      const type = await createType({ transferable: true, allow_parallel_usage: true, max_usages: 5 });
      const res = await put(`${O}/membershiptypes/${type.id}/`, { name: 'Renamed' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...DEFAULT_TYPE, id: type.id, name: { en: 'Renamed' } });
      expect((await get(`${O}/membershiptypes/${type.id}/`)).body).toEqual(res.body);
    });

    it('PUT requires the name', async () => {
      const type = await createType({});
      const res = await put(`${O}/membershiptypes/${type.id}/`, { transferable: true });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ name: ['This field is required.'] });
      expect((await get(`${O}/membershiptypes/${type.id}/`)).body).toEqual(type);
    });
  });

  describe('delete', () => {
    it('deletes an unused type and logs it without an event', async () => {
      const type = await createType({});
      const res = await del(`${O}/membershiptypes/${type.id}/`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const gone = await get(`${O}/membershiptypes/${type.id}/`);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ detail: 'Not found.' });
      expect(await logEntries(type.id)).toEqual([
        { action_type: 'pretix.membershiptype.created', event_id: null },
        { action_type: 'pretix.membershiptype.deleted', event_id: null },
      ]);
      expect((await del(`${O}/membershiptypes/${type.id}/`)).status).toBe(404);
    });

    it.each([
      [
        'granted by an item',
        'UPDATE item SET grant_membership_type = $1 WHERE id = $2',
        'UPDATE item SET grant_membership_type = NULL WHERE id = $1',
      ],
      [
        'required by an item',
        'UPDATE item SET require_membership_types = ARRAY[$1::int] WHERE id = $2',
        "UPDATE item SET require_membership_types = '{}' WHERE id = $1",
      ],
    ])('refuses to delete a type %s, and deletes it once unused', async (_label, use, release) => {
      const type = await createType({});
      const item = await createItem();
      await t.db.query(use, [type.id, item]);
      const refused = await del(`${O}/membershiptypes/${type.id}/`);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(IN_USE);
      expect((await get(`${O}/membershiptypes/${type.id}/`)).body).toEqual(type);
      await t.db.query(release, [item]);
      expect((await del(`${O}/membershiptypes/${type.id}/`)).status).toBe(204);
    });

    it('refuses to delete a type required by a variation', async () => {
      const type = await createType({});
      const item = await createItem();
      await t.db.query(
        `INSERT INTO item_variation (item_id, value, require_membership_types) VALUES ($1, '{"en": "S"}', ARRAY[$2::int])`,
        [item, type.id],
      );
      const refused = await del(`${O}/membershiptypes/${type.id}/`);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(IN_USE);
      expect((await get(`${O}/membershiptypes/${type.id}/`)).status).toBe(200);
      await t.db.query('DELETE FROM item_variation WHERE item_id = $1', [item]);
      expect((await del(`${O}/membershiptypes/${type.id}/`)).status).toBe(204);
    });
  });

  describe('scoping', () => {
    let foreign: TypeBody;

    beforeAll(async () => {
      foreign = await createType({ name: 'Foreign' }, O2, otherToken);
    });

    it.each(['get', 'patch', 'put', 'delete'] as const)(
      '%s of a type of another organizer answers 404',
      async (method) => {
        const url = `${O}/membershiptypes/${foreign.id}/`;
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
        expect((await get(`${O2}/membershiptypes/${foreign.id}/`, otherToken)).body).toEqual(foreign);
      },
    );

    it.each(['abc', '1.5', '0', '-1', '99999999999'])('answers 404 for the id %s', async (id) => {
      const res = await get(`${O}/membershiptypes/${id}/`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
      expect((await patch(`${O}/membershiptypes/${id}/`, { max_usages: 1 })).status).toBe(404);
      expect((await put(`${O}/membershiptypes/${id}/`, { name: 'x' })).status).toBe(404);
      expect((await del(`${O}/membershiptypes/${id}/`)).status).toBe(404);
    });
  });

  describe('permissions', () => {
    let type: TypeBody;

    beforeAll(async () => {
      type = await createType({ name: 'Perm' });
    });

    it('answers 401 without credentials', async () => {
      const res = await t.http().get(`${O}/membershiptypes/`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect((await t.http().get(`${O}/membershiptypes/${type.id}/`)).status).toBe(401);
      expect((await t.http().post(`${O}/membershiptypes/`).send({ name: 'x' })).status).toBe(401);
      expect((await t.http().put(`${O}/membershiptypes/${type.id}/`).send({ name: 'x' })).status).toBe(401);
      expect((await t.http().delete(`${O}/membershiptypes/${type.id}/`)).status).toBe(401);
    });

    it('answers 403 to reads and writes without organizer.settings.general:write, changing nothing', async () => {
      const before = await typeCount();
      const url = `${O}/membershiptypes/${type.id}/`;
      for (const res of [
        await get(`${O}/membershiptypes/`, eventsOnly),
        await get(url, eventsOnly),
        await post(`${O}/membershiptypes/`, { name: 'x' }, eventsOnly),
        await patch(url, { name: 'x' }, eventsOnly),
        await put(url, { name: 'x' }, eventsOnly),
        await del(url, eventsOnly),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(url)).body).toEqual(type);
      expect(await typeCount()).toBe(before);
    });

    it('lets a team with only organizer.settings.general:write do everything', async () => {
      expect((await get(`${O}/membershiptypes/`, settingsOnly)).status).toBe(200);
      const created = await post(`${O}/membershiptypes/`, { name: 'Settings team' }, settingsOnly);
      expect(created.status).toBe(201);
      const url = `${O}/membershiptypes/${created.body.id}/`;
      expect((await get(url, settingsOnly)).status).toBe(200);
      expect((await patch(url, { max_usages: 4 }, settingsOnly)).status).toBe(200);
      expect((await put(url, { name: 'Settings team' }, settingsOnly)).status).toBe(200);
      expect((await del(url, settingsOnly)).status).toBe(204);
    });

    it("answers 403 for another organizer's token and for an unknown organizer", async () => {
      for (const res of [
        await get(`${O}/membershiptypes/`, otherToken),
        await get(`${O}/membershiptypes/${type.id}/`, otherToken),
        await post(`${O}/membershiptypes/`, { name: 'x' }, otherToken),
        await del(`${O}/membershiptypes/${type.id}/`, otherToken),
        await get('/api/v1/organizers/nope/membershiptypes/'),
        await post('/api/v1/organizers/nope/membershiptypes/', { name: 'x' }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(`${O}/membershiptypes/${type.id}/`)).body).toEqual(type);
    });
  });
});
