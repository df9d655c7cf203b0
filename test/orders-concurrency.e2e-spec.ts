import type { Response } from 'supertest';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { retryingBusy } from './client-retry';
import { startTestApp, TestApp } from './harness';

/**
 * Order creation under real concurrency (architecture.md "Concurrency"; README "Selling without overselling"):
 * requests fired in parallel never sell more than a quota holds, never redeem a voucher more often than allowed,
 * never hand one cart's places to two orders, and never give one code twice. The quota engine counts every
 * occupation once.
 */
describe('orders under concurrency', () => {
  let t: TestApp;
  let token: string;
  let eventId: number;
  const E = '/api/v1/organizers/org/events/sample';
  const EXCEEDED = (name: string) =>
    `There is not enough quota available on quota "${name}" to perform the operation.`;

  const post = (path: string, body: unknown) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(token))
      .send(body as object);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));

  /** The body of a response that must have the given status (untyped: the assertions check it). */
  async function ok(res: Response, status = 201) {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function product(name: string, size: number | null): Promise<{ item: number; quota: number }> {
    const item = (await ok(await post(`${E}/items/`, { name, default_price: '10.00' }))).id as number;
    const quota = (await ok(await post(`${E}/quotas/`, { name, size, items: [item] }))).id as number;
    return { item, quota };
  }

  const availability = async (quota: number) => ok(await get(`${E}/quotas/${quota}/availability/`), 200);

  const statuses = (responses: { status: number }[]) =>
    responses.reduce<Record<number, number>>(
      (acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }),
      {},
    );

  async function positions(item: number): Promise<number> {
    const rows: { n: string }[] = await t.db.query(
      'SELECT count(*) AS n FROM order_position WHERE item_id = $1',
      [item],
    );
    return Number(rows[0].n);
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    const rows: { id: number }[] = await t.db.query("SELECT id FROM event WHERE slug = 'sample'");
    eventId = rows[0].id;
  });
  afterAll(() => t.close());

  it('200 parallel orders on two quotas of 50 (100 each) sell exactly 50 + 50', async () => {
    const a = await product('Alpha', 50);
    const b = await product('Beta', 50);
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_v, i) =>
        retryingBusy(() => post(`${E}/orders/`, { positions: [{ item: i % 2 ? a.item : b.item }] })),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 100, 400: 100 });
    const won = (item: number) =>
      responses.filter((r) => r.status === 201 && r.body.positions[0].item === item);
    expect([won(a.item).length, won(b.item).length]).toEqual([50, 50]);
    for (const r of responses.filter((x) => x.status === 400)) {
      expect([EXCEEDED('Alpha'), EXCEEDED('Beta')]).toContain(r.body.positions[0].item[0]);
      expect(r.body).toEqual({ positions: [{ item: [expect.any(String)] }] });
    }
    expect([await positions(a.item), await positions(b.item)]).toEqual([50, 50]);
    for (const quota of [a.quota, b.quota]) {
      expect(await availability(quota)).toMatchObject({
        pending_orders: 50,
        available_number: 0,
        available: false,
      });
    }
    const codes = new Set(responses.filter((r) => r.status === 201).map((r) => r.body.code as string));
    expect(codes.size).toBe(100);
  });

  it('counts a paid order, a blocking voucher and a live cart each once, also when they turn into orders', async () => {
    const { item, quota } = await product('Mixed', 10);
    await ok(await post(`${E}/orders/`, { status: 'p', positions: [{ item }] }));
    const voucher = await ok(await post(`${E}/vouchers/`, { item, block_quota: true, max_usages: 2 }));
    await t.db.query(
      `INSERT INTO cart_position (event_id, cart_id, expires, item_id, price)
       VALUES ($1, 'mixed@api', now() + interval '30 minutes', $2, 10),
              ($1, 'old@api', now() - interval '1 minute', $2, 10)`,
      [eventId, item],
    );
    expect(await availability(quota)).toEqual({
      available: true,
      available_number: 6,
      total_size: 10,
      paid_orders: 1,
      pending_orders: 0,
      exited_orders: 0,
      cart_positions: 1,
      blocking_vouchers: 2,
      waiting_list: 0,
    });
    await ok(await post(`${E}/orders/`, { positions: [{ item, voucher: voucher.id }] }));
    expect(await availability(quota)).toMatchObject({
      available_number: 6,
      paid_orders: 1,
      pending_orders: 1,
      cart_positions: 1,
      blocking_vouchers: 1,
    });
    await ok(await post(`${E}/orders/`, { consume_carts: ['mixed@api'], positions: [{ item }] }));
    expect(await availability(quota)).toMatchObject({
      available_number: 6,
      paid_orders: 1,
      pending_orders: 2,
      cart_positions: 0,
      blocking_vouchers: 1,
    });
  });

  it('parallel orders consuming one cart: only one gets its place', async () => {
    const { item, quota } = await product('Cart', 1);
    await t.db.query(
      `INSERT INTO cart_position (event_id, cart_id, expires, item_id, price)
       VALUES ($1, 'shared@api', now() + interval '30 minutes', $2, 10)`,
      [eventId, item],
    );
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(`${E}/orders/`, { consume_carts: ['shared@api'], positions: [{ item }] }),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 1, 400: 9 });
    expect(await positions(item)).toBe(1);
    expect(await availability(quota)).toMatchObject({
      pending_orders: 1,
      cart_positions: 0,
      available_number: 0,
    });
  });

  it('30 parallel orders with a voucher of 5 uses redeem it exactly 5 times', async () => {
    const { item } = await product('Voucher', null);
    const voucher = await ok(await post(`${E}/vouchers/`, { item, max_usages: 5 }));
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => post(`${E}/orders/`, { positions: [{ item, voucher: voucher.id }] })),
    );
    expect(statuses(responses)).toEqual({ 201: 5, 400: 25 });
    for (const r of responses.filter((x) => x.status === 400)) {
      expect(r.body).toEqual({
        positions: [{ voucher: ['The voucher has already been used the maximum number of times.'] }],
      });
    }
    expect((await get(`${E}/vouchers/${voucher.id}/`)).body.redeemed).toBe(5);
  });

  it('20 parallel orders with one code: exactly one 201, the others 400', async () => {
    const { item } = await product('Code', null);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => post(`${E}/orders/`, { code: 'RACE1', positions: [{ item }] })),
    );
    expect(statuses(responses)).toEqual({ 201: 1, 400: 19 });
    for (const r of responses.filter((x) => x.status === 400)) {
      expect(r.body).toEqual({ code: ['This order code is already in use.'] });
    }
    const rows: { n: string }[] = await t.db.query("SELECT count(*) AS n FROM orders WHERE code = 'RACE1'");
    expect(Number(rows[0].n)).toBe(1);
  });
});
