import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { openSse, SseStream } from './sse-client';

/**
 * The whole scanner flow on the real stack, as pretixSCAN drives it (issue 26 "Done when"): an organizer creates
 * two devices (profile `pretixscan`, one on a gate) → each initializes → `device/info`, `version`,
 * `device/eventselection` → mirrors the catalogue and the orders with libpretixsync's parameters → follows the
 * list's live stream → redeems online → goes "offline" and uploads a batch, with a double entry against the other
 * device → resyncs by delta, `revokedsecrets` and `blockedsecrets` → rolls its token → revokes itself. Each step
 * asserts the answer and the state afterwards.
 */
describe('scanner flow (pretixSCAN against this server)', () => {
  let t: TestApp;
  let token: string;
  let base: string;
  const O = '/api/v1/organizers/scan';
  const E = `${O}/events/gig`;
  let list: number;
  const tickets: { code: string; secret: string; id: number }[] = [];
  const streams: SseStream[] = [];

  const admin = {
    get: (path: string) => t.http().get(path).set('Authorization', auth(token)),
    post: (path: string, body: unknown = {}) =>
      t
        .http()
        .post(path)
        .set('Authorization', auth(token))
        .send(body as object),
    patch: (path: string, body: unknown) =>
      t
        .http()
        .patch(path)
        .set('Authorization', auth(token))
        .send(body as object),
  };
  const device = (apiToken: string) => ({
    get: (path: string) => t.http().get(path).set('Authorization', `Device ${apiToken}`),
    post: (path: string, body: unknown = {}) =>
      t
        .http()
        .post(path)
        .set('Authorization', `Device ${apiToken}`)
        .send(body as object),
  });
  const REPORT = {
    hardware_brand: 'Zebra',
    hardware_model: 'TC25',
    os_name: 'Android',
    os_version: '11',
    software_brand: 'pretixSCAN',
    software_version: '1.21.0',
  };

  /** Creates a device through `O/devices/` and initializes it; returns its number and API token. */
  async function setUpDevice(
    name: string,
    gate: number | null,
  ): Promise<{ number: number; apiToken: string }> {
    const created = await admin.post(`${O}/devices/`, {
      name,
      all_events: false,
      limit_events: ['gig'],
      security_profile: 'pretixscan',
      gate,
    });
    expect(created.status).toBe(201);
    const init = await t
      .http()
      .post('/api/v1/device/initialize')
      .send({ token: created.body.initialization_token, ...REPORT });
    expect(init.status).toBe(200);
    expect(init.body).toMatchObject({ organizer: 'scan', device_id: created.body.device_id, name });
    // Used once: a second initialization with the same token is refused with pretix's message.
    const again = await t
      .http()
      .post('/api/v1/device/initialize')
      .send({ token: created.body.initialization_token, ...REPORT });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ token: ['This initialization token has already been used.'] });
    return { number: created.body.device_id as number, apiToken: init.body.api_token as string };
  }

  /** The scans of the list, newest first, as `E/checkins/` shows them. */
  const scansOf = async (positionId: number) =>
    (await admin.get(`${E}/checkins/?list=${list}&ordering=id`)).body.results.filter(
      (c: { position: number }) => c.position === positionId,
    ) as {
      id: number;
      successful: boolean;
      error_reason: string | null;
      device_id: number | null;
      gate: number | null;
      datetime: string;
      conflict: Record<string, unknown> | null;
    }[];

  beforeAll(async () => {
    t = await startTestApp();
    await new Promise<void>((r) => t.app.getHttpServer().listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    ({ token } = await bootstrapOrganizer(t, 'scan'));
    const now = Date.now();
    await createEvent(t, token, 'scan', {
      slug: 'gig',
      date_from: new Date(now - 3_600_000).toISOString(),
      date_to: new Date(now + 6 * 3_600_000).toISOString(),
    });
    const item = (await admin.post(`${E}/items/`, { name: 'Ticket', default_price: '20.00' })).body
      .id as number;
    expect((await admin.post(`${E}/quotas/`, { name: 'All', size: 100, items: [item] })).status).toBe(201);
    expect((await admin.patch(`${E}/`, { live: true })).status).toBe(200);
    list = (await admin.post(`${E}/checkinlists/`, { name: 'Main entrance', all_products: true })).body
      .id as number;
    for (let i = 0; i < 4; i++) {
      const res = await admin.post(`${E}/orders/`, {
        status: 'p',
        email: `guest${i}@example.org`,
        positions: [{ item, attendee_name: `Guest ${i}` }],
      });
      expect(res.status).toBe(201);
      tickets.push({
        code: res.body.code,
        secret: res.body.positions[0].secret,
        id: res.body.positions[0].id,
      });
    }
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t.close();
  });

  it('runs from device creation to revocation', async () => {
    // --- Set-up: a gate, two devices with the pretixscan profile (one on the gate).
    const gate = await admin.post(`${O}/gates/`, { name: 'North gate' });
    expect(gate.status).toBe(201);
    const north = await setUpDevice('Door North', gate.body.id as number);
    const south = await setUpDevice('Door South', null);
    const dn = device(north.apiToken);
    const ds = device(south.apiToken);

    // --- Device info, server version, event selection.
    const info = await dn.get('/api/v1/device/info');
    expect(info.status).toBe(200);
    expect(info.body.device).toMatchObject({ device_id: north.number, name: 'Door North' });
    expect(info.body.server.version.pretix_numeric).toBe(20260050005000);
    const version = await dn.get('/api/v1/version');
    expect(version.status).toBe(200);
    expect(version.body.pretix_numeric).toBe(20260050005000);
    const selection = await dn.get('/api/v1/device/eventselection');
    expect(selection.status).toBe(200);
    expect(selection.body).toMatchObject({ event: { slug: 'gig' }, subevent: null, checkinlist: list });

    // --- Mirror the catalogue (everything the pretixscan profile lets a scanner read).
    for (const path of [
      `${E}/`,
      `${E}/items/`,
      `${E}/categories/`,
      `${E}/questions/`,
      `${E}/checkinlists/`,
    ]) {
      const res = await dn.get(path);
      expect([path, res.status]).toEqual([path, 200]);
    }
    expect((await dn.get(`${E}/settings/`)).status).toBe(200);

    // --- Mirror the orders as libpretixsync asks for them.
    const sync = await dn.get(
      `${E}/orders/?testmode=false&exclude=downloads&exclude=payment_date&exclude=payment_provider` +
        `&exclude=fees&exclude=positions.downloads&pdf_data=true`,
    );
    expect(sync.status).toBe(200);
    expect(sync.body.count).toBe(4);
    const first = sync.body.results[0] as Record<string, unknown> & { positions: Record<string, unknown>[] };
    expect(first).not.toHaveProperty('fees');
    expect(first).not.toHaveProperty('payment_provider');
    expect(first.positions[0]).not.toHaveProperty('downloads');
    expect(first.positions[0].pdf_data).toMatchObject({ event_name: 'Sample Conference' });
    const generated = sync.headers['x-page-generated'];
    expect(generated).toMatch(/Z$/);
    // The next run asks for what changed since: nothing yet.
    const later = await dn.get(
      `${E}/orders/?testmode=false&ordering=-last_modified&modified_since=${encodeURIComponent(generated)}`,
    );
    expect(later.status).toBe(200);
    expect(later.body.count).toBe(0);

    // --- The offline mirror of the list, with the cursor a later delta starts from.
    const mirror = await dn.get(`${E}/checkinlists/${list}/positions/`);
    expect(mirror.status).toBe(200);
    expect(mirror.body.count).toBe(4);
    const cursor = mirror.headers['x-delta-cursor'];
    expect(cursor).toBeTruthy();

    // --- The south door follows the list live.
    const live = await openSse(`${base}${E}/checkinlists/${list}/stream/`, {
      Authorization: `Device ${south.apiToken}`,
    });
    streams.push(live);
    expect(live.status).toBe(200);

    // --- Online redeem at the north door: pushed to the south door with the device and its gate.
    const online = await dn.post(`${O}/checkinrpc/redeem/`, { secret: tickets[0].secret, lists: [list] });
    expect(online.status).toBe(201);
    expect(online.body.status).toBe('ok');
    const pushed = await live.waitFor((e) => e.event === 'checkin', 10_000);
    expect(JSON.parse(pushed.data)).toMatchObject({
      position: tickets[0].id,
      secret: tickets[0].secret,
      device_id: north.number,
      gate: gate.body.id,
    });
    expect((await scansOf(tickets[0].id)).map((c) => [c.successful, c.device_id, c.gate])).toEqual([
      [true, north.number, gate.body.id],
    ]);

    // --- Offline: both doors let ticket 1 in (south first), the north door also tickets 2 and 3. The north door
    // uploads first, then the south door; the earlier-dated entry (south) wins.
    const southAt = new Date(Date.now() - 20 * 60_000).toISOString();
    const northAt = new Date(Date.now() - 10 * 60_000).toISOString();
    const northBatch = [1, 2, 3].map((i) => ({
      secret: tickets[i].secret,
      lists: [list],
      type: 'entry',
      force: true,
      datetime: northAt,
      nonce: `north-${i}`,
    }));
    const up = await dn.post(`${O}/checkinrpc/redeem_batch/`, { scans: northBatch });
    expect(up.status).toBe(200);
    expect(
      up.body.results.map((r: { status_code: number; status: string }) => [r.status_code, r.status]),
    ).toEqual([
      [201, 'ok'],
      [201, 'ok'],
      [201, 'ok'],
    ]);
    const down = await ds.post(`${O}/checkinrpc/redeem_batch/`, {
      scans: [{ secret: tickets[1].secret, lists: [list], force: true, datetime: southAt, nonce: 'south-1' }],
    });
    expect(down.status).toBe(200);
    expect(down.body.results[0]).toMatchObject({ status_code: 201, status: 'ok' });
    const doubled = await scansOf(tickets[1].id);
    const entry = doubled.find((c) => c.successful)!;
    const lost = doubled.find((c) => !c.successful)!;
    expect(doubled).toHaveLength(2);
    expect(entry).toMatchObject({ device_id: south.number, gate: null, conflict: null });
    expect(new Date(entry.datetime).toISOString()).toBe(southAt);
    expect(lost).toMatchObject({
      device_id: north.number,
      gate: gate.body.id,
      error_reason: 'already_redeemed',
      conflict: { device_id: south.number, gate: null, checkin_id: entry.id },
    });
    expect(new Date(lost.conflict!.datetime as string).toISOString()).toBe(southAt);

    // A retried upload (the scanner did not see the answer) counts nothing twice.
    const before = (await admin.get(`${E}/checkins/?list=${list}`)).body.count as number;
    const retry = await dn.post(`${O}/checkinrpc/redeem_batch/`, { scans: northBatch });
    expect(retry.status).toBe(200);
    expect(retry.body.results.every((r: { status: string }) => r.status === 'ok')).toBe(true);
    expect((await admin.get(`${E}/checkins/?list=${list}`)).body.count).toBe(before);

    // The live stream got the offline entries too.
    await live.waitFor((e) => e.event === 'checkin' && JSON.parse(e.data).position === tickets[3].id, 10_000);

    // --- Resync: a secret revoked and one ticket blocked by the box office, then the delta since the mirror.
    const old = tickets[3].secret;
    expect((await admin.post(`${E}/orders/${tickets[3].code}/regenerate_secrets/`)).status).toBe(200);
    expect(
      (await admin.post(`${E}/orderpositions/${tickets[2].id}/add_block/`, { name: 'admin' })).status,
    ).toBe(200);
    const revoked = await dn.get(`${E}/revokedsecrets/`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.results.map((r: { secret: string }) => r.secret)).toContain(old);
    const blocked = await dn.get(`${E}/blockedsecrets/`);
    expect(blocked.status).toBe(200);
    expect(blocked.body.results).toEqual([
      expect.objectContaining({ secret: tickets[2].secret, blocked: true }),
    ]);
    // The delta carries every ticket scanned or changed since the mirror, and the revoked secret. The change
    // watermark may trail a transaction still open elsewhere on the server: ask until it has passed.
    let delta = await dn.get(`${E}/checkinlists/${list}/positions/?changed_since=${cursor}`);
    for (let i = 0; i < 60 && !(delta.body.revoked_secrets ?? []).includes(old); i++) {
      await new Promise((r) => setTimeout(r, 500));
      delta = await dn.get(`${E}/checkinlists/${list}/positions/?changed_since=${cursor}`);
    }
    expect(delta.status).toBe(200);
    expect(delta.body.revoked_secrets).toContain(old);
    expect(delta.body.results.map((p: { id: number }) => p.id).sort()).toEqual(
      tickets.map((x) => x.id).sort(),
    );

    // --- The profile keeps the scanner to its routes.
    const outside = await dn.get(`${E}/orders/${tickets[0].code}/`);
    expect(outside.status).toBe(403);
    expect(outside.body).toEqual({ detail: 'Request denied by device security profile.' });

    // --- Roll: the old token is dead at once, the new one works.
    const rolled = await dn.post('/api/v1/device/roll');
    expect(rolled.status).toBe(200);
    const fresh = rolled.body.api_token as string;
    expect(fresh).not.toBe(north.apiToken);
    expect((await dn.get('/api/v1/device/info')).status).toBe(401);
    const dnew = device(fresh);
    expect((await dnew.get('/api/v1/device/info')).status).toBe(200);

    // --- Revoke: the device is refused from then on and shows as revoked to the organizer.
    expect((await dnew.post('/api/v1/device/revoke')).status).toBe(200);
    const refused = await dnew.get(`${E}/checkinlists/`);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ detail: 'Device access has been revoked.' });
    const shown = await admin.get(`${O}/devices/${north.number}/`);
    expect(shown.body).toMatchObject({ revoked: true, name: 'Door North' });
  });
});
