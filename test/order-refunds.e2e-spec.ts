import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { orderLog, placePaymentOrder } from './order-payment-fixtures';

/**
 * Order refund endpoints `E/orders/{code}/refunds/` (pretix doc "Order refund endpoints"; permissions
 * event.orders:read / event.orders:write, docs/permissions.md).
 */
describe('order refunds', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let item: number;
  const E = '/api/v1/organizers/org/events/sample';
  const INVALID = { detail: 'Invalid state of refund' };
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const status = async (code: string): Promise<string> =>
    (await t.db.query<{ status: string }[]>('SELECT status FROM orders WHERE code = $1', [code]))[0].status;
  const refundStates = async (code: string): Promise<string[]> =>
    (
      await t.db.query<{ state: string }[]>(
        `SELECT r.state FROM order_refund r JOIN orders o ON o.id = r.order_id WHERE o.code = $1
          ORDER BY r.local_id`,
        [code],
      )
    ).map((r) => r.state);
  const paidOrder = () =>
    placePaymentOrder(t, {
      item,
      status: 'p',
      payments: [{ state: 'confirmed', amount: '100.00', provider: 'manual' }],
    });

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    const it = await post(`${E}/items/`, { name: 'Ticket', default_price: '100.00' });
    item = it.body.id as number;
    expect((await post(`${E}/quotas/`, { name: 'Q', size: 100, items: [item] })).status).toBe(201);
  });
  afterAll(() => t.close());

  it('create, list and detail in pretix shape; refunds after a payment refund are listed', async () => {
    const code = await paidOrder();
    expect((await post(`${E}/orders/${code}/payments/1/refund/`, { amount: '10.00' })).status).toBe(200);
    const created = await post(`${E}/orders/${code}/refunds/`, {
      state: 'created',
      source: 'admin',
      amount: '20.00',
      payment: 1,
      provider: 'manual',
      comment: 'Partial',
      info: {},
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      local_id: 2,
      state: 'created',
      source: 'admin',
      amount: '20.00',
      payment: 1,
      created: expect.any(String),
      execution_date: null,
      comment: 'Partial',
      provider: 'manual',
      details: {},
    });
    const list = await get(`${E}/orders/${code}/refunds/`, reader);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    expect(
      list.body.results.map((r: { local_id: number; amount: string }) => [r.local_id, r.amount]),
    ).toEqual([
      [1, '10.00'],
      [2, '20.00'],
    ]);
    expect(list.body.results[1]).toEqual(created.body);
    const one = await get(`${E}/orders/${code}/refunds/2/`, reader);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(created.body);
    expect((await get(`${E}/orders/${code}/refunds/3/`)).status).toBe(404);
    expect((await get(`${E}/orders/NOSUCH/refunds/`)).status).toBe(404);
    // The order's own `refunds` field lists the same refunds (pretix order resource), on detail and list.
    const order = await get(`${E}/orders/${code}/`, reader);
    expect(order.body.refunds).toEqual(list.body.results);
    const orders = await get(`${E}/orders/?code=${code}`, reader);
    expect(orders.body.results[0].refunds).toEqual(list.body.results);
    expect(
      (
        await post(
          `${E}/orders/${code}/refunds/`,
          { state: 'done', source: 'admin', amount: '1.00', provider: 'manual' },
          reader,
        )
      ).status,
    ).toBe(403);
  });

  it('done from created; refused (400) from done; the payment becomes refunded when covered', async () => {
    const code = await paidOrder();
    const created = await post(`${E}/orders/${code}/refunds/`, {
      state: 'transit',
      source: 'admin',
      amount: '100.00',
      payment: 1,
      provider: 'manual',
    });
    expect(created.status).toBe(201);
    const done = await post(`${E}/orders/${code}/refunds/1/done/`);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ local_id: 1, state: 'done' });
    expect(done.body.execution_date).not.toBeNull();
    const pay = await get(`${E}/orders/${code}/payments/1/`);
    expect(pay.body.state).toBe('refunded');
    for (const action of ['done', 'process', 'cancel']) {
      const again = await post(`${E}/orders/${code}/refunds/1/${action}/`);
      expect(again.status).toBe(400);
      expect(again.body).toEqual(INVALID);
    }
    expect((await orderLog(t, code)).map((l) => l.action)).toEqual([
      'pretix.event.order.refund.created',
      'pretix.event.order.refund.done',
    ]);
  });

  it('process of an external refund: done, and the paid order no longer covered becomes pending', async () => {
    const code = await paidOrder();
    await post(`${E}/orders/${code}/refunds/`, {
      state: 'external',
      source: 'external',
      amount: '30.00',
      provider: 'manual',
    });
    expect(await status(code)).toBe('p');
    const res = await post(`${E}/orders/${code}/refunds/1/process/`, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'done', payment: null, source: 'external' });
    expect(await status(code)).toBe('n');
  });

  it('process with mark_canceled cancels the order; cancel of a created refund; bad payment 400', async () => {
    const code = await paidOrder();
    await post(`${E}/orders/${code}/refunds/`, {
      state: 'external',
      source: 'external',
      amount: '100.00',
      provider: 'manual',
    });
    const res = await post(`${E}/orders/${code}/refunds/1/process/`, { mark_canceled: true });
    expect(res.status).toBe(200);
    expect(await status(code)).toBe('c');

    const other = await paidOrder();
    await post(`${E}/orders/${other}/refunds/`, {
      state: 'created',
      source: 'admin',
      amount: '5.00',
      provider: 'manual',
    });
    const canceled = await post(`${E}/orders/${other}/refunds/1/cancel/`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.state).toBe('canceled');
    expect(await refundStates(other)).toEqual(['canceled']);
    expect((await orderLog(t, other)).map((l) => l.action)).toEqual([
      'pretix.event.order.refund.created',
      'pretix.event.order.refund.canceled',
    ]);
    const bad = await post(`${E}/orders/${other}/refunds/`, {
      state: 'done',
      source: 'admin',
      amount: '5.00',
      payment: 7,
      provider: 'manual',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ payment: ['Unknown payment.'] });
    const badState = await post(`${E}/orders/${other}/refunds/`, {
      state: 'x',
      source: 'y',
      amount: '5.00',
      provider: 'manual',
    });
    expect(badState.status).toBe(400);
    expect(Object.keys(badState.body).sort()).toEqual(['source', 'state']);
    expect(await refundStates(other)).toEqual(['canceled']);
  });

  it('create done with mark_pending: a paid order no longer covered becomes pending', async () => {
    const code = await paidOrder();
    const res = await post(`${E}/orders/${code}/refunds/`, {
      state: 'done',
      source: 'admin',
      amount: '50.00',
      payment: 1,
      provider: 'manual',
      mark_pending: true,
    });
    expect(res.status).toBe(201);
    expect(await status(code)).toBe('n');
    expect((await orderLog(t, code)).map((l) => l.action)).toEqual([
      'pretix.event.order.refund.created',
      'pretix.event.order.refund.done',
    ]);
  });
});
