import type { Response } from 'supertest';
import { retryingBusy } from './client-retry';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { countStatements } from './sql-count';

/**
 * `POST E/orders/{code}/change/` under concurrency and at scale (architecture.md "Concurrency"): a change taking
 * the last place while checkouts race for it never oversells (it reserves under the same quota locks as order
 * creation), and a change runs the same number of SQL statements whatever the size of the order.
 */
describe('order change under concurrency', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const post = (path: string, body: object = {}) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  async function ok(res: Response, status = 201) {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
  const change = (code: string, body: object) => post(`${E}/orders/${code}/change/`, body);
  let n = 0;
  async function product(size: number) {
    n += 1;
    const item = (await ok(await post(`${E}/items/`, { name: `Ticket ${n}`, default_price: '10.00' })))
      .id as number;
    const quota = (await ok(await post(`${E}/quotas/`, { name: `Quota ${n}`, size, items: [item] })))
      .id as number;
    return { item, quota };
  }
  async function order(positions: object[]) {
    return (await ok(await post(`${E}/orders/`, { email: 'buyer@example.org', positions }))) as {
      code: string;
      positions: { id: number }[];
    };
  }
  const availability = async (quota: number) => ok(await get(`${E}/quotas/${quota}/availability/`), 200);
  const sold = async (item: number) =>
    Number(
      (
        await t.db.query<{ n: string }[]>(
          `SELECT count(*) AS n FROM order_position p JOIN orders o ON o.id = p.order_id
            WHERE p.item_id = $1 AND NOT p.canceled AND o.status IN ('n', 'p')`,
          [item],
        )
      )[0].n,
    );

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
  });
  afterAll(() => t.close());

  it('runs the same number of SQL statements whatever the size of the order', async () => {
    const a = await product(1000);
    const b = await product(1000);
    const counts: number[] = [];
    for (const size of [1, 20]) {
      const o = await order(Array.from({ length: size }, () => ({ item: a.item })));
      const run = await countStatements(() =>
        change(o.code, { patch_positions: [{ position: o.positions[0].id, body: { item: b.item } }] }),
      );
      counts.push(run.statements);
    }
    expect(counts[1]).toBe(counts[0]);
  });

  it('a change taking the last place races 50 checkouts for it: exactly one wins', async () => {
    const last = await product(1);
    const o = await order([{ item: (await product(100)).item }]);
    const responses = await Promise.all([
      retryingBusy(() =>
        change(o.code, { patch_positions: [{ position: o.positions[0].id, body: { item: last.item } }] }),
      ),
      ...Array.from({ length: 50 }, () =>
        retryingBusy(() => post(`${E}/orders/`, { positions: [{ item: last.item }] })),
      ),
    ]);
    const wins = responses.filter((r) => r.status === 200 || r.status === 201);
    expect(wins).toHaveLength(1);
    expect(responses.every((r) => [200, 201, 400].includes(r.status))).toBe(true);
    expect(await sold(last.item)).toBe(1);
    expect(await availability(last.quota)).toMatchObject({ pending_orders: 1, available_number: 0 });
  });
});
