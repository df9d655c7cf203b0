import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

const O = '/api/v1/organizers/org';
const DENIED = { detail: 'You do not have permission to perform this action.' };

/**
 * `O/devices/` (pretix `DeviceViewSet`, tests/api/test_devices.py) and the `O/gates/` extension: CRUD, pretix's
 * wire shape, validation, permissions `organizer.devices:read` / `:write`, `device_id` numbering per organizer.
 */
describe('devices and gates (pretix Device, Gate)', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const del = (path: string, tok = token) => t.http().delete(path).set('Authorization', auth(tok));

  async function logCount(action: string): Promise<number> {
    const rows: { n: number }[] = await t.db.query(
      'SELECT count(*)::int AS n FROM log_entry WHERE action_type = $1',
      [action],
    );
    return rows[0].n;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'ev1' });
    await createEvent(t, token, 'org', { slug: 'ev2' });
    ({ token: otherToken } = await bootstrapOrganizer(t, 'other'));
    await createEvent(t, otherToken, 'other', { slug: 'oev' });
  });
  afterAll(() => t.close());

  describe('O/devices/', () => {
    it('creates a device (201) numbered per organizer, with a one-time initialization token', async () => {
      const before = await logCount('pretix.device.created');
      const res = await post(`${O}/devices/`, { name: 'Foobar', all_events: false, limit_events: ['ev1'] });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        device_id: 1,
        unique_serial: expect.stringMatching(/^[A-Z0-9]{16}$/),
        initialization_token: expect.stringMatching(/^[a-z0-9]{16}$/),
        all_events: false,
        limit_events: ['ev1'],
        revoked: false,
        name: 'Foobar',
        created: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        initialized: null,
        hardware_brand: null,
        hardware_model: null,
        os_name: null,
        os_version: null,
        software_brand: null,
        software_version: null,
        security_profile: 'full',
        gate: null,
      });
      expect(await logCount('pretix.device.created')).toBe(before + 1);
      const detail = await get(`${O}/devices/1/`);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(res.body);
      const list = await get(`${O}/devices/`);
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ count: 1, next: null, previous: null, results: [res.body] });

      const second = await post(`${O}/devices/`, { name: 'Second', limit_events: [] });
      expect(second.body).toMatchObject({ device_id: 2 });
      // Another organizer numbers its own devices from 1.
      const foreign = await post(
        '/api/v1/organizers/other/devices/',
        { name: 'X', limit_events: [] },
        otherToken,
      );
      expect(foreign.status).toBe(201);
      expect(foreign.body).toMatchObject({ device_id: 1 });
      // Device numbers are per organizer: org's device 1 is not other's.
      expect((await get('/api/v1/organizers/other/devices/1/', otherToken)).body).toMatchObject({
        name: 'X',
      });
      expect((await get(`${O}/devices/1/`)).body).toMatchObject({ name: 'Foobar' });
    });

    it('parallel creates get distinct device_ids', async () => {
      const { token: fresh } = await bootstrapOrganizer(t, 'par');
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          post('/api/v1/organizers/par/devices/', { name: `D${i}`, limit_events: [] }, fresh),
        ),
      );
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
      const ids = results.map((r) => (r.body as { device_id: number }).device_id).sort((a, b) => a - b);
      expect(ids).toEqual([1, 2, 3, 4, 5, 6]);
      const rows: { n: number }[] = await t.db.query(
        "SELECT count(DISTINCT device_id)::int AS n FROM device WHERE organizer_id = (SELECT id FROM organizer WHERE slug = 'par')",
      );
      expect(rows[0].n).toBe(6);
    });

    it('PATCH changes the writable fields only; hardware fields are read-only', async () => {
      const created = await post(`${O}/devices/`, { name: 'Patchme', limit_events: ['ev1'] });
      const id = (created.body as { device_id: number }).device_id;
      const before = await logCount('pretix.device.changed');
      const res = await patch(`${O}/devices/${id}/`, {
        name: 'bla',
        hardware_brand: 'Foo',
        limit_events: ['ev2', 'ev1'],
        security_profile: 'pretixscan',
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'bla',
        hardware_brand: null,
        limit_events: ['ev1', 'ev2'],
        security_profile: 'pretixscan',
      });
      expect(await logCount('pretix.device.changed')).toBe(before + 1);
      const after = await get(`${O}/devices/${id}/`);
      expect(after.body).toMatchObject({ name: 'bla', hardware_brand: null, limit_events: ['ev1', 'ev2'] });
      const rows: { hardware_brand: string | null }[] = await t.db.query(
        "SELECT hardware_brand FROM device WHERE device_id = $1 AND organizer_id = (SELECT id FROM organizer WHERE slug = 'org')",
        [id],
      );
      expect(rows[0].hardware_brand).toBeNull();
    });

    it('answers 400 naming the field, and writes nothing', async () => {
      const count = async () =>
        (await t.db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM device'))[0].n;
      const before = await count();
      const cases: [object, Record<string, string[]>][] = [
        [{ limit_events: [] }, { name: ['This field is required.'] }],
        [{ name: 'X' }, { limit_events: ['This field is required.'] }],
        [{ name: '', limit_events: [] }, { name: ['This field may not be blank.'] }],
        [{ name: 'X', limit_events: ['oev'] }, { limit_events: ['Object with slug=oev does not exist.'] }],
        [{ name: 'X', limit_events: ['nope'] }, { limit_events: ['Object with slug=nope does not exist.'] }],
        [
          { name: 'X', limit_events: [], security_profile: 'root' },
          { security_profile: ['"root" is not a valid choice.'] },
        ],
        [{ name: 'X', limit_events: [], all_events: 'yes' }, { all_events: ['Must be a valid boolean.'] }],
        [
          { name: 'X'.repeat(191), limit_events: [] },
          { name: ['Ensure this field has no more than 190 characters.'] },
        ],
        [
          { name: 'X', limit_events: [], gate: 999999 },
          { gate: ['Invalid pk "999999" - object does not exist.'] },
        ],
      ];
      for (const [body, errors] of cases) {
        const res = await post(`${O}/devices/`, body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body).toEqual(errors);
      }
      expect(await count()).toBe(before);
      const bad = await patch(`${O}/devices/1/`, { limit_events: ['oev'], name: 'changed?' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ limit_events: ['Object with slug=oev does not exist.'] });
      expect((await get(`${O}/devices/1/`)).body).toMatchObject({ name: 'Foobar' });
    });

    it('answers 404 for unknown or foreign device numbers, 405 to DELETE (devices are never deleted)', async () => {
      expect((await get(`${O}/devices/9999/`)).status).toBe(404);
      expect((await patch(`${O}/devices/9999/`, { name: 'x' })).status).toBe(404);
      const res = await del(`${O}/devices/1/`);
      expect(res.status).toBe(405);
      expect((await get(`${O}/devices/1/`)).status).toBe(200);
    });

    it('reads need organizer.devices:read, writes organizer.devices:write; the token only for writers', async () => {
      const none = await teamToken(t, 'org', {
        allEvents: true,
        allEventPermissions: true,
        organizerPermissions: ['organizer.giftcards:read'],
      });
      expect(await get(`${O}/devices/`, none).then((r) => r.status)).toBe(403);
      expect((await get(`${O}/devices/1/`, none)).body).toEqual(DENIED);
      expect((await post(`${O}/devices/`, { name: 'X', limit_events: [] }, none)).status).toBe(403);

      const reader = await teamToken(t, 'org', { organizerPermissions: ['organizer.devices:read'] });
      const read = await get(`${O}/devices/1/`, reader);
      expect(read.status).toBe(200);
      expect(read.body).not.toHaveProperty('initialization_token');
      expect((await post(`${O}/devices/`, { name: 'X', limit_events: [] }, reader)).status).toBe(403);
      expect((await patch(`${O}/devices/1/`, { name: 'X' }, reader)).status).toBe(403);
      expect((await get(`${O}/devices/1/`)).body).toMatchObject({ name: 'Foobar' });

      const writer = await teamToken(t, 'org', {
        organizerPermissions: ['organizer.devices:read', 'organizer.devices:write'],
      });
      expect((await get(`${O}/devices/1/`, writer)).body).toHaveProperty('initialization_token');
      // Another organizer's token reaches nothing here.
      expect((await get(`${O}/devices/`, otherToken)).status).toBe(403);
    });
  });

  describe('O/gates/ (extension)', () => {
    it('CRUD with a generated identifier, unique per organizer case-insensitively', async () => {
      const created = await post(`${O}/gates/`, { name: 'North' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        name: 'North',
        identifier: expect.stringMatching(/^[ABCDEFGHJKLMNPQRSTUVWXYZ3789]{8}$/),
      });
      const id = (created.body as { id: number }).id;
      const named = await post(`${O}/gates/`, { name: 'South', identifier: 'south' });
      expect(named.body).toMatchObject({ identifier: 'south' });
      const dup = await post(`${O}/gates/`, { name: 'Dup', identifier: 'SOUTH' });
      expect(dup.status).toBe(400);
      expect(dup.body).toEqual({ identifier: ['This identifier is already used for a different question.'] });
      // Another organizer may use it.
      expect(
        (await post('/api/v1/organizers/other/gates/', { name: 'S', identifier: 'south' }, otherToken))
          .status,
      ).toBe(201);

      const list = await get(`${O}/gates/`);
      expect(list.body).toMatchObject({ count: 2, results: [{ name: 'North' }, { name: 'South' }] });
      expect((await get(`${O}/gates/${id}/`)).body).toEqual(created.body);
      const changed = await patch(`${O}/gates/${id}/`, { name: 'Main' });
      expect(changed.body).toEqual({ ...(created.body as object), name: 'Main' });

      // A device on the gate shows it; a foreign gate is refused.
      const foreignGate = await post('/api/v1/organizers/other/gates/', { name: 'F' }, otherToken);
      const refused = await post(`${O}/devices/`, {
        name: 'Gated',
        limit_events: [],
        gate: (foreignGate.body as { id: number }).id,
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        gate: [`Invalid pk "${(foreignGate.body as { id: number }).id}" - object does not exist.`],
      });
      const dev = await post(`${O}/devices/`, { name: 'Gated', limit_events: [], gate: id });
      expect(dev.status).toBe(201);
      expect(dev.body).toMatchObject({
        gate: { id, name: 'Main', identifier: (created.body as { identifier: string }).identifier },
      });
      const num = (dev.body as { device_id: number }).device_id;
      const cleared = await patch(`${O}/devices/${num}/`, { gate: null });
      expect(cleared.body).toMatchObject({ gate: null });
      await patch(`${O}/devices/${num}/`, { gate: id });

      // Deleting the gate clears it on its devices.
      expect((await del(`${O}/gates/${id}/`)).status).toBe(204);
      expect((await get(`${O}/gates/${id}/`)).status).toBe(404);
      expect((await get(`${O}/devices/${num}/`)).body).toMatchObject({ gate: null });
    });

    it('reads need organizer.devices:read, writes organizer.devices:write', async () => {
      const reader = await teamToken(t, 'org', { organizerPermissions: ['organizer.devices:read'] });
      expect((await get(`${O}/gates/`, reader)).status).toBe(200);
      expect((await post(`${O}/gates/`, { name: 'X' }, reader)).status).toBe(403);
      const none = await teamToken(t, 'org', { organizerPermissions: ['organizer.giftcards:read'] });
      expect((await get(`${O}/gates/`, none)).status).toBe(403);
      const blank = await post(`${O}/gates/`, { name: '' });
      expect(blank.status).toBe(400);
      expect(blank.body).toEqual({ name: ['This field may not be blank.'] });
    });
  });
});
