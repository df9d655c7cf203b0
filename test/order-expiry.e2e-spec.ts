import { AppConfig } from '../src/config/app-config';
import { OrderExpiry } from '../src/orders/actions/order-expiry';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

/**
 * Pending orders expire (README "Selling without overselling"): a real worker process (`dist/src/worker.js`) ticks
 * its scheduler every 500 ms and sets pending orders past their deadline to expired through the orders context's
 * expiry path; the quota places come free, `pretix.event.order.expired` is logged, and an order paid in the same
 * moment is never left expired. Deadlines are moved into the past with SQL (order creation always gives a future
 * one).
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('expiry of pending orders', () => {
  let t: TestApp;
  let token: string;
  let prefix: string;
  const E = '/api/v1/organizers/org/events/sample';
  const post = (path: string, body: object = {}) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));

  let productCount = 0;
  async function product(size: number): Promise<{ item: number; quota: number }> {
    productCount += 1;
    const item = await post(`${E}/items/`, { name: `Ticket ${productCount}`, default_price: '10.00' });
    expect(item.status).toBe(201);
    const quota = await post(`${E}/quotas/`, { name: `Q${productCount}`, size, items: [item.body.id] });
    expect(quota.status).toBe(201);
    return { item: item.body.id as number, quota: quota.body.id as number };
  }

  async function order(item: number, extra: object = {}): Promise<string> {
    const res = await post(`${E}/orders/`, { email: 'a@example.org', positions: [{ item }], ...extra });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('n');
    return res.body.code as string;
  }

  const overdue = (codes: string[]) =>
    t.db.query(`UPDATE orders SET expires = now() - interval '1 second' WHERE code = ANY($1)`, [codes]);
  const statusOf = async (code: string) =>
    ((await get(`${E}/orders/${code}/`)).body as { status: string }).status;
  const available = async (quota: number) =>
    ((await get(`${E}/quotas/${quota}/availability/`)).body as { available_number: number }).available_number;
  const expiredLogs = async (
    code: string,
  ): Promise<{ user_id: number | null; api_token_id: number | null }[]> =>
    t.db.query(
      `SELECT l.user_id, l.api_token_id FROM log_entry l JOIN orders o ON o.id = l.object_id
        WHERE l.content_type = 'order' AND l.action_type = 'pretix.event.order.expired' AND o.code = $1`,
      [code],
    );

  beforeAll(async () => {
    t = await startTestApp();
    prefix = t.app.get(AppConfig).queuePrefix;
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    await startWorker({ ...workerEnvFor(t), SCHEDULER_INTERVAL_MS: '500', SCHEDULER_WATCH_MS: '500' });
  });
  afterAll(async () => {
    await stopAllWorkers();
    await t.close();
    await deleteQueueKeys(prefix);
  });

  it('the worker expires a due order: status e, its place free again, pretix.event.order.expired by the system', async () => {
    const { item, quota } = await product(5);
    const due = await order(item);
    const notDue = await order(item);
    const approval = await order(item, { require_approval: true });
    expect(await available(quota)).toBe(2);

    await overdue([due, approval]);
    await eventually(async () => (await statusOf(due)) === 'e');

    expect(await available(quota)).toBe(3);
    expect(await expiredLogs(due)).toEqual([{ user_id: null, api_token_id: null }]);
    // Not due yet: untouched. Pending approval: pretix leaves it alone (there is no payment to wait for).
    await sleep(1200); // two more ticks
    expect(await statusOf(notDue)).toBe('n');
    expect(await statusOf(approval)).toBe('n');
    expect(await expiredLogs(notDue)).toEqual([]);
    expect(await expiredLogs(approval)).toEqual([]);
    expect(await expiredLogs(due)).toHaveLength(1); // expired once, however many ticks ran
    const detail = await get(`${E}/orders/${due}/`);
    expect(new Date(detail.body.last_modified as string).getTime()).toBeGreaterThan(
      new Date(detail.body.datetime as string).getTime(),
    );
  });

  it('an expired order can be paid again (the scheduler does not touch it twice)', async () => {
    const { item, quota } = await product(1);
    const code = await order(item);
    await overdue([code]);
    await eventually(async () => (await statusOf(code)) === 'e');
    expect(await available(quota)).toBe(1);
    const paid = await post(`${E}/orders/${code}/mark_paid/`, { send_email: false });
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('p');
    expect(await available(quota)).toBe(0);
    await sleep(1200);
    expect(await statusOf(code)).toBe('p');
    expect(await expiredLogs(code)).toHaveLength(1);
  });

  it('a race between mark_paid and the expiry never ends with a paid order expired', async () => {
    // The worker ticks every 500 ms, and this process runs the same expiry concurrently with every round's
    // payments, so both orders of events happen: expiry first (mark_paid revives the order) or payment first
    // (the expiry skips the locked row, or finds it paid after the lock).
    const expiry = t.app.get(OrderExpiry, { strict: false });
    const ROUNDS = 25;
    const PER_ROUND = 6;
    const { item, quota } = await product(ROUNDS * PER_ROUND);
    const all: string[] = [];
    let expiredFirst = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const codes = await Promise.all(Array.from({ length: PER_ROUND }, () => order(item)));
      all.push(...codes);
      await overdue(codes);
      const [paid] = await Promise.all([
        Promise.all(codes.map((c) => post(`${E}/orders/${c}/mark_paid/`, { send_email: false }))),
        // Staggered from round to round, so that the expiry comes before, among and after the payments.
        sleep((round % 5) * 10).then(() => expiry.expireDue()),
        sleep((round % 7) * 10).then(() => expiry.expireDue()),
      ]);
      for (const res of paid) {
        expect(res.status).toBe(200);
        expect(res.body.status).toBe('p');
      }
      for (const code of codes) expiredFirst += (await expiredLogs(code)).length;
    }
    // Wait for at least one more worker tick: nothing paid may expire afterwards either.
    await sleep(1200);
    const rows: { status: string; n: number }[] = await t.db.query(
      'SELECT status, count(*)::int AS n FROM orders WHERE code = ANY($1) GROUP BY status',
      [all],
    );
    expect(rows).toEqual([{ status: 'p', n: ROUNDS * PER_ROUND }]);
    expect(await available(quota)).toBe(0);
    // Each order was expired at most once, and each one that was is logged as paid after that.
    const twice: unknown[] = await t.db.query(
      `SELECT l.object_id FROM log_entry l JOIN orders o ON o.id = l.object_id
        WHERE o.code = ANY($1) AND l.action_type = 'pretix.event.order.expired'
        GROUP BY l.object_id HAVING count(*) > 1`,
      [all],
    );
    expect(twice).toEqual([]);
    const paidBeforeExpired: unknown[] = await t.db.query(
      `SELECT e.object_id FROM log_entry e JOIN log_entry p ON p.object_id = e.object_id
        JOIN orders o ON o.id = e.object_id
        WHERE o.code = ANY($1) AND e.action_type = 'pretix.event.order.expired'
          AND p.action_type = 'pretix.event.order.paid' AND p.id < e.id`,
      [all],
    );
    expect(paidBeforeExpired).toEqual([]);
    // Both interleavings happened: some orders were expired before their payment, some were paid first.
    expect(expiredFirst).toBeGreaterThan(0);
    expect(expiredFirst).toBeLessThan(ROUNDS * PER_ROUND);
  }, 120_000);

  it('three expiry runs at once expire each due order exactly once', async () => {
    const { item } = await product(30);
    const codes = await Promise.all(Array.from({ length: 30 }, () => order(item)));
    await overdue(codes);
    const expiry = t.app.get(OrderExpiry, { strict: false });
    const counts = await Promise.all([expiry.expireDue(), expiry.expireDue(), expiry.expireDue()]);
    // The worker may have taken some of them in between: together, each order once.
    const logged: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM log_entry WHERE action_type = 'pretix.event.order.expired'
          AND object_id IN (SELECT id FROM orders WHERE code = ANY($1))`,
      [codes],
    );
    expect(logged[0].n).toBe(30);
    expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(30);
    const rows: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM orders WHERE code = ANY($1) AND status = 'e'`,
      [codes],
    );
    expect(rows[0].n).toBe(30);
  });
});
