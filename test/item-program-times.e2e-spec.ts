import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { listStatements } from './sql-count';
import { startTestApp, TestApp } from './harness';

/** `E/items/{item}/program_times/` and inline `program_times` of items (pretix 2025+ "Item program times"). */
describe('item program times', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let outsider: string;
  const E = '/api/v1/organizers/org/events/sample';
  const SERIES = '/api/v1/organizers/org/events/series';
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const NOT_FOUND = { detail: 'Not found.' };
  const END_BEFORE_START = 'The program end must not be before the program start.';
  const SERIES_REFUSED = 'You cannot use program times on an event series.';

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
    const res = await post(`${base}/items/`, { name: 'Workshop', default_price: '10.00', ...body });
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function createProgramTime(itemId: number, body: object): Promise<Body> {
    const res = await post(`${E}/items/${itemId}/program_times/`, body);
    if (res.status !== 201) throw new Error(`createProgramTime: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function itemLog(itemId: number): Promise<{ action: string; data: Record<string, unknown> }[]> {
    const rows: { action_type: string; data: Record<string, unknown> }[] = await t.db.query(
      "SELECT action_type, data FROM log_entry WHERE content_type = 'item' AND object_id = $1 ORDER BY id",
      [itemId],
    );
    return rows.map((r) => ({ action: r.action_type, data: r.data }));
  }

  async function storedRows(itemId: number): Promise<{ event_id: number; item_id: number }[]> {
    return t.db.query('SELECT event_id, item_id FROM item_program_time WHERE item_id = $1 ORDER BY id', [
      itemId,
    ]);
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    await createSeries(t, token, 'org', { slug: 'series' });
    reader = await teamToken(t, 'org', { limitEvents: ['sample'], eventPermissions: ['event.orders:read'] });
    outsider = await teamToken(t, 'org', { limitEvents: ['other'], eventPermissions: ['event.items:write'] });
  });
  afterAll(() => t.close());

  describe('nested endpoint', () => {
    it('creates a program time in UTC, logs it on the item and shows it inline on the item', async () => {
      const item = await createItem();
      const res = await post(`${E}/items/${item.id}/program_times/`, {
        start: '2025-08-15T12:00:00+02:00',
        end: '2025-08-15T22:00:00Z',
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        start: '2025-08-15T10:00:00Z',
        end: '2025-08-15T22:00:00Z',
        location: null,
      });
      const detail = await get(`${E}/items/${item.id}/program_times/${res.body.id}/`);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(res.body);
      const itemAfter = await get(`${E}/items/${item.id}/`);
      expect(itemAfter.body.program_times).toEqual([
        { start: '2025-08-15T10:00:00Z', end: '2025-08-15T22:00:00Z', location: null },
      ]);
      const events: { id: number }[] = await t.db.query("SELECT id FROM event WHERE slug = 'sample'");
      expect(await storedRows(item.id)).toEqual([{ event_id: events[0].id, item_id: item.id }]);
      expect(await itemLog(item.id)).toContainEqual({
        action: 'pretix.event.item.program_times.added',
        data: { start: '2025-08-15T12:00:00+02:00', end: '2025-08-15T22:00:00Z', id: res.body.id },
      });
    });

    it('accepts a location (i18n) and a zero-length slot', async () => {
      const item = await createItem();
      const res = await post(`${E}/items/${item.id}/program_times/`, {
        start: '2025-08-15T10:00:00Z',
        end: '2025-08-15T10:00:00Z',
        location: 'Hall 1',
      });
      expect(res.status).toBe(201);
      expect(res.body.location).toEqual({ en: 'Hall 1' });
    });

    it('refuses an end before the start, missing fields and bad datetimes, writing nothing', async () => {
      const item = await createItem();
      const url = `${E}/items/${item.id}/program_times/`;
      const backwards = await post(url, { start: '2025-08-15T10:00:00Z', end: '2025-08-15T09:59:59Z' });
      expect(backwards.status).toBe(400);
      expect(backwards.body).toEqual({ non_field_errors: [END_BEFORE_START] });
      const missing = await post(url, {});
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ start: ['This field is required.'], end: ['This field is required.'] });
      const nulls = await post(url, { start: null, end: 'soon' });
      expect(nulls.status).toBe(400);
      expect(Object.keys(nulls.body as object).sort()).toEqual(['end', 'start']);
      expect(nulls.body.start).toEqual(['This field may not be null.']);
      expect(await storedRows(item.id)).toEqual([]);
    });

    it('lists by id, with a fixed number of SQL statements whatever the page size', async () => {
      const item = await createItem();
      const a = await createProgramTime(item.id, {
        start: '2025-08-14T22:00:00Z',
        end: '2025-08-15T00:00:00Z',
      });
      const b = await createProgramTime(item.id, {
        start: '2025-08-12T22:00:00Z',
        end: '2025-08-13T22:00:00Z',
      });
      const list = await get(`${E}/items/${item.id}/program_times/`);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ count: 2, next: null, previous: null, results: [a, b] });
      const desc = await get(`${E}/items/${item.id}/program_times/?ordering=-id`);
      expect(desc.body.results).toEqual([b, a]);
      const count = (query: string) =>
        listStatements(() => get(`${E}/items/${item.id}/program_times/?${query}`));
      const one = await count('page_size=1');
      const two = await count('page_size=2');
      expect([one.rows, two.rows]).toEqual([1, 2]);
      expect(two.statements).toBe(one.statements);
    });

    it('PATCH changes the sent fields, PUT resets the location; the rule runs on the merged data', async () => {
      const item = await createItem();
      const pt = await createProgramTime(item.id, {
        start: '2025-08-15T10:00:00Z',
        end: '2025-08-15T12:00:00Z',
        location: 'Hall',
      });
      const url = `${E}/items/${item.id}/program_times/${pt.id}/`;
      const patched = await patch(url, { start: '2025-08-14T10:00:00Z' });
      expect(patched.status).toBe(200);
      expect(patched.body).toEqual({ ...pt, start: '2025-08-14T10:00:00Z' });
      const backwards = await patch(url, { start: '2025-08-16T10:00:00Z' });
      expect(backwards.status).toBe(400);
      expect(backwards.body).toEqual({ non_field_errors: [END_BEFORE_START] });
      const replaced = await put(url, { start: '2025-08-15T10:00:00Z', end: '2025-08-15T11:00:00Z' });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toEqual({
        id: pt.id,
        start: '2025-08-15T10:00:00Z',
        end: '2025-08-15T11:00:00Z',
        location: null,
      });
      const incomplete = await put(url, { start: '2025-08-15T10:00:00Z' });
      expect(incomplete.status).toBe(400);
      expect(incomplete.body).toEqual({ end: ['This field is required.'] });
      expect((await get(url)).body).toEqual(replaced.body);
      const actions = (await itemLog(item.id)).map((l) => l.action);
      expect(actions.filter((a) => a === 'pretix.event.item.program_times.changed')).toHaveLength(2);
    });

    it('deletes a program time and logs start and end', async () => {
      const item = await createItem();
      const pt = await createProgramTime(item.id, {
        start: '2025-08-15T10:00:00Z',
        end: '2025-08-15T12:00:00Z',
      });
      const url = `${E}/items/${item.id}/program_times/${pt.id}/`;
      const res = await del(url);
      expect(res.status).toBe(204);
      expect((await get(url)).status).toBe(404);
      expect((await get(`${E}/items/${item.id}/`)).body.program_times).toEqual([]);
      expect(await itemLog(item.id)).toContainEqual({
        action: 'pretix.event.item.program_times.removed',
        data: { start: '2025-08-15T10:00:00Z', end: '2025-08-15T12:00:00Z' },
      });
    });

    it('goes with its item when the item is deleted', async () => {
      const item = await createItem();
      await createProgramTime(item.id, { start: '2025-08-15T10:00:00Z', end: '2025-08-15T12:00:00Z' });
      expect((await del(`${E}/items/${item.id}/`)).status).toBe(204);
      expect(await storedRows(item.id)).toEqual([]);
    });

    it('answers 404 for a program time of another item and 403 for an unknown item', async () => {
      const item = await createItem();
      const other = await createItem();
      const pt = await createProgramTime(item.id, {
        start: '2025-08-15T10:00:00Z',
        end: '2025-08-15T12:00:00Z',
      });
      const wrong = await get(`${E}/items/${other.id}/program_times/${pt.id}/`);
      expect(wrong.status).toBe(404);
      expect(wrong.body).toEqual(NOT_FOUND);
      expect((await patch(`${E}/items/${other.id}/program_times/${pt.id}/`, {})).status).toBe(404);
      expect((await get(`${E}/items/987654/program_times/`)).status).toBe(403);
    });

    it('lets event readers read, refuses writes without event.items:write and other events', async () => {
      const item = await createItem();
      const pt = await createProgramTime(item.id, {
        start: '2025-08-15T10:00:00Z',
        end: '2025-08-15T12:00:00Z',
      });
      const url = `${E}/items/${item.id}/program_times/`;
      expect((await get(url, reader)).status).toBe(200);
      expect((await get(`${url}${pt.id}/`, reader)).status).toBe(200);
      const body = { start: '2025-08-15T10:00:00Z', end: '2025-08-15T12:00:00Z' };
      for (const res of [
        await post(url, body, reader),
        await patch(`${url}${pt.id}/`, body, reader),
        await del(`${url}${pt.id}/`, reader),
        await get(url, outsider),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(`${url}${pt.id}/`)).status).toBe(200);
    });

    it('refuses program times on an event series', async () => {
      const item = await createItem({}, SERIES);
      const url = `${SERIES}/items/${item.id}/program_times/`;
      const created = await post(url, { start: '2025-08-15T10:00:00Z', end: '2025-08-15T12:00:00Z' });
      expect(created.status).toBe(400);
      expect(created.body).toEqual({ non_field_errors: [SERIES_REFUSED] });
      const list = await get(url);
      expect(list.status).toBe(400);
      expect(list.body).toEqual([SERIES_REFUSED]);
      expect((await get(`${url}1/`)).body).toEqual([SERIES_REFUSED]);
      expect((await del(`${url}1/`)).status).toBe(400);
      expect(await storedRows(item.id)).toEqual([]);
    });
  });

  describe('inline on items', () => {
    it('creates program times with the item and lists them without ids', async () => {
      const res = await post(`${E}/items/`, {
        name: 'Festival pass',
        default_price: '50.00',
        program_times: [
          {
            start: '2025-08-15T10:00:00Z',
            end: '2025-08-15T12:00:00Z',
            location: { de: 'Halle', en: 'Hall' },
          },
          { start: '2025-08-16T10:00:00Z', end: '2025-08-16T12:00:00Z' },
        ],
      });
      expect(res.status).toBe(201);
      expect(res.body.program_times).toEqual([
        { start: '2025-08-15T10:00:00Z', end: '2025-08-15T12:00:00Z', location: { de: 'Halle', en: 'Hall' } },
        { start: '2025-08-16T10:00:00Z', end: '2025-08-16T12:00:00Z', location: null },
      ]);
      expect((await get(`${E}/items/${res.body.id}/`)).body.program_times).toEqual(res.body.program_times);
      const nested = await get(`${E}/items/${res.body.id}/program_times/`);
      expect(nested.body.count).toBe(2);
      expect(await storedRows(res.body.id as number)).toHaveLength(2);
    });

    it('refuses an inline end before start (a flat list) and bad entries, creating nothing', async () => {
      const before: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM item');
      const backwards = await post(`${E}/items/`, {
        name: 'X',
        default_price: 1,
        program_times: [{ start: '2025-08-15T10:00:00Z', end: '2025-08-14T10:00:00Z' }],
      });
      expect(backwards.status).toBe(400);
      expect(backwards.body).toEqual({ program_times: [END_BEFORE_START] });
      const missing = await post(`${E}/items/`, {
        name: 'X',
        default_price: 1,
        program_times: [{ start: '2025-08-15T10:00:00Z' }],
      });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ program_times: [{ end: ['This field is required.'] }] });
      const after: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM item');
      expect(after[0].n).toBe(before[0].n);
    });

    it('refuses program_times on item PATCH and PUT', async () => {
      const item = await createItem();
      const message =
        'Updating add-ons, bundles, program times or variations via PATCH/PUT is not supported. Please use the dedicated nested endpoint.';
      const res = await patch(`${E}/items/${item.id}/`, { program_times: [] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: [message] });
      const replaced = await put(`${E}/items/${item.id}/`, {
        name: 'Workshop',
        default_price: '10.00',
        program_times: [],
      });
      expect(replaced.status).toBe(400);
    });

    it('moves the item list version (cached pages show new program times)', async () => {
      const item = await createItem();
      const first = await get(`${E}/items/?page_size=1000`);
      const shown = (body: { results: Body[] }) => body.results.find((i) => i.id === item.id)!.program_times;
      expect(shown(first.body)).toEqual([]);
      await createProgramTime(item.id, { start: '2025-08-15T10:00:00Z', end: '2025-08-15T12:00:00Z' });
      const second = await get(`${E}/items/?page_size=1000`);
      expect(shown(second.body)).toHaveLength(1);
    });
  });
});
