import { CheckinCountsCheck } from '../src/checkin/checkin-counts-check';
import { CheckinCountsQueries } from '../src/checkin/checkin-counts.queries';
import { AppConfig } from '../src/config/app-config';
import { QuotaCountCheck } from '../src/orders/quota-engine/quota-count-check';
import { ApiProcess, startApiProcess, stopAllApis } from './api-process';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { openSse, SseEvent, SseStream } from './sse-client';

/**
 * Live figures (README "Live figures"; issue 27 §5): `GET E/stats/` from maintained counters equals a recount
 * over the rows after a random sequence of writes, and `E/stats/stream/` delivers changes within a second,
 * coalesces bursts, resumes with `Last-Event-ID` and works across API processes.
 */
describe('live figures', () => {
  let t: TestApp;
  let token: string;
  let base: string;
  let eventId: number;
  let itemA: number;
  let itemB: number;
  let varS: number;
  let varM: number;
  let quotaA: number;
  let quotaB: number;
  let listA: number;
  let listB: number;
  const O = '/api/v1/organizers/stats';
  const E = `${O}/events/conf`;
  const open: SseStream[] = [];

  const post = (path: string, body: object) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const del = (path: string) => t.http().delete(path).set('Authorization', auth(token));
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  const data = (e: SseEvent) => JSON.parse(e.data) as Stats;
  const listen = async (url = `${base}${E}/stats/stream/`, headers: Record<string, string> = {}) => {
    const s = await openSse(url, { Authorization: auth(token), ...headers });
    open.push(s);
    return s;
  };

  interface Occupation {
    paid: number;
    pending: number;
    in_carts: number;
    blocking_vouchers: number;
    available: number | null;
  }
  interface Stats {
    quotas: (Occupation & { id: number; size: number | null })[];
    items: (Occupation & { item: number; variation: number | null })[];
    orders: Record<string, { count: number; total: string }>;
    checkin_lists: { id: number; checked_in: number; inside: number }[];
  }

  beforeAll(async () => {
    t = await startTestApp();
    await new Promise<void>((r) => t.app.getHttpServer().listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    ({ token } = await bootstrapOrganizer(t, 'stats'));
    await createEvent(t, token, 'stats', { slug: 'conf' });
    const [row] = await t.db.query<{ id: number }[]>(
      `SELECT e.id FROM event e JOIN organizer o ON o.id = e.organizer_id WHERE o.slug = 'stats' AND e.slug = 'conf'`,
    );
    eventId = row.id;
    itemA = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' })).body.id;
    const b = await post(`${E}/items/`, {
      name: 'Shirt',
      default_price: '25.50',
      has_variations: true,
      variations: [{ value: 'S' }, { value: 'M' }],
    });
    expect(b.status).toBe(201);
    itemB = b.body.id;
    [varS, varM] = (b.body.variations as { id: number }[]).map((v) => v.id);
    quotaA = (await post(`${E}/quotas/`, { name: 'QA', size: 400, items: [itemA] })).body.id;
    quotaB = (await post(`${E}/quotas/`, { name: 'QB', size: 300, items: [itemB], variations: [varS, varM] }))
      .body.id;
    await post(`${E}/quotas/`, { name: 'QS', size: 250, items: [itemB], variations: [varS] });
    listA = (
      await post(`${E}/checkinlists/`, { name: 'A', all_products: true, allow_multiple_entries: true })
    ).body.id;
    listB = (await post(`${E}/checkinlists/`, { name: 'B', all_products: true })).body.id;
  });
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });
  afterAll(async () => {
    await stopAllApis();
    await t?.close();
  });

  /** The figures as a recount over the rows (what the counters must equal). */
  async function recount(): Promise<Stats> {
    const q = <T>(sql: string, params: unknown[] = [eventId]) => t.db.query<T[]>(sql, params);
    const sold = await q<{ item_id: number; variation_id: number | null; paid: number; pending: number }>(
      `SELECT p.item_id, p.variation_id, COUNT(*) FILTER (WHERE o.status = 'p')::int AS paid,
              COUNT(*) FILTER (WHERE o.status = 'n')::int AS pending
         FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE p.event_id = $1 AND NOT p.canceled GROUP BY 1, 2`,
    );
    const carts = await q<{ item_id: number; variation_id: number | null; n: number }>(
      `SELECT item_id, variation_id, COUNT(*)::int AS n FROM cart_position
        WHERE event_id = $1 AND expires >= now() GROUP BY 1, 2`,
    );
    const held = await q<{ quota_id: number; n: number }>(
      `SELECT quota_id, SUM(max_usages - redeemed)::int AS n FROM voucher
        WHERE event_id = $1 AND block_quota AND redeemed < max_usages GROUP BY 1`,
    );
    const orders = await q<{ status: string; count: number; total: string }>(
      `SELECT status, COUNT(*)::int AS count, SUM(total)::numeric(15,2)::text AS total FROM orders
        WHERE event_id = $1 GROUP BY 1`,
    );
    const lists = await q<{ id: number; checked_in: number; inside: number }>(
      `SELECT l.id, COUNT(s.position_id) FILTER (WHERE s.has_entry)::int AS checked_in,
              COUNT(s.position_id) FILTER (WHERE s.last_type = 'entry')::int AS inside
         FROM checkin_list l LEFT JOIN (
           SELECT list_id, position_id, bool_or(type = 'entry') AS has_entry,
                  (array_agg(type ORDER BY datetime DESC, id DESC))[1] AS last_type
             FROM checkin WHERE successful GROUP BY 1, 2) s ON s.list_id = l.id
        WHERE l.event_id = $1 GROUP BY l.id ORDER BY l.id`,
    );
    const products: [number, number | null, number[]][] = [
      [itemA, null, [quotaA]],
      [itemB, varS, [quotaB, quotaB + 1]],
      [itemB, varM, [quotaB]],
    ];
    const quotaProducts = new Map<number, [number, number | null][]>([
      [quotaA, [[itemA, null]]],
      [
        quotaB,
        [
          [itemB, varS],
          [itemB, varM],
        ],
      ],
      [quotaB + 1, [[itemB, varS]]],
    ]);
    const sizes = new Map([
      [quotaA, 400],
      [quotaB, 300],
      [quotaB + 1, 250],
    ]);
    const of = <R extends { item_id: number; variation_id: number | null }>(
      rows: R[],
      i: number,
      v: number | null,
    ) => rows.find((r) => r.item_id === i && r.variation_id === v);
    const quotas = [...quotaProducts.entries()].map(([id, ps]) => {
      const paid = ps.reduce((n, [i, v]) => n + (of(sold, i, v)?.paid ?? 0), 0);
      const pending = ps.reduce((n, [i, v]) => n + (of(sold, i, v)?.pending ?? 0), 0);
      const inCarts = ps.reduce((n, [i, v]) => n + (of(carts, i, v)?.n ?? 0), 0);
      const blocking = held.find((h) => h.quota_id === id)?.n ?? 0;
      const available = Math.max(0, sizes.get(id)! - paid - pending - inCarts - blocking);
      return {
        id,
        size: sizes.get(id)!,
        paid,
        pending,
        in_carts: inCarts,
        blocking_vouchers: blocking,
        available,
      };
    });
    return {
      quotas,
      items: products.map(([i, v, qs]) => ({
        item: i,
        variation: v,
        paid: of(sold, i, v)?.paid ?? 0,
        pending: of(sold, i, v)?.pending ?? 0,
        in_carts: of(carts, i, v)?.n ?? 0,
        blocking_vouchers: held.filter((h) => qs.includes(h.quota_id)).reduce((n, h) => n + h.n, 0),
        available: Math.min(...qs.map((id) => quotas.find((x) => x.id === id)!.available)),
      })),
      orders: Object.fromEntries(
        ['n', 'p', 'e', 'c'].map((s) => {
          const row = orders.find((o) => o.status === s);
          return [s, { count: row?.count ?? 0, total: row?.total ?? '0.00' }];
        }),
      ),
      checkin_lists: lists,
    };
  }

  it('equals a recount after a random sequence of sales, changes, payments, carts, vouchers and check-ins', async () => {
    let seed = 27;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const product = () =>
      pick([{ item: itemA }, { item: itemB, variation: varS }, { item: itemB, variation: varM }]);
    const orders: { code: string; positions: { id: number; secret: string }[] }[] = [];
    const carts: number[] = [];
    const vouchers: number[] = [];
    const done: Record<string, number> = {};
    for (let step = 0; step < 150; step++) {
      const kind = pick([
        'sale',
        'sale',
        'sale',
        'pay',
        'cancel',
        'expire',
        'change',
        'delete-position',
        'cart',
        'cart',
        'uncart',
        'voucher',
        'unvoucher',
        'scan',
        'scan',
        'exit',
      ]);
      const order = orders.length > 0 ? pick(orders) : null;
      let status = 0;
      if (kind === 'sale') {
        const res = await post(`${E}/orders/`, {
          status: pick(['n', 'p']),
          positions: Array.from({ length: 1 + Math.floor(random() * 3) }, product),
        });
        status = res.status;
        if (res.status === 201) orders.push({ code: res.body.code, positions: res.body.positions });
      } else if (kind === 'pay' && order)
        status = (await post(`${E}/orders/${order.code}/mark_paid/`, {})).status;
      else if (kind === 'cancel' && order)
        status = (await post(`${E}/orders/${order.code}/mark_canceled/`, {})).status;
      else if (kind === 'expire' && order)
        status = (await post(`${E}/orders/${order.code}/mark_expired/`, {})).status;
      else if (kind === 'change' && order) {
        status = (
          await post(`${E}/orders/${order.code}/change/`, {
            patch_positions: [{ position: pick(order.positions).id, body: { ...product(), price: '12.34' } }],
          })
        ).status;
      } else if (kind === 'delete-position' && order && order.positions.length > 1) {
        const p = order.positions.pop()!;
        status = (await del(`${E}/orderpositions/${p.id}/`)).status;
      } else if (kind === 'cart') {
        const res = await post(`${E}/cartpositions/`, { ...product(), price: '10.00' });
        status = res.status;
        if (res.status === 201) carts.push(res.body.id);
      } else if (kind === 'uncart' && carts.length > 0) {
        status = (await del(`${E}/cartpositions/${carts.pop()}/`)).status;
      } else if (kind === 'voucher') {
        const res = await post(`${E}/vouchers/`, {
          code: `BLOCK${step}`,
          quota: pick([quotaA, quotaB]),
          block_quota: true,
          max_usages: 1 + Math.floor(random() * 4),
        });
        status = res.status;
        if (res.status === 201) vouchers.push(res.body.id);
      } else if (kind === 'unvoucher' && vouchers.length > 0) {
        status = (await del(`${E}/vouchers/${vouchers.pop()}/`)).status;
      } else if ((kind === 'scan' || kind === 'exit') && order) {
        const res = await post(
          `${E}/checkinlists/${pick([listA, listB])}/positions/${pick(order.positions).secret}/redeem/?untrusted_input=true`,
          { type: kind === 'exit' ? 'exit' : 'entry', force: true },
        );
        status = res.status;
      }
      done[`${kind} ${status}`] = (done[`${kind} ${status}`] ?? 0) + 1;
    }
    // Every kind of write happened and succeeded at least once.
    for (const kind of [
      'sale 201',
      'pay 200',
      'cancel 200',
      'change 200',
      'cart 201',
      'uncart 204',
      'voucher 201',
      'unvoucher 204',
      'scan 201',
      'exit 201',
      'delete-position 204',
    ]) {
      expect([kind, done[kind] ?? 0]).toEqual([kind, expect.any(Number)]);
      expect(done[kind] ?? 0).toBeGreaterThan(0);
    }
    const res = await get(`${E}/stats/`);
    expect(res.status).toBe(200);
    const expected = await recount();
    expect(res.body.orders).toEqual(expected.orders);
    expect(res.body.checkin_lists).toEqual(expected.checkin_lists);
    expect(res.body.checkin_lists.some((l: { inside: number }) => l.inside > 0)).toBe(true);
    for (const quota of expected.quotas) {
      expect(res.body.quotas.find((x: { id: number }) => x.id === quota.id)).toMatchObject(quota);
    }
    expect(res.body.items).toEqual(expected.items);
    // The periodic checks find nothing to repair; counters that drifted (written around the triggers) are
    // found and set from the rows again.
    const orderCheck = t.app.get(QuotaCountCheck);
    const listCheck = new CheckinCountsCheck(t.db, new CheckinCountsQueries());
    expect((await orderCheck.run({ eventId, repair: false })).orderTotals).toEqual([]);
    expect((await listCheck.run({ eventId, repair: false })).drift).toEqual([]);
    await t.db.query(`UPDATE order_totals SET count = count + 3, total = total + 1 WHERE event_id = $1`, [
      eventId,
    ]);
    await t.db.query(`UPDATE checkin_list_counts SET inside = inside + 2 WHERE list_id = $1`, [listA]);
    const found = await orderCheck.run({ eventId, repair: true });
    expect(found.orderTotals.length).toBeGreaterThan(0);
    expect(found.repaired).toBe(true);
    const lists = await listCheck.run({ eventId, repair: true });
    expect(lists.drift.map((d) => d.list_id)).toEqual([listA]);
    const again = (await get(`${E}/stats/`)).body;
    expect(again.orders).toEqual(expected.orders);
    expect(again.checkin_lists).toEqual(expected.checkin_lists);
    expect((await orderCheck.run({ eventId, repair: false })).orderTotals).toEqual([]);
    expect((await listCheck.run({ eventId, repair: false })).drift).toEqual([]);
  });

  it('answers the figures of one date with ?subevent= and 400 for a malformed one', async () => {
    const bad = await get(`${E}/stats/?subevent=x`);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['subevent']);
    const none = await get(`${E}/stats/?subevent=999999`);
    expect(none.status).toBe(200);
    expect(none.body.quotas).toEqual([]);
  });

  it('the stream sends the figures at once, then within a second after a sale', async () => {
    const s = await listen();
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toMatch(/^text\/event-stream/);
    const first = await s.waitFor((e) => e.event === 'stats');
    const paid = data(first).orders.p.count;
    await new Promise((r) => setTimeout(r, 1100)); // past any throttle window
    const res = await post(`${E}/orders/`, { status: 'p', positions: [{ item: itemA }] });
    expect(res.status).toBe(201);
    const sold = Date.now();
    const next = await s.waitFor((e) => e.event === 'stats' && data(e).orders.p.count === paid + 1, 3000);
    expect(Date.now() - sold).toBeLessThan(1000);
    expect(Number(next.id)).toBeGreaterThan(Number(first.id));
    expect(data(next)).toEqual((await get(`${E}/stats/`)).body);
  });

  it('coalesces a burst into at most one message per second, the last state included', async () => {
    const s = await listen();
    await s.waitFor((e) => e.event === 'stats');
    const before = (await get(`${E}/stats/`)).body.orders.n.count as number;
    const started = Date.now();
    for (let i = 0; i < 12; i++) {
      expect((await post(`${E}/orders/`, { status: 'n', positions: [{ item: itemA }] })).status).toBe(201);
    }
    await s.waitFor((e) => data(e).orders.n.count === before + 12, 4000);
    const elapsed = (Date.now() - started) / 1000;
    const live = s.events.slice(1);
    expect(live.length).toBeLessThanOrEqual(Math.ceil(elapsed) + 1);
    expect(live.length).toBeLessThan(12);
    const ids = s.events.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('resumes with Last-Event-ID: nothing while up to date, the current figures for an older id', async () => {
    const s = await listen();
    const first = await s.waitFor((e) => e.event === 'stats');
    await new Promise((r) => setTimeout(r, 1500));
    const latest = s.events[s.events.length - 1];
    s.close();
    const upToDate = await listen(undefined, { 'Last-Event-ID': latest.id! });
    expect(upToDate.status).toBe(200);
    await new Promise((r) => setTimeout(r, 600));
    expect(upToDate.events).toEqual([]);
    const older = await listen(undefined, { 'Last-Event-ID': String(Number(latest.id) - 1) });
    const now = await older.waitFor((e) => e.event === 'stats', 500);
    expect(now.id).toBe(latest.id);
    expect(data(now)).toEqual((await get(`${E}/stats/`)).body);
    await post(`${E}/orders/`, { status: 'p', positions: [{ item: itemA }] });
    const next = await upToDate.waitFor((e) => e.event === 'stats', 2500);
    expect(Number(next.id)).toBeGreaterThan(Number(latest.id));
    expect(Number(first.id)).toBeLessThanOrEqual(Number(latest.id));
    const bad = await listen(undefined, { 'Last-Event-ID': 'abc' });
    await bad.ended;
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({ last_event_id: ['A valid integer is required.'] });
  });

  it('needs event.orders:read', async () => {
    const res = await t.http().get(`${E}/stats/`);
    expect(res.status).toBe(401);
  });

  describe('with two API processes', () => {
    let apiA: ApiProcess;
    let apiB: ApiProcess;

    beforeAll(async () => {
      const env = {
        DATABASE_URL: (t.db.options as { url: string }).url,
        QUEUE_PREFIX: t.app.get(AppConfig).queuePrefix,
        SHUTDOWN_GRACE_SECONDS: '120',
      };
      [apiA, apiB] = await Promise.all([startApiProcess(env), startApiProcess(env)]);
    });

    it('delivers a sale made through API B to listeners on API A and B, with the same ids', async () => {
      const a = await listen(`${apiA.baseUrl}${E}/stats/stream/`);
      const b = await listen(`${apiB.baseUrl}${E}/stats/stream/`);
      const first = data(await a.waitFor((e) => e.event === 'stats'));
      await b.waitFor((e) => e.event === 'stats');
      await new Promise((r) => setTimeout(r, 1100));
      const res = await fetch(`${apiB.baseUrl}${E}/orders/`, {
        method: 'POST',
        headers: { Authorization: auth(token), 'Content-Type': 'application/json' },
        body: JSON.stringify({ status: 'p', positions: [{ item: itemA }] }),
      });
      expect(res.status).toBe(201);
      const want = (e: SseEvent) => data(e).orders.p.count === first.orders.p.count + 1;
      const [ea, eb] = await Promise.all([a.waitFor(want, 2000), b.waitFor(want, 2000)]);
      expect(ea.id).toBe(eb.id);
      // One message per change across both processes (the poll lock and the throttle are shared).
      await new Promise((r) => setTimeout(r, 600));
      expect(a.events.filter(want)).toHaveLength(1);
      expect(b.events.filter(want)).toHaveLength(1);
    });
  });
});
