import type { Response } from 'supertest';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * `POST E/orders/{code}/change/` (compat §4.4 "Changing order contents", pretix `OrderChangeManager`; permission
 * `event.orders:write`): every part of the body, pretix's messages, all or nothing, quota under the same locks as
 * order creation (a change racing checkouts for the last place never oversells), freed places for sale at once,
 * totals and status, invoices, mail, log entries and webhooks. The race and the statement count are in
 * `order-change-concurrency.e2e-spec.ts`.
 */
describe('order change', () => {
  let t: TestApp;
  let token: string;
  let webhookId: number;
  const E = '/api/v1/organizers/org/events/sample';
  const OTHER = '/api/v1/organizers/org/events/other';

  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  async function ok(res: Response, status = 201) {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
  const change = (code: string, body: object, query = '') =>
    post(`${E}/orders/${code}/change/${query}`, body);

  let n = 0;
  /** An item on its own quota (null: no quota), made through the API. */
  async function product(size: number | null | 'none', extra: object = {}, base = E) {
    n += 1;
    const item = (
      await ok(await post(`${base}/items/`, { name: `Ticket ${n}`, default_price: '10.00', ...extra }))
    ).id as number;
    const quotaName = `Quota ${n}`;
    const quota =
      size === 'none'
        ? 0
        : ((await ok(await post(`${base}/quotas/`, { name: quotaName, size, items: [item] }))).id as number);
    return { item, quota, quotaName };
  }
  async function order(positions: object[], extra: object = {}) {
    return (await ok(await post(`${E}/orders/`, { email: 'buyer@example.org', positions, ...extra }))) as {
      code: string;
      total: string;
      status: string;
      positions: { id: number; positionid: number; item: number; price: string; secret: string }[];
      fees: { id: number; value: string }[];
    };
  }
  const logs = async (code: string) =>
    (
      await t.db.query<{ action_type: string; data: Record<string, unknown> }[]>(
        `SELECT l.action_type, l.data FROM log_entry l JOIN orders o ON o.id = l.object_id
          WHERE l.content_type = 'order' AND o.code = $1 ORDER BY l.id`,
        [code],
      )
    ).filter(
      (l) =>
        l.action_type.startsWith('pretix.event.order.changed') ||
        l.action_type === 'pretix.event.order.modified',
    );
  const availability = async (quota: number) => ok(await get(`${E}/quotas/${quota}/availability/`), 200);
  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    webhookId = (
      await ok(
        await post('/api/v1/organizers/org/webhooks/', {
          target_url: 'https://hooks.example.org/in',
          action_types: ['pretix.event.order.changed.*'],
        }),
      )
    ).id as number;
  });
  afterAll(() => t.close());

  it('patches product and price of a position and the value of a fee; the total follows', async () => {
    const a = await product(10);
    const b = await product(10);
    const o = await order([{ item: a.item }], { fees: [{ fee_type: 'payment', value: '0.25' }] });
    const p = o.positions[0];
    const res = await change(o.code, {
      patch_positions: [{ position: p.id, body: { item: b.item, price: '99.44' } }],
      patch_fees: [{ fee: o.fees[0].id, body: { value: '10.00' } }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: o.code, total: '109.44', status: 'n' });
    expect(res.body.positions[0]).toMatchObject({ id: p.id, item: b.item, price: '99.44', secret: p.secret });
    expect(res.body.fees[0]).toMatchObject({ value: '10.00' });
    expect((await ok(await get(`${E}/orders/${o.code}/`), 200)).total).toBe('109.44');
    expect(await availability(a.quota)).toMatchObject({ pending_orders: 0, available_number: 10 });
    expect(await availability(b.quota)).toMatchObject({ pending_orders: 1, available_number: 9 });
    const entries = await logs(o.code);
    expect(entries.map((l) => l.action_type)).toEqual([
      'pretix.event.order.changed.item',
      'pretix.event.order.changed.price',
      'pretix.event.order.changed.feevalue',
    ]);
    expect(entries[0].data).toEqual({
      position: p.id,
      positionid: 1,
      old_item: a.item,
      old_variation: null,
      new_item: b.item,
      new_variation: null,
      old_price: '10.00',
      addon_to: null,
      new_price: '10.00',
    });
    expect(entries[1].data).toMatchObject({ old_price: '10.00', new_price: '99.44' });
    // Each entry reaches the webhook registered for `pretix.event.order.changed.*`.
    const hooks = await t.db.query<{ action: string; order_code: string }[]>(
      'SELECT action, order_code FROM webhook_delivery WHERE webhook_id = $1 AND order_code = $2 ORDER BY id',
      [webhookId, o.code],
    );
    expect(hooks.map((h) => h.action)).toEqual(entries.map((l) => l.action_type));
  });

  it('refuses a product without quota, also with check_quotas=false; a full quota only when checking', async () => {
    const a = await product(10);
    const none = await product('none');
    const full = await product(0);
    const o = await order([{ item: a.item }]);
    const p = o.positions[0].id;
    for (const query of ['', '?check_quotas=false']) {
      for (const body of [
        { patch_positions: [{ position: p, body: { item: none.item } }] },
        { create_positions: [{ item: none.item }] },
      ]) {
        const res = await change(o.code, body, query);
        expect([res.status, res.body]).toEqual([
          400,
          ['There is no quota defined that allows this operation.'],
        ]);
      }
    }
    for (const query of ['', '?check_quotas=true']) {
      const res = await change(o.code, { create_positions: [{ item: full.item }] }, query);
      expect([res.status, res.body]).toEqual([
        400,
        [`The quota ${full.quotaName} does not have enough capacity left to perform the operation.`],
      ]);
    }
    const res = await change(
      o.code,
      { patch_positions: [{ position: p, body: { item: full.item } }] },
      '?check_quotas=false',
    );
    expect(res.status).toBe(200);
    expect(res.body.positions[0].item).toBe(full.item);
  });

  it('adds positions (default price, positionid after the canceled ones, add-ons by positionid)', async () => {
    const a = await product(10);
    const cat = (await ok(await post(`${E}/categories/`, { name: { en: 'Workshops' }, is_addon: true })))
      .id as number;
    const ws = await product(10, { category: cat });
    await ok(await post(`${E}/items/${a.item}/addons/`, { addon_category: cat }));
    const o = await order([{ item: a.item }, { item: a.item }]);
    await ok(await change(o.code, { cancel_positions: [{ position: o.positions[1].id }] }), 200);
    const res = await change(o.code, {
      create_positions: [
        { item: a.item, attendee_name: 'Peter', answers: [] },
        { item: ws.item, addon_to: 1, price: '5.00' },
      ],
    });
    expect(res.status).toBe(200);
    const active = (
      res.body.positions as {
        canceled: boolean;
        positionid: number;
        item: number;
        price: string;
        addon_to: number | null;
        attendee_name: string;
      }[]
    ).filter((x) => !x.canceled);
    expect(active.map((x) => [x.positionid, x.item, x.price])).toEqual([
      [1, a.item, '10.00'],
      [3, a.item, '10.00'],
      [4, ws.item, '5.00'],
    ]);
    expect(active[1].attendee_name).toBe('Peter');
    expect(active[2].addon_to).toBe(o.positions[0].id);
    expect(res.body.total).toBe('25.00');
    const add = (await logs(o.code)).filter((l) => l.action_type === 'pretix.event.order.changed.add');
    expect(add.map((l) => l.data)).toEqual([
      expect.objectContaining({ item: a.item, positionid: 3, price: '10.00', addon_to: null }),
      expect.objectContaining({ item: ws.item, positionid: 4, price: '5.00', addon_to: o.positions[0].id }),
    ]);
    // pretix's add-on rules.
    const cases: [object, unknown][] = [
      [
        { item: ws.item },
        ['This is an add-on product, please select the base position it should be added to.'],
      ],
      [
        { item: a.item, addon_to: 1 },
        ['The selected base position does not allow you to add this product as an add-on.'],
      ],
      [
        { item: ws.item, addon_to: 2 },
        { create_positions: [{ addon_to: ['addon_to refers to an unknown position ID for this order.'] }] },
      ],
    ];
    for (const [body, expected] of cases) {
      const r = await change(o.code, { create_positions: [body] });
      expect([body, r.status, r.body]).toEqual([body, 400, expected]);
    }
  });

  it('cancels a position and adds one in one go, with fees canceled and created', async () => {
    const a = await product(1);
    const o = await order([{ item: a.item }, { item: (await product(10)).item }], {
      fees: [{ fee_type: 'payment', value: '0.25' }],
    });
    const res = await change(o.code, {
      cancel_positions: [{ position: o.positions[0].id }],
      create_positions: [{ item: a.item, price: '99.99' }],
      create_fees: [{ value: '5.99', fee_type: 'service', description: 'Service fee' }],
      cancel_fees: [{ fee: o.fees[0].id }],
    });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe('115.98');
    const rows = await t.db.query<{ id: number; canceled: boolean; price: string }[]>(
      'SELECT p.id, p.canceled, p.price FROM order_position p JOIN orders o ON o.id = p.order_id WHERE o.code = $1 ORDER BY p.id',
      [o.code],
    );
    expect(rows.map((r) => [r.canceled, r.price])).toEqual([
      [true, '10.00'],
      [false, '10.00'],
      [false, '99.99'],
    ]);
    expect(res.body.fees).toEqual([
      expect.objectContaining({ fee_type: 'payment', canceled: true }),
      expect.objectContaining({
        fee_type: 'service',
        value: '5.99',
        description: 'Service fee',
        internal_type: '',
        tax_value: '0.00',
      }),
    ]);
    expect(await availability(a.quota)).toMatchObject({ pending_orders: 1, available_number: 0 });
  });

  it("gives a canceled position's place back at once: the next checkout gets it", async () => {
    const last = await product(1);
    const o = await order([{ item: last.item }, { item: (await product(10)).item }]);
    expect((await post(`${E}/orders/`, { positions: [{ item: last.item }] })).status).toBe(400);
    await ok(await change(o.code, { cancel_positions: [{ position: o.positions[0].id }] }), 200);
    expect((await post(`${E}/orders/`, { positions: [{ item: last.item }] })).status).toBe(201);
    expect(await availability(last.quota)).toMatchObject({ pending_orders: 1, available_number: 0 });
  });

  it("gives a canceled position's voucher redemption back", async () => {
    const a = await product(10);
    const voucher = (await ok(await post(`${E}/vouchers/`, { item: a.item, max_usages: 1 }))).id as number;
    const o = await order([{ item: a.item, voucher }, { item: a.item }]);
    expect((await ok(await get(`${E}/vouchers/${voucher}/`), 200)).redeemed).toBe(1);
    await ok(await change(o.code, { cancel_positions: [{ position: o.positions[0].id }] }), 200);
    expect((await ok(await get(`${E}/vouchers/${voucher}/`), 200)).redeemed).toBe(0);
  });

  it('answers an empty change with the order unchanged', async () => {
    const o = await order([{ item: (await product(10)).item }]);
    const before = await ok(await get(`${E}/orders/${o.code}/`), 200);
    expect(await ok(await change(o.code, {}), 200)).toEqual(before);
  });

  it("answers pretix's field errors and messages", async () => {
    const a = await product(10);
    const foreign = await product(10, {}, OTHER);
    const o = await order([{ item: a.item }], { fees: [{ fee_type: 'payment', value: '0.25' }] });
    const p = o.positions[0].id;
    const cases: [object, unknown][] = [
      [
        { cancel_fees: [{ fee: 999999 }] },
        { cancel_fees: [{ fee: ['Invalid pk "999999" - object does not exist.'] }] },
      ],
      [
        { patch_positions: [{ position: 999999, body: { price: '1.00' } }] },
        { patch_positions: [{ position: ['Invalid pk "999999" - object does not exist.'] }] },
      ],
      [
        { patch_positions: [{ position: p, body: { item: foreign.item } }] },
        { patch_positions: [{ body: { item: [`Invalid pk "${foreign.item}" - object does not exist.`] } }] },
      ],
      [
        { patch_positions: [{ position: p, body: { price: 'x' } }] },
        { patch_positions: [{ body: { price: ['A valid number is required.'] } }] },
      ],
      [
        { cancel_positions: [{ position: p }] },
        ['This operation would leave the order empty. Please cancel the order itself instead.'],
      ],
      [
        { split_positions: [{ position: p }] },
        ['This operation would leave the order empty. Please cancel the order itself instead.'],
      ],
      [
        {
          patch_positions: [
            { position: p, body: {} },
            { position: p, body: {} },
          ],
        },
        { patch_positions: ['You have specified the same object twice.'] },
      ],
      [
        { recalculate_taxes: 'keep_all' },
        { recalculate_taxes: [expect.stringContaining('is not a valid choice')] },
      ],
    ];
    for (const [body, expected] of cases) {
      const res = await change(o.code, body);
      expect([body, res.status, res.body]).toEqual([body, 400, expected]);
    }
    expect((await change('NOPE1', {})).status).toBe(404);
    const reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    expect((await post(`${E}/orders/${o.code}/change/`, {}, reader)).status).toBe(403);
    expect(await logs(o.code)).toEqual([]);
  });

  it('is all or nothing: a failing last part leaves the order, quotas and log untouched', async () => {
    const a = await product(10);
    const b = await product(10);
    const none = await product('none');
    const o = await order([{ item: a.item }, { item: a.item }], {
      fees: [{ fee_type: 'payment', value: '1.00' }],
    });
    const before = await ok(await get(`${E}/orders/${o.code}/`), 200);
    const logCount = async () =>
      Number((await t.db.query<{ n: string }[]>('SELECT count(*) AS n FROM log_entry'))[0].n);
    const entries = await logCount();
    const res = await change(o.code, {
      patch_positions: [{ position: o.positions[0].id, body: { item: b.item, price: '50.00' } }],
      cancel_positions: [{ position: o.positions[1].id }],
      patch_fees: [{ fee: o.fees[0].id, body: { value: '3.00' } }],
      create_fees: [{ fee_type: 'service', value: '2.00' }],
      create_positions: [{ item: a.item }, { item: none.item }],
    });
    expect([res.status, res.body]).toEqual([400, ['There is no quota defined that allows this operation.']]);
    expect(await ok(await get(`${E}/orders/${o.code}/`), 200)).toEqual(before);
    expect(await logCount()).toBe(entries);
    expect(await availability(a.quota)).toMatchObject({ pending_orders: 2 });
    expect(await availability(b.quota)).toMatchObject({ pending_orders: 0 });
  });

  it('splits positions off into a new order with new secrets; the old secrets are revoked', async () => {
    const a = await product(10);
    const o = await order([{ item: a.item }, { item: a.item, price: '7.00' }]);
    const moved = o.positions[1];
    const res = await change(o.code, { split_positions: [{ position: moved.id }] });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe('10.00');
    expect(res.body.positions.map((x: { id: number }) => x.id)).toEqual([o.positions[0].id]);
    const entries = await logs(o.code);
    expect(entries.map((l) => l.action_type)).toEqual(['pretix.event.order.changed.split']);
    const newCode = entries[0].data.new_order as string;
    const split = await ok(await get(`${E}/orders/${newCode}/`), 200);
    expect(split).toMatchObject({ status: 'n', total: '7.00', email: 'buyer@example.org' });
    expect(split.positions).toEqual([
      expect.objectContaining({ id: moved.id, positionid: 2, price: '7.00' }),
    ]);
    expect(split.positions[0].secret).not.toBe(moved.secret);
    expect((await logs(newCode)).map((l) => [l.action_type, l.data])).toEqual([
      ['pretix.event.order.changed.split_from', { original_order: o.code }],
    ]);
    const revoked = await t.db.query(
      'SELECT position_id, secret FROM revoked_secret WHERE position_id = $1',
      [moved.id],
    );
    expect(revoked).toEqual([{ position_id: moved.id, secret: moved.secret }]);
    expect(await availability(a.quota)).toMatchObject({ pending_orders: 2 });
  });

  it('splits a position off a paid order: the surplus pays for it by offsetting', async () => {
    const a = await product(10);
    const o = await order([{ item: a.item }, { item: a.item }], { status: 'p' });
    const res = await change(o.code, { split_positions: [{ position: o.positions[1].id }] });
    expect(res.body).toMatchObject({ status: 'p', total: '10.00' });
    const newCode = (await logs(o.code))[0].data.new_order as string;
    const split = await ok(await get(`${E}/orders/${newCode}/`), 200);
    expect(split).toMatchObject({ status: 'p', total: '10.00' });
    expect(split.payments).toEqual([
      expect.objectContaining({ provider: 'offsetting', state: 'confirmed', amount: '10.00' }),
    ]);
    const refunds = await ok(await get(`${E}/orders/${o.code}/refunds/`), 200);
    expect(refunds.results).toEqual([
      expect.objectContaining({ provider: 'offsetting', state: 'done', amount: '10.00' }),
    ]);
  });

  it('recalculates taxes keeping the gross or the net price', async () => {
    const a = await product(10);
    const rule = (await ok(await post(`${E}/taxrules/`, { name: { en: 'VAT' }, rate: '7.00' }))).id as number;
    const o = await order([{ item: a.item, price: '23.00' }]);
    await t.db.query('UPDATE order_position SET tax_rule_id = $1 WHERE id = $2', [rule, o.positions[0].id]);
    let res = await change(o.code, { recalculate_taxes: 'keep_gross' });
    expect(res.body.positions[0]).toMatchObject({
      tax_rule: rule,
      tax_rate: '7.00',
      price: '23.00',
      tax_value: '1.50',
    });
    await ok(
      await t
        .http()
        .patch(`${E}/taxrules/${rule}/`)
        .set('Authorization', auth(token))
        .send({ rate: '10.00' }),
      200,
    );
    res = await change(o.code, { recalculate_taxes: 'keep_net' });
    expect(res.body.positions[0]).toMatchObject({ tax_rate: '10.00', price: '23.65', tax_value: '2.15' });
    expect(res.body.total).toBe('23.65');
    expect((await logs(o.code)).map((l) => l.action_type)).toEqual([
      'pretix.event.order.changed.price',
      'pretix.event.order.changed.recomputed',
      'pretix.event.order.changed.price',
      'pretix.event.order.changed.recomputed',
    ]);
  });

  it('makes a paid order pending when its total grows, and paid again when it shrinks back', async () => {
    const a = await product(10);
    const o = await order([{ item: a.item }], { status: 'p' });
    const p = o.positions[0].id;
    let res = await change(o.code, { patch_positions: [{ position: p, body: { price: '15.00' } }] });
    expect(res.body).toMatchObject({ status: 'n', total: '15.00' });
    expect(new Date(res.body.expires as string).getTime()).toBeGreaterThan(Date.now());
    res = await change(o.code, { patch_positions: [{ position: p, body: { price: '10.00' } }] });
    expect(res.body).toMatchObject({ status: 'p', total: '10.00' });
  });

  it('changes validity, secret and attendee fields; a secret in use is refused', async () => {
    const a = await product(10);
    const o = await order([{ item: a.item }, { item: a.item }]);
    const [p, q] = o.positions;
    const res = await change(o.code, {
      patch_positions: [
        {
          position: p.id,
          body: {
            valid_from: '2022-12-12T12:12:12Z',
            valid_until: '2022-12-12T13:12:12+00:00',
            secret: 'nobodyknows',
            attendee_name: 'Jane',
            company: 'ACME',
          },
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.positions[0]).toMatchObject({
      valid_from: '2022-12-12T12:12:12Z',
      valid_until: '2022-12-12T13:12:12Z',
      secret: 'nobodyknows',
      attendee_name: 'Jane',
      company: 'ACME',
    });
    expect((await logs(o.code)).find((l) => l.action_type === 'pretix.event.order.modified')?.data).toEqual({
      data: [{ position: p.id, attendee_name: 'Jane', company: 'ACME' }],
    });
    const refused = await change(o.code, {
      patch_positions: [{ position: q.id, body: { secret: 'nobodyknows' } }],
    });
    expect([refused.status, refused.body]).toEqual([
      400,
      ['You cannot assign a position secret that already exists.'],
    ]);
  });

  it('mails the customer on send_email and reissues the invoice unless reissue_invoice is false', async () => {
    const a = await product(10);
    const o = await order([{ item: a.item }], { fees: [{ fee_type: 'payment', value: '1.00' }] });
    await ok(await post(`${E}/orders/${o.code}/create_invoice/`));
    const mails = () =>
      t.db.query<{ subject: string }[]>(`SELECT subject FROM outgoing_mail WHERE subject LIKE $1`, [
        `%${o.code}%`,
      ]);
    const invoices = async () =>
      ((await ok(await get(`${E}/invoices/?order=${o.code}`), 200)).results as { is_cancellation: boolean }[])
        .length;
    await ok(
      await change(o.code, { send_email: false, create_positions: [{ item: a.item, price: '99.99' }] }),
      200,
    );
    expect(await mails()).toEqual([]);
    expect(await invoices()).toBe(3);
    await ok(
      await change(o.code, {
        send_email: true,
        reissue_invoice: false,
        cancel_fees: [{ fee: o.fees[0].id }],
      }),
      200,
    );
    expect(await mails()).toEqual([{ subject: `Your order has been changed: ${o.code}` }]);
    expect(await invoices()).toBe(3);
    // A position split off gets an invoice of its own; the original's is reissued.
    const res = await change(o.code, { split_positions: [{ position: o.positions[0].id }] });
    const newCode = (await logs(o.code)).find((l) => l.action_type === 'pretix.event.order.changed.split')!
      .data.new_order as string;
    expect(res.status).toBe(200);
    expect(((await ok(await get(`${E}/invoices/?order=${newCode}`), 200)).results as unknown[]).length).toBe(
      1,
    );
    expect(await invoices()).toBe(5);
  });
});
