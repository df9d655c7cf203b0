import type { Response } from 'supertest';
import type { OrderJson } from '../src/orders/presentation/order.presenter';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Deleting orders (compat §4.4 `DELETE E/orders/{code}/`): only test-mode orders, with everything they hold, giving
 * voucher uses and budget back; the log entry names the deleted order.
 */
describe('orders: DELETE', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  const ORG = '/api/v1/organizers/org';
  const E = `${ORG}/events/sample`;
  const OTHER = `${ORG}/events/other`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const NOT_FOUND = { detail: 'Not found.' };

  const send = (method: 'post' | 'delete', path: string, body?: unknown, as = token) =>
    t
      .http()
      [method](path)
      .set('Authorization', auth(as))
      .send(body as object);
  const get = (path: string, as = token) => t.http().get(path).set('Authorization', auth(as));

  /** The body of a response that must have the given status (untyped: the assertions check it). */
  async function ok(res: Response, status = 201) {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  let itemId: number;
  let questionId: number;

  async function order(body: Record<string, unknown> = {}): Promise<OrderJson> {
    return ok(await send('post', `${E}/orders/`, { positions: [{ item: itemId }], ...body }));
  }

  async function orderId(code: string): Promise<number> {
    const rows: { id: number }[] = await t.db.query('SELECT id FROM orders WHERE code = $1', [code]);
    return rows[0].id;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    itemId = (await ok(await send('post', `${E}/items/`, { name: 'Ticket', default_price: '10.00' }))).id;
    await ok(await send('post', `${E}/quotas/`, { name: 'Q', size: null, items: [itemId] }));
    questionId = (
      await ok(await send('post', `${E}/questions/`, { question: 'Q', type: 'S', items: [itemId] }))
    ).id;
    reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
  });
  afterAll(() => t.close());

  it('deletes a test-mode order with everything it holds, giving voucher uses and budget back', async () => {
    const voucher = await ok(
      await send('post', `${E}/vouchers/`, {
        item: itemId,
        max_usages: 3,
        price_mode: 'subtract',
        value: '2.00',
        budget: '10.00',
      }),
    );
    const keep = await order({ positions: [{ item: itemId, voucher: voucher.id }] });
    const created = await order({
      testmode: true,
      positions: [
        { item: itemId, voucher: voucher.id, answers: [{ question: questionId, answer: 'x' }] },
        { item: itemId, voucher: voucher.id },
      ],
      fees: [{ fee_type: 'service', value: '1.00' }],
      invoice_address: { name: 'X' },
      status: 'p',
    });
    const id = await orderId(created.code);
    expect((await get(`${E}/vouchers/${voucher.id}/`)).body).toMatchObject({
      redeemed: 3,
      budget_used: '6.00',
    });
    const res = await send('delete', `${E}/orders/${created.code}/`);
    expect([res.status, res.body]).toEqual([204, {}]);
    expect((await get(`${E}/orders/${created.code}/`)).status).toBe(404);
    for (const table of ['order_position', 'order_fee', 'order_payment', 'invoice_address']) {
      const rows: { n: string }[] = await t.db.query(
        `SELECT count(*) AS n FROM ${table} WHERE order_id = $1`,
        [id],
      );
      expect([table, Number(rows[0].n)]).toEqual([table, 0]);
    }
    expect((await get(`${E}/vouchers/${voucher.id}/`)).body).toMatchObject({
      redeemed: 1,
      budget_used: '2.00',
    });
    expect((await get(`${E}/orders/${keep.code}/`)).status).toBe(200);
    const log: unknown[] = await t.db.query(
      "SELECT content_type, object_id, data FROM log_entry WHERE action_type = 'pretix.event.order.deleted'",
    );
    // The entry names the deleted order (the change feed keys its tombstone on it).
    expect(log).toEqual([
      { content_type: 'order', object_id: expect.any(Number), data: { code: created.code } },
    ]);
  });

  it('refuses orders not in test mode (403), unknown codes (404) and callers without write (403)', async () => {
    const live = await order();
    let res = await send('delete', `${E}/orders/${live.code}/`);
    expect([res.status, res.body]).toEqual([403, { detail: 'Only test mode orders can be deleted.' }]);
    res = await send('delete', `${E}/orders/NOPE3/`);
    expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    const test = await order({ testmode: true });
    res = await send('delete', `${E}/orders/${test.code}/`, undefined, reader);
    expect([res.status, res.body]).toEqual([403, DENIED]);
    res = await send('delete', `${OTHER}/orders/${test.code}/`);
    expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    expect((await t.http().delete(`${E}/orders/${test.code}/`)).status).toBe(401);
    expect((await get(`${E}/orders/${live.code}/`)).status).toBe(200);
    expect((await get(`${E}/orders/${test.code}/`)).status).toBe(200);
  });
});
