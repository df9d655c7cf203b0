import type { Response } from 'supertest';
import { retryingBusy } from './client-retry';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { sampleLayout } from './seating-fixtures';

/**
 * Seats under real concurrency (README "Selling without overselling"; architecture.md "Concurrency"): 50 orders
 * fired at once for 10 seats sell each seat exactly once; the others answer 400 naming the seat; the database
 * holds one live position per seat afterwards. Cart positions racing orders for the same seats never share one
 * either.
 */
describe('seats under concurrency', () => {
  let t: TestApp;
  let token: string;
  let item: number;
  const E = '/api/v1/organizers/org/events/sample';
  const post = (path: string, body: unknown) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(token))
      .send(body as object);
  async function ok(res: Response, status = 201) {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
  const statuses = (responses: { status: number }[]) =>
    responses.reduce<Record<number, number>>(
      (acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }),
      {},
    );

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    item = (await ok(await post(`${E}/items/`, { name: { en: 'Seat' }, default_price: '10.00' })))
      .id as number;
    await ok(await post(`${E}/quotas/`, { name: 'All', size: 1000, items: [item] }));
    // 2 rows of 10 seats, both categories mapped to the item: 20 seats.
    const plan = (
      await ok(
        await post('/api/v1/organizers/org/seatingplans/', { name: 'Hall', layout: sampleLayout(2, 10) }),
      )
    ).id as number;
    const res = await t
      .http()
      .patch(`${E}/`)
      .set('Authorization', auth(token))
      .send({ seating_plan: plan, seat_category_mapping: { Stalls: item, Balcony: item } });
    if (res.status !== 200) throw new Error(`plan: ${res.status} ${res.text}`);
  });
  afterAll(() => t.close());

  it('50 parallel orders for 10 seats sell each seat exactly once; the others get 400', async () => {
    const guids = Array.from({ length: 10 }, (_v, i) => `r1-s${i + 1}`);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_v, i) =>
        retryingBusy(() => post(`${E}/orders/`, { positions: [{ item, seat: guids[i % 10] }] })),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 10, 400: 40 });
    const sold = responses
      .filter((r) => r.status === 201)
      .map((r) => r.body.positions[0].seat.seat_guid as string);
    expect(sold.sort()).toEqual([...guids].sort());
    for (const r of responses.filter((x) => x.status === 400)) {
      expect(r.body).toEqual({
        positions: [{ seat: [expect.stringMatching(/^The selected seat ".*" is not available\.$/)] }],
      });
    }
    const rows: { seat_guid: string; positions: number }[] = await t.db.query(
      `SELECT s.seat_guid, count(p.id)::int AS positions
         FROM seat s LEFT JOIN order_position p ON p.live_seat_id = s.id
        WHERE s.seat_guid LIKE 'r1-%' GROUP BY s.seat_guid ORDER BY s.seat_guid`,
    );
    expect(rows.map((r) => r.positions)).toEqual(Array(10).fill(1));
    const all: { n: number }[] = await t.db.query('SELECT count(*)::int AS n FROM order_position');
    expect(all[0].n).toBe(10);
  });

  it('orders and cart positions racing for the same 10 seats never share one', async () => {
    const guids = Array.from({ length: 10 }, (_v, i) => `r2-s${i + 1}`);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_v, i) =>
        retryingBusy(() =>
          i % 2 === 0
            ? post(`${E}/orders/`, { positions: [{ item, seat: guids[i % 10] }] })
            : post(`${E}/cartpositions/`, { item, price: '10.00', seat: guids[i % 10] }),
        ),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 10, 400: 30 });
    const rows: { holders: number }[] = await t.db.query(
      `SELECT (SELECT count(*) FROM order_position p WHERE p.live_seat_id = s.id)::int
            + (SELECT count(*) FROM cart_position c WHERE c.seat_id = s.id)::int AS holders
         FROM seat s WHERE s.seat_guid LIKE 'r2-%' ORDER BY s.id`,
    );
    expect(rows.map((r) => r.holders)).toEqual(Array(10).fill(1));
  });
});
