import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Check-in details as pretix answers them (compat §3.20–§3.22; pretix test_checkin.py, test_checkinrpc.py): the
 * detail of a list's position (same shape, filters and permissions as the list), `status/` names as plain texts,
 * `device_id`/`gate`/`auto_checked_in` on check-ins (history and inside positions), and the RPC's answers for
 * lists the credential cannot reach (403 with pretix's detail on search, redeem and annul).
 */
describe('check-in parity', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/sample`;
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  let ticket: number;
  let shirt: number;
  let list: number;
  let paid: { id: number; secret: string; order: string };
  let pending: { id: number; secret: string };

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    ticket = (await post(`${E}/items/`, { name: { en: 'Ticket', de: 'Karte' }, default_price: '10.00' })).body
      .id;
    const shirtBody = (
      await post(`${E}/items/`, {
        name: { de: 'Hemd' },
        default_price: '5.00',
        admission: false,
        variations: [{ value: { en: 'Large', de: 'Groß' } }, { value: { de: 'Klein' } }],
      })
    ).body;
    shirt = shirtBody.id;
    const quota = await post(`${E}/quotas/`, {
      name: 'Q',
      size: 100,
      items: [ticket, shirt],
      variations: shirtBody.variations.map((v: { id: number }) => v.id),
    });
    expect(quota.status).toBe(201);
    list = (await post(`${E}/checkinlists/`, { name: 'Main', limit_products: [ticket] })).body.id;
    const order = await post(`${E}/orders/`, {
      status: 'p',
      email: 'guest@example.org',
      positions: [{ item: ticket, attendee_name: 'Ada Lovelace' }],
    });
    expect(order.status).toBe(201);
    paid = { id: order.body.positions[0].id, secret: order.body.positions[0].secret, order: order.body.code };
    const open = await post(`${E}/orders/`, { positions: [{ item: ticket }] });
    pending = { id: open.body.positions[0].id, secret: open.body.positions[0].secret };
  });
  afterAll(() => t.close());

  it('GET positions/{id}/: the row of the list, 404 when the list (with its filters) does not show it', async () => {
    const page = (await get(`${E}/checkinlists/${list}/positions/?secret=${paid.secret}`)).body;
    const one = await get(`${E}/checkinlists/${list}/positions/${paid.id}/`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(page.results[0]);
    expect(one.body).toMatchObject({
      id: paid.id,
      order: paid.order,
      require_attention: false,
      checkins: [],
    });
    // A pending order is not on the list unless `ignore_status=true`.
    expect((await get(`${E}/checkinlists/${list}/positions/${pending.id}/`)).status).toBe(404);
    const any = await get(`${E}/checkinlists/${list}/positions/${pending.id}/?ignore_status=true`);
    expect(any.status).toBe(200);
    expect(any.body.id).toBe(pending.id);
    // The list's filters apply.
    expect((await get(`${E}/checkinlists/${list}/positions/${paid.id}/?has_checkin=true`)).status).toBe(404);
    expect((await get(`${E}/checkinlists/${list}/positions/${paid.id}/?item=${shirt}`)).status).toBe(404);
    expect((await get(`${E}/checkinlists/${list}/positions/${paid.id}/?has_checkin=maybe`)).status).toBe(400);
    // Unknown ids 404, an unknown list 403 (a missing parent).
    expect((await get(`${E}/checkinlists/${list}/positions/999999/`)).status).toBe(404);
    expect((await get(`${E}/checkinlists/${list}/positions/abc/`)).status).toBe(404);
    expect((await get(`${E}/checkinlists/999999/positions/${paid.id}/`)).status).toBe(403);
  });

  it('GET positions/{id}/: readers and scanners (no search needed), nobody else', async () => {
    const scanner = await teamToken(t, 'org', {
      allEvents: true,
      eventPermissions: ['event.orders:checkin'],
    });
    const reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    const nothing = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.vouchers:read'] });
    const path = `${E}/checkinlists/${list}/positions/${paid.id}/`;
    expect((await get(path, scanner)).status).toBe(200);
    expect((await get(path, reader)).status).toBe(200);
    expect((await get(path, nothing)).status).toBe(403);
  });

  it('check-ins carry device, device_id, gate (null) and auto_checked_in, in the history and in positions', async () => {
    const redeemed = await post(`${E}/checkinlists/${list}/positions/${paid.secret}/redeem/`, {});
    expect(redeemed.status).toBe(201);
    const [scan] = (await get(`${E}/checkins/?list=${list}`)).body.results;
    expect(scan).toMatchObject({ device: null, device_id: null, gate: null, auto_checked_in: false });
    const shape = {
      id: scan.id,
      list,
      datetime: scan.datetime,
      auto_checked_in: false,
      device: null,
      device_id: null,
      gate: null,
      type: 'entry',
    };
    expect(redeemed.body.position.checkins).toEqual([shape]);
    expect((await get(`${E}/checkinlists/${list}/positions/${paid.id}/`)).body.checkins).toEqual([shape]);
    const order = (await get(`${E}/orders/${paid.order}/`)).body;
    expect(order.positions[0].checkins).toEqual([shape]);
    const positions = (await get(`${E}/orderpositions/?order=${paid.order}`)).body;
    expect(positions.results[0].checkins).toEqual([shape]);
  });

  it('status/: product, variation and event names as plain texts (English, else the first language)', async () => {
    const all = (await post(`${E}/checkinlists/`, { name: 'All', all_products: true })).body.id;
    const status = await get(`${E}/checkinlists/${all}/status/`);
    expect(status.status).toBe(200);
    expect(status.body.event).toEqual({ name: 'Sample Conference' });
    const byId = new Map(status.body.items.map((i: { id: number }) => [i.id, i]));
    expect(byId.get(ticket)).toMatchObject({ name: 'Ticket', variations: [] });
    expect(byId.get(shirt)).toMatchObject({
      name: 'Hemd',
      admission: false,
      variations: [
        { id: expect.any(Number), value: 'Large', checkin_count: 0, position_count: 0 },
        { id: expect.any(Number), value: 'Klein', checkin_count: 0, position_count: 0 },
      ],
    });
  });

  it('status/ of a list of one date names the date', async () => {
    await createSeries(t, token, 'org', { slug: 'series', name: { en: 'Series' } });
    const S = `${O}/events/series`;
    const date = await post(`${S}/subevents/`, {
      name: { en: 'Opening night' },
      date_from: '2030-12-28T18:00:00Z',
    });
    expect(date.status).toBe(201);
    const dated = (await post(`${S}/checkinlists/`, { name: 'Night', subevent: date.body.id })).body.id;
    expect((await get(`${S}/checkinlists/${dated}/status/`)).body.event).toEqual({ name: 'Opening night' });
  });

  it('RPC: unreachable lists are 403 on search, redeem and annul (pretix detail); empty and doubled lists', async () => {
    await createEvent(t, token, 'org', { slug: 'other', name: { en: 'Other' } });
    const otherList = (await post(`${O}/events/other/checkinlists/`, { name: 'O', all_products: true })).body
      .id;
    const sampleOnly = await teamToken(t, 'org', {
      limitEvents: ['sample'],
      eventPermissions: ['event.orders:checkin', 'event.orders:read'],
    });
    const search = await get(`${O}/checkinrpc/search/?list=${list}&list=${otherList}&search=Ada`, sampleOnly);
    expect(search.status).toBe(403);
    expect(search.body).toEqual({
      detail: `You requested lists that do not exist or that you do not have access to: ${otherList}`,
    });
    const unknown = await get(`${O}/checkinrpc/search/?list=999998&list=999999`);
    expect(unknown.status).toBe(403);
    expect(unknown.body).toEqual({
      detail: 'You requested lists that do not exist or that you do not have access to: 999998, 999999',
    });
    const redeem = await post(
      `${O}/checkinrpc/redeem/`,
      { lists: [list, otherList], secret: 'x' },
      sampleOnly,
    );
    const detail = `You requested lists that do not exist or that you do not have access to: ${otherList}`;
    expect(redeem.status).toBe(403);
    expect(redeem.body).toEqual({ detail });
    const annul = await post(`${O}/checkinrpc/annul/`, { lists: [otherList], nonce: 'n' }, sampleOnly);
    expect(annul.status).toBe(403);
    expect(annul.body).toEqual({ detail });
    // Nothing was stored for the refused requests.
    const scans: unknown[] = await t.db.query('SELECT id FROM checkin WHERE list_id = $1', [otherList]);
    expect(scans).toEqual([]);

    expect((await post(`${O}/checkinrpc/redeem/`, { lists: [], secret: 'x' })).body).toEqual([
      'No check-in list passed.',
    ]);
    const none = await get(`${O}/checkinrpc/search/?search=Ada`);
    expect(none.status).toBe(400);
    expect(none.body).toEqual(['No check-in list passed.']);
    const second = (await post(`${E}/checkinlists/`, { name: 'Second', all_products: true })).body.id;
    const doubled = await get(`${O}/checkinrpc/search/?list=${list}&list=${second}`);
    expect(doubled.status).toBe(400);
    expect(doubled.body).toEqual(['Selecting two check-in lists from the same event is unsupported.']);
    const notFound = await post(`${O}/checkinrpc/annul/`, { lists: [list], nonce: 'never-used' });
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({ detail: 'No check-in found based on nonce' });
  });
});
