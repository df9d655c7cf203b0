import { OrderExpiry } from '../src/orders/order-expiry';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { deleteQueueKeys, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

/**
 * Pending orders expire (issue 7; pretix's periodic expiry): the worker's scheduler sets an unpaid order past its
 * `expires` to expired, which frees its quota and logs `pretix.event.order.expired`; an order paid in the same
 * moment is never expired.
 */
describe('order expiry', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  let item: number;
  let quota: number;

  const post = (path: string, body: object = {}) =>
    t.http().post(`${E}/${path}`).set('Authorization', auth(token)).send(body);
  const order = async (): Promise<string> => {
    const res = await post('orders/', { email: 'x@example.org', positions: [{ item }] });
    if (res.status !== 201) throw new Error(`order: ${res.status} ${res.text}`);
    return res.body.code as string;
  };
  const status = async (code: string): Promise<string> =>
    (await t.db.query('SELECT status FROM orders WHERE code = $1', [code]))[0].status;
  const makeDue = (codes: string[]) =>
    t.db.query(`UPDATE orders SET expires = now() - interval '1 minute' WHERE code = ANY($1)`, [codes]);
  const available = async (): Promise<number> =>
    (await t.http().get(`${E}/quotas/${quota}/availability/`).set('Authorization', auth(token))).body
      .available_number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    item = (await post('items/', { name: { en: 'Ticket' }, default_price: '10.00' })).body.id;
    quota = (await post('quotas/', { name: 'All', size: 100, items: [item] })).body.id;
  });
  afterEach(() => stopAllWorkers());
  afterAll(async () => {
    const prefix = workerEnvFor(t).QUEUE_PREFIX;
    await t.close();
    await deleteQueueKeys(prefix);
  });

  it('the worker expires a due pending order: quota freed, logged; a pending order not yet due is kept', async () => {
    const due = await order();
    const notDue = await order();
    await makeDue([due]);
    const before = await available();
    const worker = await startWorker({ ...workerEnvFor(t), SCHEDULER_INTERVAL_MS: '500' });
    await worker.waitForLog(/1 pending orders expired/, 20000);
    expect(await status(due)).toBe('e');
    expect(await status(notDue)).toBe('n');
    expect(await available()).toBe(before + 1);
    const logged: { action_type: string; user_id: number | null; api_token_id: number | null }[] =
      await t.db.query(
        `SELECT action_type, user_id, api_token_id FROM log_entry
          WHERE content_type = 'order' AND object_id = (SELECT id FROM orders WHERE code = $1)
          ORDER BY id`,
        [due],
      );
    expect(logged.map((l) => l.action_type)).toContain('pretix.event.order.expired');
    expect(logged.at(-1)).toEqual({
      action_type: 'pretix.event.order.expired',
      user_id: null,
      api_token_id: null,
    });
    const detail = await t.http().get(`${E}/orders/${due}/`).set('Authorization', auth(token));
    expect(detail.body.status).toBe('e');
  });

  it('never expires an order paid in the same moment', async () => {
    const expiry = t.app.get(OrderExpiry);
    for (let round = 0; round < 5; round++) {
      const codes = await Promise.all(Array.from({ length: 8 }, () => order()));
      await makeDue(codes);
      const [paid] = await Promise.all([
        Promise.all(codes.map((code) => post(`orders/${code}/mark_paid/`))),
        expiry.expireDue(),
        expiry.expireDue(),
      ]);
      for (const [i, code] of codes.entries()) {
        // Paid before the expiry looked (skipped), or expired first and then revived by the payment: paid.
        expect(paid[i].status).toBe(200);
        expect(await status(code)).toBe('p');
      }
    }
  });

  it('two expiry runs at once expire each order exactly once', async () => {
    const codes = await Promise.all(Array.from({ length: 30 }, () => order()));
    await makeDue(codes);
    const expiry = t.app.get(OrderExpiry);
    const counts = await Promise.all([expiry.expireDue(), expiry.expireDue(), expiry.expireDue()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
    const logged: { n: string }[] = await t.db.query(
      `SELECT count(*) AS n FROM log_entry WHERE action_type = 'pretix.event.order.expired'
          AND object_id IN (SELECT id FROM orders WHERE code = ANY($1))`,
      [codes],
    );
    expect(Number(logged[0].n)).toBe(30);
  });
});
