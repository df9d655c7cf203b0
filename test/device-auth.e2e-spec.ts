import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

const O = '/api/v1/organizers/org';
const DENIED = { detail: 'You do not have permission to perform this action.' };
const REPORT = {
  hardware_brand: 'Zebra',
  hardware_model: 'TC25',
  os_name: 'Android',
  os_version: '8.1.0',
  software_brand: 'pretixSCAN',
  software_version: '1.5.1',
};

describe('device credentials and device/* (pretix api/views/device.py, api/auth/device.py)', () => {
  let t: TestApp;
  let token: string;

  const dev = (tok: string) => `Device ${tok}`;

  /** Creates a device through the API and returns its device_id and initialization token. */
  async function createDevice(body: Record<string, unknown>, org = 'org', tok = token) {
    const res = await t
      .http()
      .post(`/api/v1/organizers/${org}/devices/`)
      .set('Authorization', auth(tok))
      .send({ name: 'Scanner', limit_events: [], ...body });
    if (res.status !== 201) throw new Error(`createDevice: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { device_id: number; initialization_token: string };
  }

  /** A device of `org` limited to `ev1`, initialized; returns its API token. */
  async function initializedDevice(body: Record<string, unknown> = { limit_events: ['ev1'] }) {
    const created = await createDevice(body);
    const res = await t
      .http()
      .post('/api/v1/device/initialize')
      .send({ token: created.initialization_token, ...REPORT });
    expect(res.status).toBe(200);
    return { ...created, apiToken: (res.body as { api_token: string }).api_token };
  }

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
    const other = await bootstrapOrganizer(t, 'other');
    await createEvent(t, other.token, 'other', { slug: 'oev' });
  });
  afterAll(() => t.close());

  describe('POST device/initialize', () => {
    it('initializes once: answers the device with a new API token and stores what the device reports', async () => {
      const created = await createDevice({ name: 'Door 1', limit_events: ['ev1'] });
      const before = await logCount('pretix.device.initialized');
      const res = await t
        .http()
        .post('/api/v1/device/initialize')
        .send({ token: created.initialization_token, ...REPORT, info: { foo: 'bar' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        organizer: 'org',
        device_id: created.device_id,
        unique_serial: expect.stringMatching(/^[A-Z0-9]{16}$/),
        api_token: expect.stringMatching(/^[a-z0-9]{64}$/),
        name: 'Door 1',
        security_profile: 'full',
        gate: null,
      });
      const detail = await t
        .http()
        .get(`${O}/devices/${created.device_id}/`)
        .set('Authorization', auth(token));
      expect(detail.body).toMatchObject({ ...REPORT, initialized: expect.stringMatching(/Z$/) });
      expect(await logCount('pretix.device.initialized')).toBe(before + 1);

      const again = await t
        .http()
        .post('/api/v1/device/initialize')
        .send({ token: created.initialization_token, ...REPORT });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ token: ['This initialization token has already been used.'] });
    });

    it('stores the API token only as its SHA-256 hash', async () => {
      const { apiToken, initialization_token } = await initializedDevice();
      const rows: Record<string, unknown>[] = await t.db.query(
        'SELECT * FROM device WHERE initialization_token = $1',
        [initialization_token],
      );
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows[0])).not.toContain(apiToken);
      const hash = (await import('crypto')).createHash('sha256').update(apiToken).digest('hex');
      expect(rows[0].api_token_hash).toBe(hash);
      const logs: { data: unknown }[] = await t.db.query('SELECT data FROM log_entry');
      expect(JSON.stringify(logs)).not.toContain(apiToken);
    });

    it('is single use under parallel requests: exactly one of five answers 200', async () => {
      const created = await createDevice({});
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          t
            .http()
            .post('/api/v1/device/initialize')
            .send({ token: created.initialization_token, ...REPORT }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 400, 400, 400, 400]);
      for (const r of results.filter((x) => x.status === 400)) {
        expect(r.body).toEqual({ token: ['This initialization token has already been used.'] });
      }
      const rows: { n: number }[] = await t.db.query(
        "SELECT count(*)::int AS n FROM log_entry WHERE action_type = 'pretix.device.initialized' AND object_id = (SELECT id FROM device WHERE initialization_token = $1)",
        [created.initialization_token],
      );
      expect(rows[0].n).toBe(1);
    });

    it('answers pretix 400s: unknown token, missing fields, bad public key', async () => {
      const unknown = await t
        .http()
        .post('/api/v1/device/initialize')
        .send({ token: 'nope', ...REPORT });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ token: ['Unknown initialization token.'] });

      const created = await createDevice({});
      const missing = await t
        .http()
        .post('/api/v1/device/initialize')
        .send({ token: created.initialization_token, hardware_brand: 'Zebra' });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({
        hardware_model: ['This field is required.'],
        software_brand: ['This field is required.'],
        software_version: ['This field is required.'],
      });
      const badKey = await t
        .http()
        .post('/api/v1/device/initialize')
        .send({ token: created.initialization_token, ...REPORT, rsa_pubkey: 'not a key' });
      expect(badKey.status).toBe(400);
      expect(badKey.body).toEqual({ rsa_pubkey: ['Not a valid public key.'] });
      // Nothing was written: the token still works.
      const ok = await t
        .http()
        .post('/api/v1/device/initialize')
        .send({ token: created.initialization_token, ...REPORT });
      expect(ok.status).toBe(200);
    });
  });

  describe('Authorization: Device <token>', () => {
    it('reads E/orders/ of its events, but 403 outside limit_events and on another organizer', async () => {
      const { apiToken } = await initializedDevice({ limit_events: ['ev1'] });
      const own = await t.http().get(`${O}/events/ev1/orders/`).set('Authorization', dev(apiToken));
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ count: 0, results: [] });
      const outside = await t.http().get(`${O}/events/ev2/orders/`).set('Authorization', dev(apiToken));
      expect(outside.status).toBe(403);
      expect(outside.body).toEqual(DENIED);
      const foreign = await t
        .http()
        .get('/api/v1/organizers/other/events/oev/orders/')
        .set('Authorization', dev(apiToken));
      expect(foreign.status).toBe(403);
    });

    it('all_events reaches every event of its organizer', async () => {
      const { apiToken } = await initializedDevice({ all_events: true });
      for (const ev of ['ev1', 'ev2']) {
        const res = await t.http().get(`${O}/events/${ev}/orders/`).set('Authorization', dev(apiToken));
        expect(res.status).toBe(200);
      }
    });

    it('has no permission beyond the device set (no items, no devices, no teams)', async () => {
      const { apiToken } = await initializedDevice({ all_events: true });
      const item = await t
        .http()
        .post(`${O}/events/ev1/items/`)
        .set('Authorization', dev(apiToken))
        .send({ name: { en: 'X' }, default_price: '1.00' });
      expect(item.status).toBe(403);
      const devices = await t.http().get(`${O}/devices/`).set('Authorization', dev(apiToken));
      expect(devices.status).toBe(403);
      const giftcards = await t.http().get(`${O}/giftcards/`).set('Authorization', dev(apiToken));
      expect(giftcards.status).toBe(200);
    });

    it('answers 401 "Invalid token." for an unknown token', async () => {
      const res = await t
        .http()
        .get(`${O}/events/ev1/orders/`)
        .set('Authorization', dev('x'.repeat(64)));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Invalid token.' });
    });
  });

  describe('device/update, device/info', () => {
    it('update stores the report and answers the device; info answers device, server and medium_key_sets', async () => {
      const { apiToken, device_id } = await initializedDevice();
      const before = await logCount('pretix.device.updated');
      const upd = await t
        .http()
        .post('/api/v1/device/update')
        .set('Authorization', dev(apiToken))
        .send({ ...REPORT, software_version: '2.0.0', os_name: null });
      expect(upd.status).toBe(200);
      expect(upd.body).toEqual({
        organizer: 'org',
        device_id,
        unique_serial: expect.any(String),
        api_token: apiToken,
        name: 'Scanner',
        security_profile: 'full',
        gate: null,
      });
      expect(await logCount('pretix.device.updated')).toBe(before + 1);
      const detail = await t.http().get(`${O}/devices/${device_id}/`).set('Authorization', auth(token));
      expect(detail.body).toMatchObject({
        software_version: '2.0.0',
        os_name: null,
        hardware_brand: 'Zebra',
      });

      const info = await t.http().get('/api/v1/device/info').set('Authorization', dev(apiToken));
      expect(info.status).toBe(200);
      expect(info.body).toEqual({
        device: upd.body,
        server: { version: { pretix: expect.stringMatching(/^2026\.5\.0\+ticketing-api\./) as string, pretix_numeric: 20260050005000 } },
        medium_key_sets: [],
      });
    });

    it('refuses to change a set rsa_pubkey', async () => {
      const { generateKeyPairSync } = await import('crypto');
      const pem = (): string =>
        generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({
          type: 'spki',
          format: 'pem',
        }) as string;
      const { apiToken } = await initializedDevice();
      const first = await t
        .http()
        .post('/api/v1/device/update')
        .set('Authorization', dev(apiToken))
        .send({ ...REPORT, rsa_pubkey: pem() });
      expect(first.status).toBe(200);
      const second = await t
        .http()
        .post('/api/v1/device/update')
        .set('Authorization', dev(apiToken))
        .send({ ...REPORT, rsa_pubkey: pem() });
      expect(second.status).toBe(400);
      expect(second.body).toEqual({
        rsa_pubkey: ['You cannot change the rsa_pubkey of the device once it is set.'],
      });
    });

    it('device/* answer 401 to team tokens (as pretix: only Device tokens count there) and without credentials', async () => {
      for (const [method, path] of [
        ['get', 'info'],
        ['post', 'update'],
        ['post', 'roll'],
        ['post', 'revoke'],
      ] as const) {
        const res = await t
          .http()
          [method](`/api/v1/device/${path}`)
          .set('Authorization', auth(token))
          .send(REPORT);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
        const none = await t.http()[method](`/api/v1/device/${path}`).send(REPORT);
        expect(none.status).toBe(401);
      }
    });

    it('update: required fields, an invalid key, and optional fields absent', async () => {
      const { apiToken, device_id } = await initializedDevice();
      const empty = await t.http().post('/api/v1/device/update').set('Authorization', dev(apiToken)).send({});
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({
        hardware_brand: ['This field is required.'],
        hardware_model: ['This field is required.'],
        software_brand: ['This field is required.'],
        software_version: ['This field is required.'],
      });
      const bad = await t
        .http()
        .post('/api/v1/device/update')
        .set('Authorization', dev(apiToken))
        .send({ ...REPORT, rsa_pubkey: 'notakey' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ rsa_pubkey: ['Not a valid public key.'] });
      const minimal = await t.http().post('/api/v1/device/update').set('Authorization', dev(apiToken)).send({
        hardware_brand: 'Samsung',
        hardware_model: 'S',
        software_brand: 'x',
        software_version: '5.0.0',
      });
      expect(minimal.status).toBe(200);
      const detail = await t.http().get(`${O}/devices/${device_id}/`).set('Authorization', auth(token));
      expect(detail.body).toMatchObject({
        hardware_brand: 'Samsung',
        os_name: null,
        software_version: '5.0.0',
      });
    });
  });

  describe('device/roll, device/revoke', () => {
    it('roll: the old token is refused at once, the new one works', async () => {
      const { apiToken } = await initializedDevice();
      const before = await logCount('pretix.device.keyroll');
      const res = await t.http().post('/api/v1/device/roll').set('Authorization', dev(apiToken));
      expect(res.status).toBe(200);
      const fresh = (res.body as { api_token: string }).api_token;
      expect(fresh).toMatch(/^[a-z0-9]{64}$/);
      expect(fresh).not.toBe(apiToken);
      const old = await t.http().get('/api/v1/device/info').set('Authorization', dev(apiToken));
      expect(old.status).toBe(401);
      expect(old.body).toEqual({ detail: 'Invalid token.' });
      const now = await t.http().get('/api/v1/device/info').set('Authorization', dev(fresh));
      expect(now.status).toBe(200);
      expect(await logCount('pretix.device.keyroll')).toBe(before + 1);
    });

    it('revoke: the device is revoked, its token answers 401 "Device access has been revoked."', async () => {
      const { apiToken, device_id } = await initializedDevice();
      const res = await t.http().post('/api/v1/device/revoke').set('Authorization', dev(apiToken));
      expect(res.status).toBe(200);
      const after = await t.http().get(`${O}/events/ev1/orders/`).set('Authorization', dev(apiToken));
      expect(after.status).toBe(401);
      expect(after.body).toEqual({ detail: 'Device access has been revoked.' });
      const detail = await t.http().get(`${O}/devices/${device_id}/`).set('Authorization', auth(token));
      expect(detail.body).toMatchObject({ revoked: true });
    });

    it('a revoked device cannot be initialized', async () => {
      const created = await createDevice({});
      await t.db.query('UPDATE device SET revoked = true WHERE initialization_token = $1', [
        created.initialization_token,
      ]);
      const res = await t
        .http()
        .post('/api/v1/device/initialize')
        .send({ token: created.initialization_token, ...REPORT });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ token: ['This initialization token has been revoked.'] });
    });
  });

  it('a team token without organizer.devices:write cannot create devices', async () => {
    const weak = await teamToken(t, 'org', { organizerPermissions: ['organizer.devices:read'] });
    const res = await t
      .http()
      .post(`${O}/devices/`)
      .set('Authorization', auth(weak))
      .send({ name: 'X', limit_events: [] });
    expect(res.status).toBe(403);
  });
  // Last: it starts and closes a second app, after which this file's app is not used again.
  it('refused device credentials count in the failed-authentication throttle like bad tokens', async () => {
    const fresh = await startTestApp({ authFailureLimit: 3, authFailureWindowS: 60 });
    try {
      const { token: admin } = await bootstrapOrganizer(fresh, 'org');
      const created = await fresh
        .http()
        .post(`${O}/devices/`)
        .set('Authorization', auth(admin))
        .send({ name: 'S', all_events: true, limit_events: [] });
      const init = await fresh
        .http()
        .post('/api/v1/device/initialize')
        .send({
          token: (created.body as { initialization_token: string }).initialization_token,
          ...REPORT,
        });
      const apiToken = (init.body as { api_token: string }).api_token;
      const get = (authorization: string) => fresh.http().get(`${O}/`).set('Authorization', authorization);
      expect((await get(dev(apiToken))).status).toBe(200);
      await fresh.db.query('UPDATE device SET revoked = true');
      const statuses: number[] = [];
      statuses.push((await get(dev(apiToken))).status);
      statuses.push((await get(dev('unknown-device-token'))).status);
      statuses.push((await get(dev(apiToken))).status);
      statuses.push((await get(dev(apiToken))).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      expect((await get(auth(admin))).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});
