import { request as httpRequest } from 'http';
import type { AddressInfo } from 'net';
import {
  DEVICE_PROFILE_DENIED,
  deviceProfileAllows,
  RESTRICTED_DEVICE_PROFILES,
} from '../src/auth/device-security';
import { RouteRegistry } from '../src/common/http/route-registry';
import { auth, bootstrapOrganizer, createDevice, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { routeTableOf, RouteTableRow } from './print-route-table';

const O = '/api/v1/organizers/org';
const E = `${O}/events/ev1`;
const PROFILES = ['full', ...RESTRICTED_DEVICE_PROFILES] as const;

/** Routes the walk leaves out: they end the device's credential (asserted on a throwaway device below). */
const CREDENTIAL_ENDING = new Set(['POST /api/v1/device/roll', 'POST /api/v1/device/revoke']);

/**
 * Device security profiles on the real stack (pretix `devicesecurity.py`; src/auth/device-security.ts): for each
 * profile, a device of that profile is walked over every served, non-public route of the live route table with a
 * real request; a route outside its profile answers 403 "Request denied by device security profile.", a route inside
 * never does (for the restricted profiles: never 403 at all, the device's permissions cover every scan route).
 */
describe('device security profiles (pretix devicesecurity.py)', () => {
  let t: TestApp;
  let token: string;
  let base: string;
  const devices: Record<string, string> = {};
  let table: RouteTableRow[];

  /** One real request; bodies are read whole except event streams (their headers are the answer). */
  function call(
    method: string,
    path: string,
    authorization?: string,
  ): Promise<{ status: number; body: unknown }> {
    return new Promise((resolve, reject) => {
      const body = ['POST', 'PUT', 'PATCH'].includes(method) ? '{}' : undefined;
      const req = httpRequest(
        `${base}${path}`,
        {
          method,
          headers: {
            ...(authorization ? { Authorization: authorization } : {}),
            ...(body ? { 'Content-Type': 'application/json' } : {}),
          },
        },
        (res) => {
          if (String(res.headers['content-type']).startsWith('text/event-stream')) {
            res.destroy();
            resolve({ status: res.statusCode ?? 0, body: null });
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {
              // not JSON (a file, a page)
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  let listId = '';
  /**
   * The route's URL in the fixture: the organizer and event of the devices, the check-in list of the event (a
   * missing parent list is 403 by the spec), every other parameter `1`.
   */
  const urlOf = (path: string) =>
    path
      .split('/')
      .map((s) =>
        s === ':organizer'
          ? 'org'
          : s === ':event'
            ? 'ev1'
            : s === ':list'
              ? listId
              : s.startsWith(':')
                ? '1'
                : s,
      )
      .join('/');

  beforeAll(async () => {
    t = await startTestApp();
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'ev1' });
    const list = await t
      .http()
      .post(`${E}/checkinlists/`)
      .set('Authorization', auth(token))
      .send({ name: 'Entry' });
    expect(list.status).toBe(201);
    listId = String((list.body as { id: number }).id);
    for (const profile of PROFILES) {
      devices[profile] = (await createDevice(t, token, 'org', { security_profile: profile })).apiToken;
    }
    table = routeTableOf(t.app.get(RouteRegistry).routes);
  });
  afterAll(() => t.close());

  const walked = () =>
    table.filter((r) => r.access?.kind !== 'public' && !CREDENTIAL_ENDING.has(`${r.method} ${r.path}`));

  it.each(PROFILES)('a %s device is allowed exactly its routes and refused the others', async (profile) => {
    const wrong: string[] = [];
    let allowed = 0;
    let refused = 0;
    for (const route of walked()) {
      const res = await call(route.method, urlOf(route.path), `Device ${devices[profile]}`);
      const inProfile = deviceProfileAllows(profile, route.method, route.path);
      const deniedByProfile =
        res.status === 403 && (res.body as { detail?: string } | null)?.detail === DEVICE_PROFILE_DENIED;
      if (inProfile) {
        allowed++;
        // full: everything the device's permissions allow (they refuse with the permission message, not this).
        if (deniedByProfile || (profile !== 'full' && res.status === 403)) {
          wrong.push(`${route.method} ${route.path}: ${res.status} ${JSON.stringify(res.body)} (in profile)`);
        }
      } else {
        refused++;
        if (!deniedByProfile) {
          wrong.push(`${route.method} ${route.path}: ${res.status} ${JSON.stringify(res.body)} (outside)`);
        }
      }
      // The route table shows the same.
      if (profile !== 'full' && route.deviceProfiles.includes(profile) !== inProfile) {
        wrong.push(`${route.method} ${route.path}: route table disagrees`);
      }
    }
    expect(wrong).toEqual([]);
    if (profile === 'full') {
      expect(refused).toBe(0);
    } else {
      expect(allowed).toBeGreaterThan(15);
      expect(refused).toBeGreaterThan(200);
    }
  });

  it('refuses before looking at the organizer: a pretixscan device on a foreign organizer route gets the profile 403', async () => {
    const res = await call('GET', '/api/v1/organizers/nowhere/giftcards/', `Device ${devices.pretixscan}`);
    expect(res).toEqual({ status: 403, body: { detail: DEVICE_PROFILE_DENIED } });
    // Inside the profile, an unknown organizer is the permission 403.
    const inside = await call('GET', '/api/v1/organizers/nowhere/events/', `Device ${devices.pretixscan}`);
    expect(inside).toEqual({
      status: 403,
      body: { detail: 'You do not have permission to perform this action.' },
    });
  });

  it('tells the scanner profiles apart on orders, positions and media (pretix allow-lists)', async () => {
    const expectations: [string, string, Record<string, boolean>][] = [
      [
        'GET',
        `${E}/orders/`,
        { pretixscan: true, pretixscan_online_noorders: false, pretixscan_online_kiosk: false },
      ],
      [
        'GET',
        `${O}/orders/`,
        { pretixscan: true, pretixscan_online_noorders: false, pretixscan_online_kiosk: false },
      ],
      [
        'GET',
        `${O}/reusablemedia/`,
        { pretixscan: true, pretixscan_online_noorders: false, pretixscan_online_kiosk: false },
      ],
      [
        'GET',
        `${E}/checkinlists/${listId}/positions/`,
        { pretixscan: true, pretixscan_online_noorders: true, pretixscan_online_kiosk: false },
      ],
      [
        'GET',
        `${O}/checkinrpc/search/?list=${listId}`,
        { pretixscan: true, pretixscan_online_noorders: true, pretixscan_online_kiosk: true },
      ],
      [
        'GET',
        `${O}/giftcards/`,
        { pretixscan: false, pretixscan_online_noorders: false, pretixscan_online_kiosk: false },
      ],
      [
        'HEAD',
        `${E}/checkinlists/`,
        { pretixscan: false, pretixscan_online_noorders: false, pretixscan_online_kiosk: false },
      ],
    ];
    for (const [method, url, byProfile] of expectations) {
      for (const [profile, ok] of Object.entries(byProfile)) {
        const res = await call(method, url, `Device ${devices[profile]}`);
        if (ok) expect([method, url, profile, res.status]).not.toEqual([method, url, profile, 403]);
        else expect([method, url, profile, res.status]).toEqual([method, url, profile, 403]);
      }
    }
    // full: the gift cards (its permissions allow them).
    expect((await call('GET', `${O}/giftcards/`, `Device ${devices.full}`)).status).toBe(200);
  });

  it('treats a profile pretix does not know as full (pretix falls back to FullAccessSecurityProfile)', async () => {
    const { apiToken, deviceId } = await createDevice(t, token, 'org', { security_profile: 'pretixscan' });
    expect((await call('GET', `${O}/giftcards/`, `Device ${apiToken}`)).status).toBe(403);
    await t.db.query(
      `UPDATE device SET security_profile = 'pretixpos' WHERE device_id = $1 AND organizer_id = (SELECT id FROM organizer WHERE slug = 'org')`,
      [deviceId],
    );
    const res = await call('GET', `${O}/giftcards/`, `Device ${apiToken}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 0, results: [] });
  });

  it('answers 404 on the badge routes of pretix plugins for a device, a team token and no credential', async () => {
    for (const path of [`${E}/badgelayouts/`, `${E}/badgeitems/`]) {
      for (const authorization of [...PROFILES.map((p) => `Device ${devices[p]}`), auth(token), undefined]) {
        const res = await call('GET', path, authorization);
        expect([path, authorization ?? 'none', res.status, res.body]).toEqual([
          path,
          authorization ?? 'none',
          404,
          { detail: 'Not found.' },
        ]);
      }
    }
  });

  it('lets every profile roll and revoke its own credential', async () => {
    for (const profile of PROFILES) {
      const { apiToken } = await createDevice(t, token, 'org', { security_profile: profile });
      const rolled = await call('POST', '/api/v1/device/roll', `Device ${apiToken}`);
      expect([profile, rolled.status]).toEqual([profile, 200]);
      const fresh = (rolled.body as { api_token: string }).api_token;
      expect(fresh).not.toBe(apiToken);
      expect((await call('GET', '/api/v1/device/eventselection', `Device ${apiToken}`)).status).toBe(401);
      const revoked = await call('POST', '/api/v1/device/revoke', `Device ${fresh}`);
      expect([profile, revoked.status]).toEqual([profile, 200]);
      const after = await call('GET', '/api/v1/device/eventselection', `Device ${fresh}`);
      expect(after).toEqual({ status: 401, body: { detail: 'Device access has been revoked.' } });
    }
  });
});
