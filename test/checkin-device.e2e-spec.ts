import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Scans made with a device credential (`Authorization: Device <token>`) record the device's number and its gate
 * (pretix `device_id`, `gate`): redeems (single and batch), failed check-ins uploaded by scanners, annulments; they
 * show in `E/checkins/`, on the list's positions and on order positions. Team tokens record nothing. An offline
 * double entry between two devices names the other device in its `conflict`.
 */
describe('check-ins made by devices', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/fest`;
  let list: number;
  let item: number;
  const door = { apiToken: '', deviceId: 0, gate: 0 };
  const bar = { apiToken: '', deviceId: 0 };

  const as = (authorization: string) => ({
    post: (path: string, body: object) => t.http().post(path).set('Authorization', authorization).send(body),
    get: (path: string) => t.http().get(path).set('Authorization', authorization),
  });
  const team = () => as(auth(token));
  const device = (apiToken: string) => as(`Device ${apiToken}`);

  async function initializedDevice(body: Record<string, unknown>) {
    const created = await team().post(`${O}/devices/`, { name: 'Scanner', limit_events: ['fest'], ...body });
    expect(created.status).toBe(201);
    const res = await t.http().post('/api/v1/device/initialize').send({
      token: created.body.initialization_token,
      hardware_brand: 'Zebra',
      hardware_model: 'TC25',
      os_name: 'Android',
      os_version: '8.1.0',
      software_brand: 'pretixSCAN',
      software_version: '1.5.1',
    });
    expect(res.status).toBe(200);
    return { apiToken: res.body.api_token as string, deviceId: created.body.device_id as number };
  }

  const ticket = async () => {
    const res = await team().post(`${E}/orders/`, { status: 'p', positions: [{ item }] });
    expect(res.status).toBe(201);
    return { secret: res.body.positions[0].secret as string, id: res.body.positions[0].id as number };
  };
  const history = async (position: number) =>
    (await team().get(`${E}/checkins/?ordering=-id`)).body.results
      .filter((c: { position: number }) => c.position === position)
      .reverse();

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'fest' });
    item = (await team().post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' })).body.id;
    await team().post(`${E}/quotas/`, { name: 'Q', size: 100, items: [item] });
    list = (await team().post(`${E}/checkinlists/`, { name: 'Door', all_products: true })).body.id;
    const gate = await team().post(`${O}/gates/`, { name: 'North gate' });
    expect(gate.status).toBe(201);
    door.gate = gate.body.id;
    Object.assign(door, await initializedDevice({ name: 'Door', gate: door.gate }));
    Object.assign(bar, await initializedDevice({ name: 'Bar' }));
  });
  afterAll(() => t.close());

  it('a redeem by a device records its number and gate, shown in the history, the list positions and the order', async () => {
    const { secret, id } = await ticket();
    const res = await device(door.apiToken).post(`${O}/checkinrpc/redeem/`, { lists: [list], secret });
    expect(res.status).toBe(201);
    const [scan] = await history(id);
    expect(scan).toMatchObject({
      successful: true,
      device_id: door.deviceId,
      gate: door.gate,
      conflict: null,
    });
    const position = await team().get(`${E}/orderpositions/${id}/`);
    expect(position.body.checkins).toEqual([
      expect.objectContaining({ id: scan.id, device_id: door.deviceId, gate: door.gate }),
    ]);
    const onList = await team().get(`${E}/checkinlists/${list}/positions/${id}/`);
    expect(onList.body.checkins).toEqual([
      expect.objectContaining({ id: scan.id, device_id: door.deviceId, gate: door.gate }),
    ]);
    // A refused scan by the other device (no gate) records that device.
    const again = await device(bar.apiToken).post(`${O}/checkinrpc/redeem/`, { lists: [list], secret });
    expect(again.status).toBe(400);
    const [, refused] = await history(id);
    expect(refused).toMatchObject({
      successful: false,
      error_reason: 'already_redeemed',
      device_id: bar.deviceId,
      gate: null,
    });
  });

  it('a failed check-in uploaded by a device and an annulment record the device', async () => {
    const failed = await device(door.apiToken).post(`${E}/checkinlists/${list}/failed_checkins/`, {
      raw_barcode: 'garbage',
      error_reason: 'invalid',
      nonce: 'f-1',
    });
    expect(failed.status).toBe(201);
    expect(failed.body).toMatchObject({ successful: false, device_id: door.deviceId, gate: door.gate });

    // A check-in by a team token, annulled by a device: the annulment records the device.
    const first = await ticket();
    expect(
      (await team().post(`${O}/checkinrpc/redeem/`, { lists: [list], secret: first.secret, nonce: 'a-1' }))
        .status,
    ).toBe(201);
    expect((await history(first.id))[0]).toMatchObject({ device_id: null, gate: null });
    const annul = await device(door.apiToken).post(`${O}/checkinrpc/annul/`, { lists: [list], nonce: 'a-1' });
    expect(annul.status).toBe(200);
    expect(annul.body).toMatchObject({ error_reason: 'annulled', device_id: door.deviceId, gate: door.gate });

    // A device's own check-in annulled by it keeps that attribution.
    const second = await ticket();
    await device(bar.apiToken).post(`${O}/checkinrpc/redeem/`, {
      lists: [list],
      secret: second.secret,
      nonce: 'a-2',
    });
    const own = await device(bar.apiToken).post(`${O}/checkinrpc/annul/`, { lists: [list], nonce: 'a-2' });
    expect(own.body).toMatchObject({ error_reason: 'annulled', device_id: bar.deviceId, gate: null });
  });

  it('an offline double entry between two devices names the other device and gate in the conflict', async () => {
    const { secret, id } = await ticket();
    const offline = (minutesAgo: number, nonce: string) => ({
      lists: [list],
      secret,
      force: true,
      datetime: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
      nonce,
    });
    const late = await device(bar.apiToken).post(`${O}/checkinrpc/redeem_batch/`, {
      scans: [offline(5, 'bar-1')],
    });
    expect(late.body.results[0]).toMatchObject({ status_code: 201, status: 'ok' });
    const early = await device(door.apiToken).post(`${O}/checkinrpc/redeem_batch/`, {
      scans: [offline(15, 'door-1')],
    });
    expect(early.body.results[0]).toMatchObject({ status_code: 201, status: 'ok' });
    const [lost, entry] = await history(id);
    expect(entry).toMatchObject({ successful: true, device_id: door.deviceId, gate: door.gate });
    expect(lost).toMatchObject({
      successful: false,
      error_reason: 'already_redeemed',
      device_id: bar.deviceId,
      gate: null,
      conflict: { device_id: door.deviceId, gate: door.gate, datetime: entry.datetime, checkin_id: entry.id },
    });
  });

  it('team tokens record no device', async () => {
    const { secret, id } = await ticket();
    await team().post(`${O}/checkinrpc/redeem_batch/`, { scans: [{ lists: [list], secret }] });
    expect((await history(id))[0]).toMatchObject({
      successful: true,
      device_id: null,
      gate: null,
      device: null,
    });
  });
});
