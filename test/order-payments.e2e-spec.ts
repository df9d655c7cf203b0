import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { orderLog, placePaymentOrder } from './order-payment-fixtures';

/**
 * Order payment endpoints `E/orders/{code}/payments/` (pretix doc "Order payment endpoints"; permissions
 * event.orders:read / event.orders:write, docs/permissions.md).
 */
describe('order payments', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let writer: string;
  let item: number;
  const E = '/api/v1/organizers/org/events/sample';
  const NOT_FOUND = { detail: 'Not found.' };
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const status = async (code: string): Promise<string> =>
    (await t.db.query<{ status: string }[]>('SELECT status FROM orders WHERE code = $1', [code]))[0].status;
  const paymentRows = async (code: string): Promise<{ local_id: number; state: string; amount: string }[]> =>
    t.db.query(
      `SELECT y.local_id, y.state, y.amount::text FROM order_payment y JOIN orders o ON o.id = y.order_id
        WHERE o.code = $1 ORDER BY y.local_id`,
      [code],
    );
  const refundRows = async (
    code: string,
  ): Promise<{ local_id: number; state: string; amount: string; source: string; provider: string }[]> =>
    t.db.query(
      `SELECT r.local_id, r.state, r.amount::text, r.source, r.provider FROM order_refund r
         JOIN orders o ON o.id = r.order_id WHERE o.code = $1 ORDER BY r.local_id`,
      [code],
    );

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    writer = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:write'] });
    const it = await t
      .http()
      .post(`${E}/items/`)
      .set('Authorization', auth(token))
      .send({ name: 'Ticket', default_price: '100.00' });
    item = it.body.id as number;
    const q = await t
      .http()
      .post(`${E}/quotas/`)
      .set('Authorization', auth(token))
      .send({ name: 'Q', size: 100, items: [item] });
    expect(q.status).toBe(201);
  });
  afterAll(() => t.close());

  describe('list and detail', () => {
    it('lists the payments by local_id in pretix shape, and answers one by local_id', async () => {
      const code = await placePaymentOrder(t, {
        item,
        payments: [
          { state: 'confirmed', amount: '40.00' },
          { state: 'created', amount: '60.00', provider: 'manual' },
        ],
      });
      const res = await get(`${E}/orders/${code}/payments/`, reader);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: 2,
        next: null,
        previous: null,
        results: [
          {
            local_id: 1,
            state: 'confirmed',
            amount: '40.00',
            created: '2026-01-01T10:00:00Z',
            payment_date: '2026-01-01T11:00:00Z',
            provider: 'banktransfer',
            payment_url: null,
            details: {},
          },
          {
            local_id: 2,
            state: 'created',
            amount: '60.00',
            created: '2026-01-01T10:00:00Z',
            payment_date: null,
            provider: 'manual',
            payment_url: null,
            details: {},
          },
        ],
      });
      const one = await get(`${E}/orders/${code}/payments/2/`, reader);
      expect(one.status).toBe(200);
      expect(one.body).toEqual(res.body.results[1]);
    });

    it('404 for an unknown order, an order of another event, or an unknown local_id', async () => {
      const code = await placePaymentOrder(t, { item, payments: [{ state: 'created', amount: '100.00' }] });
      for (const path of [
        `${E}/orders/NOSUCH/payments/`,
        `${E}/orders/NOSUCH/payments/1/`,
        `/api/v1/organizers/org/events/other/orders/${code}/payments/`,
        `${E}/orders/${code}/payments/2/`,
        `${E}/orders/${code}/payments/abc/`,
      ]) {
        const res = await get(path);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
    });

    it('401 without credentials', async () => {
      const code = await placePaymentOrder(t, { item });
      const res = await t.http().get(`${E}/orders/${code}/payments/`);
      expect(res.status).toBe(401);
    });
  });

  describe('create, confirm, cancel', () => {
    it('two partial confirmed payments: pending after the first, paid after the second; logged', async () => {
      const code = await placePaymentOrder(t, { item });
      const first = await post(
        `${E}/orders/${code}/payments/`,
        { state: 'confirmed', amount: '40.00', provider: 'manual', payment_date: '2030-01-01T10:00:00Z' },
        writer,
      );
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({
        local_id: 1,
        state: 'confirmed',
        amount: '40.00',
        provider: 'manual',
        payment_date: '2030-01-01T10:00:00Z',
        payment_url: null,
        details: {},
      });
      expect(await status(code)).toBe('n');
      const second = await post(`${E}/orders/${code}/payments/`, {
        state: 'confirmed',
        amount: '60.00',
        provider: 'banktransfer',
      });
      expect(second.status).toBe(201);
      expect(second.body).toMatchObject({ local_id: 2, state: 'confirmed', amount: '60.00' });
      expect(await status(code)).toBe('p');
      const order = await get(`${E}/orders/${code}/`);
      expect(order.body.status).toBe('p');
      expect(order.body.payments.map((p: { state: string }) => p.state)).toEqual(['confirmed', 'confirmed']);
      expect((await orderLog(t, code)).map((l) => l.action)).toEqual([
        'pretix.event.order.payment.confirmed',
        'pretix.event.order.payment.started',
        'pretix.event.order.payment.confirmed',
        'pretix.event.order.paid',
        'pretix.event.order.payment.started',
      ]);
    });

    it('a created payment confirmed pays the order; confirm or cancel again answers 400', async () => {
      const code = await placePaymentOrder(t, { item });
      const created = await post(`${E}/orders/${code}/payments/`, {
        state: 'created',
        amount: '100.00',
        provider: 'banktransfer',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ local_id: 1, state: 'created', payment_date: null });
      expect(await status(code)).toBe('n');
      const ok = await post(`${E}/orders/${code}/payments/1/confirm/`, { force: false, send_email: false });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ local_id: 1, state: 'confirmed' });
      expect(ok.body.payment_date).not.toBeNull();
      expect(await status(code)).toBe('p');
      for (const action of ['confirm', 'cancel']) {
        const again = await post(`${E}/orders/${code}/payments/1/${action}/`);
        expect(again.status).toBe(400);
        expect(again.body).toEqual({ detail: 'Invalid state of payment' });
      }
      expect(await paymentRows(code)).toEqual([{ local_id: 1, state: 'confirmed', amount: '100.00' }]);
    });

    it('cancel of a created payment; confirm of the canceled payment is refused (400, nothing changes)', async () => {
      const code = await placePaymentOrder(t, { item, payments: [{ state: 'created', amount: '100.00' }] });
      const canceled = await post(`${E}/orders/${code}/payments/1/cancel/`);
      expect(canceled.status).toBe(200);
      expect(canceled.body).toMatchObject({ local_id: 1, state: 'canceled' });
      const before = await orderLog(t, code);
      expect(before.map((l) => l.action)).toEqual(['pretix.event.order.payment.canceled']);
      const res = await post(`${E}/orders/${code}/payments/1/confirm/`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'Invalid state of payment' });
      expect(await paymentRows(code)).toEqual([{ local_id: 1, state: 'canceled', amount: '100.00' }]);
      expect(await orderLog(t, code)).toEqual(before);
      expect(await status(code)).toBe('n');
    });

    it('confirming the payment of an expired order re-checks quotas: 400 when sold out, paid with force', async () => {
      const small = await post(`${E}/items/`, { name: 'Small', default_price: '100.00' });
      const quota = await post(`${E}/quotas/`, { name: 'Small quota', size: 1, items: [small.body.id] });
      expect(quota.status).toBe(201);
      await placePaymentOrder(t, { item: small.body.id, status: 'p' });
      const code = await placePaymentOrder(t, {
        item: small.body.id,
        status: 'e',
        payments: [{ state: 'pending', amount: '100.00' }],
      });
      const refused = await post(`${E}/orders/${code}/payments/1/confirm/`);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        detail: 'There is not enough quota available on quota "Small quota" to perform the operation.',
      });
      expect(await paymentRows(code)).toEqual([{ local_id: 1, state: 'pending', amount: '100.00' }]);
      expect(await status(code)).toBe('e');
      const forced = await post(`${E}/orders/${code}/payments/1/confirm/`, { force: true });
      expect(forced.status).toBe(200);
      expect(await status(code)).toBe('p');
    });

    it('400 naming the field for bad bodies; 403 for a reader; 404 for an unknown payment', async () => {
      const code = await placePaymentOrder(t, { item });
      const bad = await post(`${E}/orders/${code}/payments/`, {
        state: 'paid',
        amount: 'x',
        provider: 'manual',
      });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body).sort()).toEqual(['amount', 'state']);
      const gift = await post(`${E}/orders/${code}/payments/`, {
        state: 'confirmed',
        amount: '1.00',
        provider: 'giftcard',
      });
      expect(gift.status).toBe(400);
      // A gift card payment must name its card (test/order-giftcard-payments.e2e-spec.ts has the rest).
      expect(gift.body).toEqual({
        info: ['Name the gift card with "gift_card" (its id) or "gift_card_secret".'],
      });
      const denied = await post(
        `${E}/orders/${code}/payments/`,
        { state: 'created', amount: '1.00', provider: 'manual' },
        reader,
      );
      expect(denied.status).toBe(403);
      expect((await post(`${E}/orders/${code}/payments/9/confirm/`)).status).toBe(404);
      expect(await paymentRows(code)).toEqual([]);
    });
  });

  describe('refund', () => {
    it('a refund above the payment is refused (400, nothing written); a partial one makes the order pending', async () => {
      const code = await placePaymentOrder(t, {
        item,
        status: 'p',
        payments: [{ state: 'confirmed', amount: '100.00', provider: 'manual' }],
      });
      const tooMuch = await post(`${E}/orders/${code}/payments/1/refund/`, { amount: '100.01' });
      expect(tooMuch.status).toBe(400);
      expect(tooMuch.body).toEqual({
        amount: ['Invalid refund amount, only 100.00 are available to refund.'],
      });
      const zero = await post(`${E}/orders/${code}/payments/1/refund/`, { amount: '0.00' });
      expect(zero.status).toBe(400);
      expect(zero.body).toEqual({ amount: ['Invalid refund amount.'] });
      expect(await refundRows(code)).toEqual([]);
      expect(await orderLog(t, code)).toEqual([]);

      const part = await post(`${E}/orders/${code}/payments/1/refund/`, {
        amount: '30.00',
        comment: 'Sorry',
      });
      expect(part.status).toBe(200);
      expect(part.body).toMatchObject({
        local_id: 1,
        state: 'done',
        source: 'admin',
        amount: '30.00',
        payment: 1,
        comment: 'Sorry',
        provider: 'manual',
        details: {},
      });
      expect(part.body.execution_date).not.toBeNull();
      expect(await status(code)).toBe('n');
      expect(await paymentRows(code)).toEqual([{ local_id: 1, state: 'confirmed', amount: '100.00' }]);
      const rest = await post(`${E}/orders/${code}/payments/1/refund/`, {});
      expect(rest.status).toBe(400);
      expect(rest.body).toEqual({ amount: ['Invalid refund amount, only 70.00 are available to refund.'] });
      const full = await post(`${E}/orders/${code}/payments/1/refund/`, { amount: '70.00' });
      expect(full.status).toBe(200);
      expect(full.body).toMatchObject({ local_id: 2, amount: '70.00', payment: 1 });
      expect(await paymentRows(code)).toEqual([{ local_id: 1, state: 'refunded', amount: '100.00' }]);
      const again = await post(`${E}/orders/${code}/payments/1/refund/`, { amount: '1.00' });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ detail: 'Invalid state of payment.' });
      expect((await orderLog(t, code)).map((l) => l.action)).toEqual([
        'pretix.event.order.refund.created',
        'pretix.event.order.refund.done',
        'pretix.event.order.refund.created',
        'pretix.event.order.refund.done',
      ]);
    });

    it('20 parallel refunds of 10.00 on a 100.00 payment: exactly 10 succeed, never more than the payment', async () => {
      const code = await placePaymentOrder(t, {
        item,
        status: 'p',
        payments: [{ state: 'confirmed', amount: '100.00' }],
      });
      const results = await Promise.all(
        Array.from({ length: 20 }, () => post(`${E}/orders/${code}/payments/1/refund/`, { amount: '10.00' })),
      );
      const codes = results.map((r) => r.status);
      expect(codes.filter((c) => c === 200)).toHaveLength(10);
      expect(codes.filter((c) => c === 400)).toHaveLength(10);
      for (const r of results.filter((x) => x.status === 400)) {
        expect([
          { detail: 'Invalid state of payment.' },
          { amount: ['Invalid refund amount, only 0.00 are available to refund.'] },
        ]).toContainEqual(r.body);
      }
      const [{ sum, n, ids }] = await t.db.query(
        `SELECT sum(r.amount)::text AS sum, count(*)::int AS n, count(DISTINCT r.local_id)::int AS ids
           FROM order_refund r JOIN orders o ON o.id = r.order_id WHERE o.code = $1`,
        [code],
      );
      expect({ sum, n, ids }).toEqual({ sum: '100.00', n: 10, ids: 10 });
      expect(await paymentRows(code)).toEqual([{ local_id: 1, state: 'refunded', amount: '100.00' }]);
      expect((await refundRows(code)).map((r) => r.local_id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(await status(code)).toBe('n');
    });

    it('mark_canceled cancels the order when its payments no longer cover it', async () => {
      const code = await placePaymentOrder(t, {
        item,
        status: 'p',
        payments: [{ state: 'confirmed', amount: '100.00' }],
      });
      const res = await post(`${E}/orders/${code}/payments/1/refund/`, { mark_canceled: true });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ local_id: 1, amount: '100.00', payment: 1, state: 'done' });
      expect(await status(code)).toBe('c');
      const order = await get(`${E}/orders/${code}/`);
      expect(order.body.status).toBe('c');
      expect((await orderLog(t, code)).map((l) => l.action)).toContain('pretix.event.order.canceled');
    });
  });
});
