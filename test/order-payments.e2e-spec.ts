import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { placePaymentOrder } from './order-payment-fixtures';

/**
 * Order payment endpoints `E/orders/{code}/payments/` (pretix doc "Order payment endpoints"; permissions
 * event.orders:read / event.orders:write, docs/permissions.md).
 */
describe('order payments', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let item: number;
  const E = '/api/v1/organizers/org/events/sample';
  const NOT_FOUND = { detail: 'Not found.' };
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
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
});
