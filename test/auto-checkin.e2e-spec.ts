import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Automatic check-in (pretix 2025+ plugin `autocheckin`; pretix tests plugins/autocheckin/test_api.py,
 * test_checkin.py): `E/auto_checkin_rules/` CRUD with pretix's defaults, validation messages, permission and log
 * actions; and the effect: a placed-mode rule checks tickets in when the order is created, a paid-mode rule when it
 * is paid (or created paid), limited by product, variation, sales channel and payment method, on the rule's list
 * or every matching list, once per ticket and list, logged `pretix.event.checkin`.
 */
describe('automatic check-in', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/sample`;
  const R = `${E}/auto_checkin_rules`;
  const as = (tok: string) => ({
    get: (path: string) => t.http().get(path).set('Authorization', auth(tok)),
    post: (path: string, body: object = {}) => t.http().post(path).set('Authorization', auth(tok)).send(body),
    patch: (path: string, body: object) => t.http().patch(path).set('Authorization', auth(tok)).send(body),
    put: (path: string, body: object) => t.http().put(path).set('Authorization', auth(tok)).send(body),
    delete: (path: string) => t.http().delete(path).set('Authorization', auth(tok)),
  });
  let admin: ReturnType<typeof as>;
  let ticket: number;
  let parking: number;
  let list: number;
  let parkingList: number;

  /** The event's check-ins of a position (successful and stored), as the database has them. */
  const checkinsOf = (
    positionId: number,
  ): Promise<{ list_id: number; type: string; auto_checked_in: boolean }[]> =>
    t.db.query(
      'SELECT list_id, type, auto_checked_in FROM checkin WHERE position_id = $1 AND successful ORDER BY list_id',
      [positionId],
    );
  /** Deletes every rule of the event (each test starts without rules). */
  const clearRules = async () => {
    for (const r of (await admin.get(`${R}/`)).body.results as { id: number }[]) {
      expect((await admin.delete(`${R}/${r.id}/`)).status).toBe(204);
    }
  };

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    admin = as(token);
    await createEvent(t, token, 'org');
    ticket = (await admin.post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' })).body.id;
    parking = (await admin.post(`${E}/items/`, { name: 'Parking', default_price: '5.00' })).body.id;
    await admin.post(`${E}/quotas/`, { name: 'Q', size: 100, items: [ticket, parking] });
    list = (await admin.post(`${E}/checkinlists/`, { name: 'Entrance', limit_products: [ticket] })).body.id;
    parkingList = (await admin.post(`${E}/checkinlists/`, { name: 'Garage', limit_products: [parking] })).body
      .id;
  });
  afterAll(() => t.close());
  afterEach(clearRules);

  it('creates a rule with pretix defaults, lists, reads, patches, puts and deletes it; logs each write', async () => {
    const created = await admin.post(`${R}/`, { all_products: false, limit_products: [ticket] });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect(created.body).toEqual({
      id,
      list: null,
      mode: 'placed',
      all_sales_channels: true,
      limit_sales_channels: [],
      all_products: false,
      limit_products: [ticket],
      limit_variations: [],
      all_payment_methods: true,
      limit_payment_methods: [],
    });
    expect((await admin.get(`${R}/`)).body).toMatchObject({ count: 1, results: [created.body] });
    expect((await admin.get(`${R}/${id}/`)).body).toEqual(created.body);

    const patched = await admin.patch(`${R}/${id}/`, {
      mode: 'paid',
      all_payment_methods: false,
      limit_payment_methods: ['manual'],
      list,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      ...created.body,
      mode: 'paid',
      all_payment_methods: false,
      limit_payment_methods: ['manual'],
      list,
    });
    expect((await admin.get(`${R}/${id}/`)).body).toEqual(patched.body);

    // PUT replaces the rule: omitted fields go back to their defaults.
    const put = await admin.put(`${R}/${id}/`, {
      mode: 'paid',
      all_sales_channels: false,
      limit_sales_channels: ['web'],
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      id,
      list: null,
      mode: 'paid',
      all_sales_channels: false,
      limit_sales_channels: ['web'],
      all_products: true,
      limit_products: [],
      limit_variations: [],
      all_payment_methods: true,
      limit_payment_methods: [],
    });

    expect((await admin.delete(`${R}/${id}/`)).status).toBe(204);
    expect((await admin.get(`${R}/${id}/`)).status).toBe(404);
    expect((await admin.delete(`${R}/${id}/`)).status).toBe(404);
    const logs: { action_type: string; data: Record<string, unknown> }[] = await t.db.query(
      `SELECT action_type, data FROM log_entry WHERE content_type = 'autocheckinrule' AND object_id = $1 ORDER BY id`,
      [id],
    );
    expect(logs.map((l) => l.action_type)).toEqual([
      'pretix.plugins.autocheckin.rule.added',
      'pretix.plugins.autocheckin.rule.changed',
      'pretix.plugins.autocheckin.rule.changed',
      'pretix.plugins.autocheckin.rule.deleted',
    ]);
    expect(logs[0].data).toEqual({ all_products: false, limit_products: [ticket] });
  });

  it('validates as pretix: placed needs all payment methods, known choices and references of the event', async () => {
    const placed = await admin.post(`${R}/`, {
      mode: 'placed',
      all_payment_methods: false,
      limit_payment_methods: ['manual'],
    });
    expect(placed.status).toBe(400);
    expect(placed.body).toEqual({ non_field_errors: ['all_payment_methods should be used for mode=placed'] });
    const unknown = await admin.post(`${R}/`, {
      mode: 'paid',
      all_payment_methods: false,
      limit_payment_methods: ['unknown'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ limit_payment_methods: ['"unknown" is not a valid choice.'] });
    expect((await admin.post(`${R}/`, { mode: 'later' })).body).toEqual({
      mode: ['"later" is not a valid choice.'],
    });
    expect((await admin.post(`${R}/`, { limit_sales_channels: ['shop'] })).body).toEqual({
      limit_sales_channels: ['Object with identifier=shop does not exist.'],
    });
    expect((await admin.post(`${R}/`, { list: 'main' })).body).toEqual({
      list: ['Incorrect type. Expected pk value, received str.'],
    });

    await createEvent(t, token, 'org', { slug: 'other', name: { en: 'Other' } });
    const otherItem = (await admin.post(`${O}/events/other/items/`, { name: 'X', default_price: '1.00' }))
      .body.id;
    const otherList = (await admin.post(`${O}/events/other/checkinlists/`, { name: 'X' })).body.id;
    const refs = await admin.post(`${R}/`, {
      list: otherList,
      limit_products: [ticket, otherItem],
      limit_variations: [999999],
    });
    expect(refs.status).toBe(400);
    expect(refs.body).toEqual({
      list: [`Invalid pk "${otherList}" - object does not exist.`],
      limit_products: [`Invalid pk "${otherItem}" - object does not exist.`],
      limit_variations: ['Invalid pk "999999" - object does not exist.'],
    });
    // A PATCH is checked on the merged rule.
    const rule = (await admin.post(`${R}/`, { mode: 'paid', all_payment_methods: false })).body.id;
    const back = await admin.patch(`${R}/${rule}/`, { mode: 'placed' });
    expect(back.status).toBe(400);
    expect(back.body).toEqual({ non_field_errors: ['all_payment_methods should be used for mode=placed'] });
    expect((await admin.get(`${R}/${rule}/`)).body).toMatchObject({ mode: 'paid' });
    // Nothing was stored by the refused requests.
    expect((await admin.get(`${R}/`)).body.count).toBe(1);
  });

  it('needs event.settings.general:write, for reading too', async () => {
    const id = (await admin.post(`${R}/`, {})).body.id;
    const settings = as(
      await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.settings.general:write'] }),
    );
    const orders = as(
      await teamToken(t, 'org', {
        allEvents: true,
        eventPermissions: ['event.orders:read', 'event.orders:write', 'event.orders:checkin'],
      }),
    );
    expect((await settings.get(`${R}/`)).status).toBe(200);
    expect((await settings.patch(`${R}/${id}/`, { mode: 'paid' })).status).toBe(200);
    expect((await orders.get(`${R}/`)).status).toBe(403);
    expect((await orders.get(`${R}/${id}/`)).status).toBe(403);
    expect((await orders.post(`${R}/`, {})).status).toBe(403);
    expect((await orders.delete(`${R}/${id}/`)).status).toBe(403);
  });

  it('paid mode: the ticket is checked in on the list when the order is paid, once, logged', async () => {
    await admin.post(`${R}/`, { list, mode: 'paid' });
    await admin.post(`${R}/`, { list, mode: 'paid' }); // two rules on one list: one check-in
    const order = await admin.post(`${E}/orders/`, { positions: [{ item: ticket }, { item: parking }] });
    expect(order.status).toBe(201);
    const [tix, park] = order.body.positions.map((p: { id: number }) => p.id);
    expect(await checkinsOf(tix)).toEqual([]); // placed, not paid: nothing yet

    const paid = await admin.post(`${E}/orders/${order.body.code}/mark_paid/`, {});
    expect(paid.status).toBe(200);
    expect(await checkinsOf(tix)).toEqual([{ list_id: list, type: 'entry', auto_checked_in: true }]);
    expect(await checkinsOf(park)).toEqual([]); // the list does not admit parking
    const history = (await admin.get(`${E}/checkins/?list=${list}&auto_checked_in=true`)).body.results;
    expect(history).toEqual([
      expect.objectContaining({
        position: tix,
        list,
        type: 'entry',
        successful: true,
        auto_checked_in: true,
      }),
    ]);
    const shown = (await admin.get(`${E}/orders/${order.body.code}/`)).body.positions[0].checkins;
    expect(shown).toEqual([expect.objectContaining({ list, type: 'entry', auto_checked_in: true })]);
    expect((await admin.get(`${E}/checkinlists/${list}/`)).body.checkin_count).toBeGreaterThanOrEqual(1);
    const logs: { data: Record<string, unknown> }[] = await t.db.query(
      `SELECT data FROM log_entry WHERE action_type = 'pretix.event.checkin' AND content_type = 'order'
        AND (data->>'position')::int = $1`,
      [tix],
    );
    expect(logs.map((l) => l.data)).toEqual([
      expect.objectContaining({ position: tix, list, type: 'entry', first: true, auto_checked_in: true }),
    ]);
    // A scanner now sees the ticket as already inside.
    const scan = await admin.post(
      `${E}/checkinlists/${list}/positions/${order.body.positions[0].secret}/redeem/`,
      {},
    );
    expect(scan.status).toBe(400);
    expect(scan.body.reason).toBe('already_redeemed');
  });

  it('placed mode: the ticket is checked in when the order is created', async () => {
    await admin.post(`${R}/`, { list, mode: 'placed' });
    const order = await admin.post(`${E}/orders/`, { positions: [{ item: ticket }] });
    expect(order.status).toBe(201);
    const id = order.body.positions[0].id;
    expect(await checkinsOf(id)).toEqual([{ list_id: list, type: 'entry', auto_checked_in: true }]);
    // Paying later adds nothing (no paid-mode rule, and the placed check-in is kept once).
    await admin.post(`${E}/orders/${order.body.code}/mark_paid/`, {});
    expect(await checkinsOf(id)).toHaveLength(1);
  });

  it('paid mode on an order created paid (pretix sends placed and paid), limited to its payment method', async () => {
    await admin.post(`${R}/`, {
      list,
      mode: 'paid',
      all_payment_methods: false,
      limit_payment_methods: ['manual'],
    });
    const manual = await admin.post(`${E}/orders/`, {
      status: 'p',
      payment_provider: 'manual',
      positions: [{ item: ticket }],
    });
    expect(manual.status).toBe(201);
    expect(await checkinsOf(manual.body.positions[0].id)).toEqual([
      { list_id: list, type: 'entry', auto_checked_in: true },
    ]);
    // A bank transfer confirmed later does not match a rule limited to manual payments.
    const transfer = await admin.post(`${E}/orders/`, {
      payment_provider: 'banktransfer',
      positions: [{ item: ticket }],
    });
    expect(transfer.status).toBe(201);
    const payment = transfer.body.payments[0].local_id;
    const confirmed = await admin.post(`${E}/orders/${transfer.body.code}/payments/${payment}/confirm/`, {});
    expect(confirmed.status).toBe(200);
    expect((await admin.get(`${E}/orders/${transfer.body.code}/`)).body.status).toBe('p');
    expect(await checkinsOf(transfer.body.positions[0].id)).toEqual([]);
  });

  it('a rule limited to another product or sales channel does nothing; without a list every matching list', async () => {
    await admin.post(`${R}/`, { list, mode: 'placed', all_products: false, limit_products: [parking] });
    await admin.post(`${R}/`, {
      list,
      mode: 'placed',
      all_sales_channels: false,
      limit_sales_channels: ['api'],
    });
    const web = await admin.post(`${E}/orders/`, { positions: [{ item: ticket }] });
    expect(await checkinsOf(web.body.positions[0].id)).toEqual([]);
    const api = await admin.post(`${E}/orders/`, { sales_channel: 'api', positions: [{ item: ticket }] });
    expect(await checkinsOf(api.body.positions[0].id)).toEqual([
      { list_id: list, type: 'entry', auto_checked_in: true },
    ]);
    await clearRules();

    // No list: every list of the event that admits the product.
    await admin.post(`${R}/`, { mode: 'placed' });
    const both = await admin.post(`${E}/orders/`, { positions: [{ item: ticket }, { item: parking }] });
    const [tix, park] = both.body.positions.map((p: { id: number }) => p.id);
    expect(await checkinsOf(tix)).toEqual([{ list_id: list, type: 'entry', auto_checked_in: true }]);
    expect(await checkinsOf(park)).toEqual([{ list_id: parkingList, type: 'entry', auto_checked_in: true }]);
  });
});
