import { auth, bootstrapOrganizer, createEvent } from './factories';
import { retryingBusy } from './client-retry';
import { startTestApp, TestApp } from './harness';

/**
 * Cart positions under concurrency (architecture.md "Concurrency"; compat §3.2): requests fired truly in
 * parallel against the real database never reserve more places than a quota has, nor more voucher uses than
 * `max_usages` allows. Answers that mean "busy, nothing written" (503, 409 with `Retry-After`) are retried as a
 * client would (`retryingBusy`), so the counts hold on a loaded machine too.
 */
describe('cart positions under concurrency', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';

  const post = (path: string, body: unknown) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(token))
      .send(body as object);

  async function created(path: string, body: object): Promise<number> {
    const res = await post(path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { id: number }).id;
  }

  async function itemWithQuota(name: string, size: number): Promise<{ item: number; quota: number }> {
    const item = await created(`${E}/items/`, { name, default_price: '10.00' });
    const quota = await created(`${E}/quotas/`, { name, size, items: [item] });
    return { item, quota };
  }

  async function availability(quota: number): Promise<Record<string, unknown>> {
    const res = await t.http().get(`${E}/quotas/${quota}/availability/`).set('Authorization', auth(token));
    expect(res.status).toBe(200);
    return res.body as Record<string, unknown>;
  }

  async function positionsOf(item: number): Promise<number> {
    const rows: { n: string }[] = await t.db.query(
      'SELECT count(*) AS n FROM cart_position WHERE item_id = $1',
      [item],
    );
    return Number(rows[0].n);
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
  });
  afterAll(() => t.close());

  it('300 parallel creations on a quota of 100 give exactly 100 × 201 and availability 0', async () => {
    const { item, quota } = await itemWithQuota('Concert', 100);
    const responses = await Promise.all(
      Array.from({ length: 300 }, () =>
        retryingBusy(() => post(`${E}/cartpositions/`, { item, price: '10.00' })),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 100, 400: 200 });
    for (const r of responses.filter((x) => x.status === 400)) {
      expect(r.body).toEqual([
        'There is not enough quota available on quota "Concert" to perform the operation.',
      ]);
    }
    const ids = new Set(responses.filter((r) => r.status === 201).map((r) => (r.body as { id: number }).id));
    expect(ids.size).toBe(100);
    expect(await positionsOf(item)).toBe(100);
    expect(await availability(quota)).toMatchObject({
      cart_positions: 100,
      available_number: 0,
      available: false,
      total_size: 100,
    });
  });

  it('parallel bulk creations hand out exactly the free places, partially per request', async () => {
    const { item, quota } = await itemWithQuota('Festival', 50);
    const responses = await Promise.all(
      Array.from({ length: 40 }, () =>
        post(`${E}/cartpositions/bulk_create/`, [
          { item, price: '10.00' },
          { item, price: '10.00' },
          { item, price: '10.00' },
        ]),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: 40 });
    const results = responses.flatMap((r) => (r.body as { results: { success: boolean }[] }).results);
    expect(results.filter((r) => r.success)).toHaveLength(50);
    expect(await positionsOf(item)).toBe(50);
    expect(await availability(quota)).toMatchObject({ cart_positions: 50, available_number: 0 });
  });

  it('two quotas of one event sell out independently under parallel load', async () => {
    const a = await itemWithQuota('Hall A', 30);
    const b = await itemWithQuota('Hall B', 20);
    const responses = await Promise.all(
      Array.from({ length: 120 }, (_v, i) =>
        retryingBusy(() => post(`${E}/cartpositions/`, { item: i % 2 ? a.item : b.item, price: '1' })),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 50, 400: 70 });
    expect(await positionsOf(a.item)).toBe(30);
    expect(await positionsOf(b.item)).toBe(20);
    expect(await availability(a.quota)).toMatchObject({ cart_positions: 30, available_number: 0 });
    expect(await availability(b.quota)).toMatchObject({ cart_positions: 20, available_number: 0 });
  });

  it('40 parallel creations with a voucher of 5 uses give exactly 5 × 201', async () => {
    const { item } = await itemWithQuota('Backstage', 1000);
    await created(`${E}/vouchers/`, { code: 'BACKSTAGE', item, max_usages: 5 });
    const responses = await Promise.all(
      Array.from({ length: 40 }, () =>
        retryingBusy(() => post(`${E}/cartpositions/`, { item, price: '0.00', voucher: 'backstage' })),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 5, 400: 35 });
    for (const r of responses.filter((x) => x.status === 400)) {
      expect(r.body).toEqual({
        voucher: ['The specified voucher has already been used the maximum number of times.'],
      });
    }
    expect(await positionsOf(item)).toBe(5);
  });
});
