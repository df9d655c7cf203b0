import { auth, bootstrapOrganizer, createEvent } from './factories';
import { retryingBusy } from './client-retry';
import { startTestApp, TestApp } from './harness';

/**
 * A write that committed is never answered "busy, nothing written" (503 or 409 with `Retry-After`), so a client
 * that retries such answers (architecture.md "Concurrency") never writes twice. The API runs here with a pool of
 * two connections and a short pool timeout, so that many requests wait for a connection: a write keeps its
 * connection from the transaction to the presentation of its answer (`withOneConnection`), so every 201 the
 * client sees is one row, and every row was answered 201.
 */
describe('committed writes under a busy pool', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';

  beforeAll(async () => {
    t = await startTestApp({ databasePoolSize: 2, databasePoolTimeoutMs: 100 });
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
  });
  afterAll(() => t.close());

  const post = (path: string, body: object) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);

  async function created(path: string, body: object): Promise<number> {
    const res = await retryingBusy(() => post(path, body));
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { id: number }).id;
  }

  it('300 parallel cart creations on a quota of 100: exactly 100 × 201, 100 rows, the rest refused for quota', async () => {
    const item = await created(`${E}/items/`, { name: 'Concert', default_price: '10.00' });
    await created(`${E}/quotas/`, { name: 'Concert', size: 100, items: [item] });
    let busy = 0;
    const responses = await Promise.all(
      Array.from({ length: 300 }, () =>
        retryingBusy(async () => {
          const res = await post(`${E}/cartpositions/`, { item, price: '10.00' });
          if (res.status === 503 || res.status === 409) busy++;
          return res;
        }, 60),
      ),
    );
    const byStatus = responses.reduce<Record<number, number>>(
      (acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }),
      {},
    );
    expect(byStatus).toEqual({ 201: 100, 400: 200 });
    const rows: { n: string }[] = await t.db.query(
      'SELECT count(*) AS n FROM cart_position WHERE item_id = $1',
      [item],
    );
    expect(Number(rows[0].n)).toBe(100);
    // The pool was really too small: some requests were told to retry (else this test proves nothing).
    expect(busy).toBeGreaterThan(0);
  });

  it('60 parallel order creations on a quota of 20: exactly 20 × 201 and 20 orders', async () => {
    const item = await created(`${E}/items/`, { name: 'Theatre', default_price: '10.00' });
    await created(`${E}/quotas/`, { name: 'Theatre', size: 20, items: [item] });
    const responses = await Promise.all(
      Array.from({ length: 60 }, () =>
        retryingBusy(
          () => post(`${E}/orders/`, { email: 'a@example.org', positions: [{ item, price: '10.00' }] }),
          60,
        ),
      ),
    );
    const ok = responses.filter((r) => r.status === 201);
    expect(ok).toHaveLength(20);
    expect(responses.filter((r) => r.status !== 201).every((r) => r.status === 400)).toBe(true);
    const rows: { n: string }[] = await t.db.query(
      'SELECT count(DISTINCT order_id) AS n FROM order_position WHERE item_id = $1',
      [item],
    );
    expect(Number(rows[0].n)).toBe(20);
  });

  it('40 parallel mark_paid on 40 pending orders: every one answered 200 paid, none "already paid" after a retry', async () => {
    const item = await created(`${E}/items/`, { name: 'Opera', default_price: '10.00' });
    await created(`${E}/quotas/`, { name: 'Opera', size: 100, items: [item] });
    const codes: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await retryingBusy(() =>
        post(`${E}/orders/`, { email: 'a@example.org', positions: [{ item, price: '10.00' }] }),
      );
      if (res.status !== 201) throw new Error(`order: ${res.status} ${JSON.stringify(res.body)}`);
      codes.push((res.body as { code: string }).code);
    }
    const responses = await Promise.all(
      codes.map((code) => retryingBusy(() => post(`${E}/orders/${code}/mark_paid/`, {}), 60)),
    );
    expect(responses.map((r) => [r.status, (r.body as { status?: string }).status])).toEqual(
      codes.map(() => [200, 'p']),
    );
  });
});
