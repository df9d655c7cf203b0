import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * `O/event_meta_properties/` CRUD (permission `organizer.settings.general:write`, docs/permissions.md) and the
 * rules they impose on the `meta_data` of events (compat §3.17 "Validation", §4.2).
 */
describe('event meta properties', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let eventsOnly: string;
  const O = '/api/v1/organizers/org';
  const P = `${O}/event_meta_properties/`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const put = (path: string, body: object, tok = token) =>
    t.http().put(path).set('Authorization', auth(tok)).send(body);
  const del = (path: string, tok = token) => t.http().delete(path).set('Authorization', auth(tok));

  async function createProperty(body: object): Promise<{ id: number } & Record<string, unknown>> {
    const res = await post(P, body);
    if (res.status !== 201) throw new Error(`createProperty: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: number } & Record<string, unknown>;
  }

  async function stored(id: number): Promise<Record<string, unknown> | undefined> {
    const rows: Record<string, unknown>[] = await t.db.query(
      'SELECT name, "default", allowed_values, protected FROM event_meta_property WHERE id = $1',
      [id],
    );
    return rows[0];
  }

  async function eventMeta(slug: string): Promise<Record<string, string>> {
    const rows: { meta_data: Record<string, string> }[] = await t.db.query(
      "SELECT meta_data FROM event WHERE slug = $1 AND organizer_id = (SELECT id FROM organizer WHERE slug = 'org')",
      [slug],
    );
    return rows[0].meta_data;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    ({ token: otherToken } = await bootstrapOrganizer(t, 'org2'));
    eventsOnly = await teamToken(t, 'org', {
      allEvents: true,
      allEventPermissions: true,
      organizerPermissions: ['organizer.events:create'],
    });
  });
  afterAll(() => t.close());

  describe('CRUD', () => {
    it('creates with defaults, reads back, lists, logs', async () => {
      const res = await post(P, { name: 'Region' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: 'Region',
        default: '',
        allowed_values: null,
        protected: false,
      });
      const id = (res.body as { id: number }).id;
      expect((await get(`${P}${id}/`)).body).toEqual(res.body);
      const list = await get(P);
      expect(list.status).toBe(200);
      expect(list.body.results).toContainEqual(res.body);
      expect(await stored(id)).toEqual({
        name: 'Region',
        default: '',
        allowed_values: null,
        protected: false,
      });
      const log: { action_type: string }[] = await t.db.query(
        "SELECT action_type FROM log_entry WHERE content_type = 'eventmetaproperty' AND object_id = $1",
        [id],
      );
      expect(log.map((l) => l.action_type)).toEqual(['pretix.property.added']);
    });

    it('refuses a duplicate name, a bad name and a default outside the allowed values', async () => {
      await createProperty({ name: 'Dup' });
      expect((await post(P, { name: 'Dup' })).body).toEqual({
        name: ['A property with this name already exists.'],
      });
      const bad = await post(P, { name: 'has space' });
      expect([bad.status, bad.body]).toEqual([
        400,
        { name: ['The name may only contain letters, numbers, underscores and dashes.'] },
      ]);
      const res = await post(P, { name: 'Colour', default: 'pink', allowed_values: ['red', 'blue'] });
      expect([res.status, res.body]).toEqual([
        400,
        { default: ['The default value must be one of the allowed values.'] },
      ]);
      const rows: unknown[] = await t.db.query("SELECT 1 FROM event_meta_property WHERE name = 'Colour'");
      expect(rows).toHaveLength(0);
    });

    it('PATCH changes the fields sent, PUT resets the others; a rename carries event values along', async () => {
      const p = await createProperty({
        name: 'Kind',
        default: 'a',
        allowed_values: ['a', 'b'],
        protected: true,
      });
      await createEvent(t, token, 'org', { slug: 'renamed', meta_data: { Kind: 'b' } });
      const patched = await patch(`${P}${p.id}/`, { name: 'Sort' });
      expect([patched.status, patched.body]).toEqual([
        200,
        { id: p.id, name: 'Sort', default: 'a', allowed_values: ['a', 'b'], protected: true },
      ]);
      expect(await eventMeta('renamed')).toEqual({ Sort: 'b' });
      const replaced = await put(`${P}${p.id}/`, { name: 'Sort' });
      expect(replaced.body).toEqual({
        id: p.id,
        name: 'Sort',
        default: '',
        allowed_values: null,
        protected: false,
      });
      expect(await stored(p.id)).toEqual({
        name: 'Sort',
        default: '',
        allowed_values: null,
        protected: false,
      });
    });

    it('DELETE removes the property and its values on events', async () => {
      const p = await createProperty({ name: 'Gone' });
      await createEvent(t, token, 'org', { slug: 'gone', meta_data: { Gone: 'x' } });
      const res = await del(`${P}${p.id}/`);
      expect(res.status).toBe(204);
      expect(await stored(p.id)).toBeUndefined();
      expect(await eventMeta('gone')).toEqual({});
      expect((await get(`${P}${p.id}/`)).status).toBe(404);
    });

    it('needs organizer.settings.general:write; another organizer sees 404', async () => {
      const p = await createProperty({ name: 'Secret' });
      expect([(await get(P, eventsOnly)).status, (await get(P, eventsOnly)).body]).toEqual([403, DENIED]);
      expect((await post(P, { name: 'X' }, eventsOnly)).status).toBe(403);
      expect((await patch(`${P}${p.id}/`, { name: 'Y' }, eventsOnly)).status).toBe(403);
      expect((await del(`${P}${p.id}/`, eventsOnly)).status).toBe(403);
      expect((await get(`/api/v1/organizers/org2/event_meta_properties/${p.id}/`, otherToken)).status).toBe(
        404,
      );
      expect(await stored(p.id)).toMatchObject({ name: 'Secret' });
    });
  });

  describe('event meta_data', () => {
    beforeAll(async () => {
      await createProperty({ name: 'Type', allowed_values: ['Conference', 'Fair'] });
      await createProperty({ name: 'Internal', protected: true });
    });

    it('refuses unknown properties and values outside allowed_values (nothing stored)', async () => {
      const unknown = await post(`${O}/events/`, {
        name: 'E',
        slug: 'meta1',
        currency: 'EUR',
        date_from: '2030-01-01T00:00:00Z',
        meta_data: { foo: 'bar' },
      });
      expect([unknown.status, unknown.body]).toEqual([
        400,
        { meta_data: ["Meta data property 'foo' does not exist."] },
      ]);
      await createEvent(t, token, 'org', { slug: 'meta1', meta_data: { Type: 'Fair' } });
      const wrong = await patch(`${O}/events/meta1/`, { meta_data: { Type: 'Party' } });
      expect([wrong.status, wrong.body]).toEqual([
        400,
        { meta_data: ["Meta data property 'Type' does not allow value 'Party'."] },
      ]);
      expect(await eventMeta('meta1')).toEqual({ Type: 'Fair' });
    });

    it('replaces the object on write; protected values only with the organizer settings permission', async () => {
      await createEvent(t, token, 'org', { slug: 'meta2', meta_data: { Type: 'Fair', Internal: 'x' } });
      expect(await eventMeta('meta2')).toEqual({ Type: 'Fair', Internal: 'x' });
      // Without the permission: the protected value is kept, a sent one silently ignored.
      const res = await patch(`${O}/events/meta2/`, { meta_data: { Internal: 'changed' } }, eventsOnly);
      expect([res.status, res.body.meta_data]).toEqual([200, { Internal: 'x' }]);
      const untouched = await patch(`${O}/events/meta2/`, { is_public: false }, eventsOnly);
      expect(untouched.body.meta_data).toEqual({ Internal: 'x' });
      const cleared = await patch(`${O}/events/meta2/`, { meta_data: {} });
      expect(cleared.body.meta_data).toEqual({});
      expect(await eventMeta('meta2')).toEqual({});
    });
  });
});
