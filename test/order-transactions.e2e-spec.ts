import Decimal from 'decimal.js';
import type { Response } from 'supertest';
import { BackfillOrderTransactions1796586878117 } from '../migrations/1796586878117-BackfillOrderTransactions';
import { OrderExpiry } from '../src/orders/actions/order-expiry';
import { OrderTransactionLog } from '../src/orders/transactions/order-transaction-log';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * The order transaction log (pretix 2025.7 "Transactions"): rows written by every order change in its own
 * transaction (`OrderTransactionLog.sync`), `E/transactions/` and `O/transactions/` with pretix's fields,
 * filters, ordering, pagination and permissions, the backfill migration, and a seeded random sequence of order
 * operations after which every order's rows sum to its total while it counts (0 otherwise).
 */
describe('order transactions', () => {
  let t: TestApp;
  let token: string;
  const ORG = '/api/v1/organizers/org';
  const E = `${ORG}/events/sample`;
  const OTHER = `${ORG}/events/other`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire bodies, checked by the assertions
  type Body = Record<string, any>;

  const post = (path: string, body: unknown = {}, as = token) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(as))
      .send(body as object);
  const get = (path: string, as = token) => t.http().get(path).set('Authorization', auth(as));

  async function ok(res: Response, status = 201): Promise<Body> {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Body;
  }

  /** Every row of a transaction list (all pages, page size 50). */
  async function all(url: string, as = token): Promise<Body[]> {
    const rows: Body[] = [];
    for (let page = 1; ; page++) {
      const body = await ok(
        await get(`${url}${url.includes('?') ? '&' : '?'}page_size=50&page=${page}`, as),
        200,
      );
      rows.push(...(body.results as Body[]));
      if (!body.next) return rows;
    }
  }

  const txOf = (code: string, base = E) => all(`${base}/transactions/?order=${code}`);

  const cat: {
    ticket: number;
    shirt: number;
    small: number;
    large: number;
    free: number;
    vat: number;
    reduced: number;
    otherItem: number;
  } = {} as never;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    cat.vat = (await ok(await post(`${E}/taxrules/`, { name: 'VAT', rate: '19.00' }))).id as number;
    cat.reduced = (await ok(await post(`${E}/taxrules/`, { name: 'Reduced', rate: '7.00' }))).id as number;
    cat.ticket = (
      await ok(await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00', tax_rule: cat.vat }))
    ).id as number;
    const shirt = await ok(
      await post(`${E}/items/`, {
        name: 'Shirt',
        default_price: '15.00',
        tax_rule: cat.reduced,
        variations: [{ value: 'S' }, { value: 'L', default_price: '20.00' }],
      }),
    );
    cat.shirt = shirt.id as number;
    [cat.small, cat.large] = (shirt.variations as { id: number }[]).map((v) => v.id);
    cat.free = (await ok(await post(`${E}/items/`, { name: 'Free', default_price: '0.00' }))).id as number;
    await ok(
      await post(`${E}/quotas/`, {
        name: 'All',
        size: null,
        items: [cat.ticket, cat.shirt, cat.free],
        variations: [cat.small, cat.large],
      }),
    );
    cat.otherItem = (await ok(await post(`${OTHER}/items/`, { name: 'Other', default_price: '30.00' })))
      .id as number;
    await ok(await post(`${OTHER}/quotas/`, { name: 'All', size: null, items: [cat.otherItem] }));
  });

  afterAll(() => t?.close());

  /** The event `create` and `act` write to by default (the random sequence runs on its own event). */
  let current = E;
  const create = async (body: Body, base = current) => ok(await post(`${base}/orders/`, body));
  const act = (code: string, action: string, body: Body = {}) =>
    post(`${current}/orders/${code}/${action}/`, body);

  /** The sum of `price * count` over rows (money string). */
  const sum = (rows: Body[]) =>
    rows
      .reduce((s, r) => s.plus(new Decimal(r.price as string).times(r.count as number)), new Decimal(0))
      .toFixed(2);

  describe('rows written by order changes', () => {
    it('creation writes +1 per position (fees first, then by positionid) with the lines of the order', async () => {
      const before = new Date();
      const order = await create({
        positions: [{ item: cat.ticket }, { item: cat.shirt, variation: cat.large }],
        fees: [{ fee_type: 'shipping', value: '5.00', internal_type: 'dhl', tax_rule: cat.vat }],
      });
      const rows = await txOf(order.code as string);
      const [p1, p2] = order.positions as Body[];
      const fee = (order.fees as Body[])[0];
      expect(rows).toEqual([
        {
          id: expect.any(Number),
          order: order.code,
          created: expect.any(String),
          datetime: expect.any(String),
          positionid: null,
          count: 1,
          item: null,
          variation: null,
          subevent: null,
          price: '5.00',
          tax_rate: '19.00',
          tax_rule: cat.vat,
          tax_code: null,
          tax_value: fee.tax_value,
          fee_type: 'shipping',
          internal_type: 'dhl',
        },
        ...[p1, p2].map((p) => ({
          id: expect.any(Number),
          order: order.code,
          created: expect.any(String),
          datetime: rows[0].datetime,
          positionid: p.positionid,
          count: 1,
          item: p.item,
          variation: p.variation,
          subevent: null,
          price: p.price,
          tax_rate: p.tax_rate,
          tax_rule: p.tax_rule,
          tax_code: null,
          tax_value: p.tax_value,
          fee_type: null,
          internal_type: null,
        })),
      ]);
      expect(rows.map((r) => r.id as number)).toEqual(
        [...rows.map((r) => r.id as number)].sort((a, b) => a - b),
      );
      expect(new Date(rows[0].datetime as string).getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
      expect(sum(rows)).toBe(order.total);
      const detail = await ok(await get(`${E}/transactions/${rows[1].id as number}/`), 200);
      expect(detail).toEqual(rows[1]);
    });

    it('cancel writes -1 for every line, reactivate +1 again; a no-op change writes nothing', async () => {
      const order = await create({ positions: [{ item: cat.ticket }, { item: cat.ticket, price: '12.50' }] });
      const code = order.code as string;
      await ok(await act(code, 'mark_canceled'), 200);
      let rows = await txOf(code);
      expect(rows.map((r) => [r.positionid, r.count, r.price])).toEqual([
        [1, 1, '10.00'],
        [2, 1, '12.50'],
        [1, -1, '10.00'],
        [2, -1, '12.50'],
      ]);
      expect(sum(rows)).toBe('0.00');
      expect(rows[2].datetime).toBe(rows[3].datetime);
      await ok(await act(code, 'reactivate'), 200);
      rows = await txOf(code);
      expect(rows.map((r) => r.count)).toEqual([1, 1, -1, -1, 1, 1]);
      expect(sum(rows)).toBe('22.50');
      // Paid and pending both count: nothing changes what is sold.
      await ok(await act(code, 'mark_paid'), 200);
      await ok(await act(code, 'mark_pending'), 200);
      await ok(await act(code, 'regenerate_secrets'), 200);
      expect(await txOf(code)).toHaveLength(6);
    });

    it('a cancellation fee: the lines go, the fee comes, the log sums to the fee', async () => {
      const order = await create({
        positions: [{ item: cat.ticket }],
        fees: [{ fee_type: 'payment', value: '1.00' }],
        status: 'p',
        payment_provider: 'manual',
      });
      await ok(await act(order.code as string, 'mark_canceled', { cancellation_fee: '3.00' }), 200);
      const rows = await txOf(order.code as string);
      expect(rows.map((r) => [r.positionid, r.fee_type, r.count, r.price])).toEqual([
        [null, 'payment', 1, '1.00'],
        [1, null, 1, '10.00'],
        [null, 'payment', -1, '1.00'],
        [1, null, -1, '10.00'],
        [null, 'cancellation', 1, '3.00'],
      ]);
      expect(sum(rows)).toBe('3.00');
    });

    it('expiry takes the lines away; paying the expired order brings them back', async () => {
      const order = await create({ positions: [{ item: cat.shirt, variation: cat.small }] });
      const code = order.code as string;
      await t.db.query(`UPDATE orders SET expires = now() - interval '1 hour' WHERE code = $1`, [code]);
      expect(await t.app.get(OrderExpiry, { strict: false }).expireDue()).toBeGreaterThanOrEqual(1);
      let rows = await txOf(code);
      expect(rows.map((r) => r.count)).toEqual([1, -1]);
      await ok(await act(code, 'mark_paid'), 200);
      rows = await txOf(code);
      expect(rows.map((r) => r.count)).toEqual([1, -1, 1]);
      expect(sum(rows)).toBe('15.00');
    });

    it('an order awaiting approval has no rows; approval writes them, denial none', async () => {
      const a = await create({ positions: [{ item: cat.ticket }], require_approval: true });
      const d = await create({ positions: [{ item: cat.ticket }], require_approval: true });
      expect(await txOf(a.code as string)).toEqual([]);
      await ok(await act(a.code as string, 'approve'), 200);
      expect((await txOf(a.code as string)).map((r) => r.count)).toEqual([1]);
      await ok(await act(d.code as string, 'deny'), 200);
      expect(await txOf(d.code as string)).toEqual([]);
    });

    it('a refund with mark_canceled cancels the order and writes the negative rows', async () => {
      const order = await create({
        positions: [{ item: cat.ticket }],
        status: 'p',
        payment_provider: 'manual',
      });
      const code = order.code as string;
      await ok(
        await post(`${E}/orders/${code}/refunds/`, {
          state: 'done',
          source: 'admin',
          amount: '10.00',
          payment: 1,
          provider: 'manual',
          mark_canceled: true,
        }),
      );
      const rows = await txOf(code);
      expect(rows.map((r) => r.count)).toEqual([1, -1]);
    });

    it('sync is idempotent: a second call writes nothing', async () => {
      const order = await create({ positions: [{ item: cat.ticket }, { item: cat.free }] });
      const [{ id }] = await t.db.query<{ id: number }[]>(`SELECT id FROM orders WHERE code = $1`, [
        order.code,
      ]);
      const log = t.app.get(OrderTransactionLog, { strict: false });
      await t.db.transaction((em) => log.sync(em, id, new Date()));
      await t.db.transaction((em) => log.sync(em, id, new Date()));
      expect(await txOf(order.code as string)).toHaveLength(2);
    });
  });

  describe('lists', () => {
    let code: string;
    let otherCode: string;

    beforeAll(async () => {
      code = (
        await create({
          positions: [{ item: cat.ticket }, { item: cat.shirt, variation: cat.small }],
          fees: [{ fee_type: 'service', value: '2.00' }],
        })
      ).code as string;
      otherCode = (await create({ positions: [{ item: cat.otherItem }] }, OTHER)).code as string;
    });

    it('E/transactions/ shows only the event, in datetime then id order, paginated', async () => {
      const rows = await all(`${E}/transactions/`);
      expect(rows.some((r) => r.order === otherCode)).toBe(false);
      const keys = rows.map((r) => [r.datetime as string, r.id as number] as const);
      expect(keys).toEqual([...keys].sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1)));
      const page = await ok(await get(`${E}/transactions/?page_size=2`), 200);
      expect(page.count).toBe(rows.length);
      expect(page.results).toEqual(rows.slice(0, 2));
      expect(page.next).toContain('page=2');
      const desc = await all(`${E}/transactions/?ordering=-id`);
      expect(desc.map((r) => r.id)).toEqual(rows.map((r) => r.id as number).sort((a, b) => b - a));
    });

    it('filters as pretix: order, item, variation, fee_type, tax_rule, tax_rate, datetimes, __in forms', async () => {
      const mine = await txOf(code.toLowerCase());
      expect(mine).toHaveLength(3);
      const ids = (url: string) => all(url).then((rows) => rows.map((r) => r.id as number));
      const byItem = await all(`${E}/transactions/?item=${cat.shirt}`);
      expect(byItem.length).toBeGreaterThan(0);
      expect(byItem.every((r) => r.item === cat.shirt)).toBe(true);
      expect(await ids(`${E}/transactions/?item__in=${cat.shirt},${cat.ticket}`)).toEqual(
        (await all(`${E}/transactions/`))
          .filter((r) => [cat.shirt, cat.ticket].includes(r.item as number))
          .map((r) => r.id),
      );
      expect(
        (await all(`${E}/transactions/?variation=${cat.small}`)).every((r) => r.variation === cat.small),
      ).toBe(true);
      const service = await all(`${E}/transactions/?fee_type=service`);
      expect(service.map((r) => r.order)).toContain(code);
      expect(service.every((r) => r.fee_type === 'service')).toBe(true);
      const fees = await all(`${E}/transactions/?fee_type__in=service,shipping`);
      expect(fees.every((r) => ['service', 'shipping'].includes(r.fee_type as string))).toBe(true);
      expect(
        (await all(`${E}/transactions/?tax_rule=${cat.reduced}`)).every((r) => r.tax_rule === cat.reduced),
      ).toBe(true);
      const rated = await all(`${E}/transactions/?tax_rate=7`);
      expect(rated.length).toBeGreaterThan(0);
      expect(rated.every((r) => r.tax_rate === '7.00')).toBe(true);
      expect((await all(`${E}/transactions/?tax_rate__in=7.00,19.00`)).length).toBeGreaterThan(rated.length);
      expect(await all(`${E}/transactions/?tax_code=S`)).toEqual([]);
      const at = mine[0].datetime as string;
      expect(await ids(`${E}/transactions/?order=${code}&datetime_since=${encodeURIComponent(at)}`)).toEqual(
        mine.map((r) => r.id),
      );
      expect(await ids(`${E}/transactions/?order=${code}&datetime_before=${encodeURIComponent(at)}`)).toEqual(
        [],
      );
      expect(await ids(`${E}/transactions/?order=${code}&created_before=2000-01-01T00:00:00Z`)).toEqual([]);
      expect(await ids(`${E}/transactions/?order=${code}&created_since=2000-01-01T00:00:00Z`)).toEqual(
        mine.map((r) => r.id),
      );
    });

    it('answers 400 naming the filter for a malformed value', async () => {
      expect((await get(`${E}/transactions/?item=abc`)).body).toEqual({ item: ['Enter a whole number.'] });
      expect((await get(`${E}/transactions/?tax_rate__in=7,x`)).body).toEqual({
        tax_rate__in: ['Enter a number.'],
      });
      expect((await get(`${E}/transactions/?datetime_since=yesterday`)).status).toBe(400);
    });

    it('a transaction of another event is 404 under this event', async () => {
      const [row] = await txOf(otherCode, OTHER);
      expect((await get(`${E}/transactions/${row.id as number}/`)).status).toBe(404);
      expect((await get(`${OTHER}/transactions/${row.id as number}/`)).status).toBe(200);
    });

    it('O/transactions/ adds the event slug and covers the events the credential may read orders of', async () => {
      const rows = await all(`${ORG}/transactions/`);
      expect(new Set(rows.map((r) => r.event))).toEqual(new Set(['sample', 'other']));
      const other = rows.filter((r) => r.order === otherCode);
      expect(other).toEqual([{ ...(await txOf(otherCode, OTHER))[0], event: 'other' }]);
      expect((await all(`${ORG}/transactions/?event=OTHER`)).map((r) => r.order)).toEqual([otherCode]);
      const one = await ok(await get(`${ORG}/transactions/${other[0].id as number}/`), 200);
      expect(one).toEqual(other[0]);

      const limited = await teamToken(t, 'org', {
        limitEvents: ['sample'],
        eventPermissions: ['event.orders:read'],
      });
      const seen = await all(`${ORG}/transactions/`, limited);
      expect(seen.length).toBe((await all(`${E}/transactions/`)).length);
      expect(seen.every((r) => r.event === 'sample')).toBe(true);
      expect((await get(`${ORG}/transactions/${other[0].id as number}/`, limited)).status).toBe(404);

      const noOrders = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.items:read'] });
      const none = await ok(await get(`${ORG}/transactions/`, noOrders), 200);
      expect(none.count).toBe(0);
    });

    it('E/transactions/ needs event.orders:read', async () => {
      const items = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.items:read'] });
      const res = await get(`${E}/transactions/`, items);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(DENIED);
      const reader = await teamToken(t, 'org', {
        limitEvents: ['sample'],
        eventPermissions: ['event.orders:read'],
      });
      expect((await get(`${E}/transactions/`, reader)).status).toBe(200);
      expect((await get(`${OTHER}/transactions/`, reader)).status).toBe(403);
      expect((await t.http().get(`${E}/transactions/`)).status).toBe(401);
    });
  });

  // ------------------------------------------------------------------------------------------------------------
  // A seeded random sequence of order operations
  // ------------------------------------------------------------------------------------------------------------

  /** mulberry32: a small seeded PRNG, so a failing sequence can be replayed. */
  function prng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let x = a;
      x = Math.imul(x ^ (x >>> 15), x | 1);
      x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };
  }

  interface OrderRow {
    id: number;
    code: string;
    status: string;
    require_approval: boolean;
    total: string;
  }

  interface OpContext {
    rnd: () => number;
    pick: <T>(xs: readonly T[]) => T;
    /** The sequence's orders now (read from the database before each operation). */
    orders: OrderRow[];
  }

  /**
   * The operations of the random sequence: each picks an order it applies to (or none: skipped) and runs one
   * change through the API or the scheduler's path. Order changes (`E/orders/{code}/change/`) go here too.
   */
  const OPERATIONS: { name: string; weight: number; run: (ctx: OpContext) => Promise<boolean> }[] = [
    {
      name: 'create',
      weight: 5,
      run: async ({ rnd, pick }) => {
        const positions = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () =>
          pick<Body>([
            { item: cat.ticket },
            { item: cat.ticket, price: '12.50' },
            { item: cat.shirt, variation: cat.small },
            { item: cat.shirt, variation: cat.large },
            { item: cat.free },
          ]),
        );
        const fees = Array.from({ length: Math.floor(rnd() * 3) }, () =>
          pick<Body>([
            { fee_type: 'shipping', value: '4.90', tax_rule: cat.vat },
            { fee_type: 'payment', value: '0.50' },
            { fee_type: 'service', value: '2.00', internal_type: 'x' },
          ]),
        );
        const approval = rnd() < 0.15;
        const paid = !approval && rnd() < 0.3;
        await create({
          positions,
          fees,
          require_approval: approval,
          ...(paid ? { status: 'p', payment_provider: 'manual' } : {}),
        });
        return true;
      },
    },
    ...(
      [
        ['mark_paid', ['n', 'e'], false],
        ['mark_pending', ['p'], false],
        ['mark_expired', ['n'], false],
        ['mark_canceled', ['n', 'p', 'e'], false],
        ['reactivate', ['c'], false],
        ['approve', ['n'], true],
        ['deny', ['n'], true],
      ] as const
    ).map(([action, statuses, approval]) => ({
      name: action,
      weight: action === 'mark_canceled' ? 3 : 2,
      run: async ({ pick, rnd, orders }: OpContext) => {
        const candidates = orders.filter(
          (o) => (statuses as readonly string[]).includes(o.status) && o.require_approval === approval,
        );
        if (candidates.length === 0) return false;
        const o = pick(candidates);
        const body: Body = {};
        if (action === 'mark_canceled' && o.status === 'p' && rnd() < 0.4) {
          body.cancellation_fee = new Decimal(o.total).times(0.2).toFixed(2);
        }
        const res = await act(o.code, action, body);
        if (res.status !== 200 && res.status !== 400)
          throw new Error(`${action}: ${res.status} ${JSON.stringify(res.body)}`);
        return res.status === 200;
      },
    })),
    {
      name: 'extend',
      weight: 1,
      run: async ({ pick, orders }) => {
        const candidates = orders.filter((o) => o.status === 'e');
        if (candidates.length === 0) return false;
        const res = await act(pick(candidates).code, 'extend', { expires: '2099-12-31' });
        return res.status === 200;
      },
    },
    {
      name: 'expire_due',
      weight: 1,
      run: async ({ pick, orders }) => {
        const candidates = orders.filter((o) => o.status === 'n' && !o.require_approval);
        if (candidates.length === 0) return false;
        await t.db.query(`UPDATE orders SET expires = now() - interval '1 minute' WHERE id = $1`, [
          pick(candidates).id,
        ]);
        return (await t.app.get(OrderExpiry, { strict: false }).expireDue()) > 0;
      },
    },
    // Order changes (compat §4.4 "Changing order contents") and the position writes built on them.
    ...(
      [
        [
          'change_swap',
          2,
          (ps: number[], _fs: number[], pick: <T>(xs: readonly T[]) => T) => ({
            patch_positions: [
              {
                position: pick(ps),
                body: pick<Body>([
                  { item: cat.ticket },
                  { item: cat.shirt, variation: cat.large },
                  { item: cat.free },
                  { price: '7.25' },
                ]),
              },
            ],
          }),
        ],
        [
          'change_cancel',
          2,
          (ps: number[], _fs: number[], pick: <T>(xs: readonly T[]) => T) =>
            ps.length > 1 ? { cancel_positions: [{ position: pick(ps) }] } : null,
        ],
        ['change_add', 2, () => ({ create_positions: [{ item: cat.ticket, price: '9.00' }] })],
        [
          'change_fees',
          1,
          (_ps: number[], fs: number[], pick: <T>(xs: readonly T[]) => T) =>
            fs.length > 0
              ? pick<Body>([
                  { cancel_fees: [{ fee: pick(fs) }] },
                  { patch_fees: [{ fee: pick(fs), body: { value: '3.30' } }] },
                ])
              : { create_fees: [{ fee_type: 'service', value: '1.10' }] },
        ],
      ] as const
    ).map(([name, weight, bodyOf]) => ({
      name,
      weight,
      run: async ({ pick, orders }: OpContext) => {
        const candidates = orders.filter((o) => o.status === 'n' || o.status === 'p');
        if (candidates.length === 0) return false;
        const o = pick(candidates);
        const { ps, fs } = await partsOf(o.id);
        const body = bodyOf(ps, fs, pick);
        if (body === null) return false;
        const res = await post(`${current}/orders/${o.code}/change/`, body);
        if (res.status !== 200 && res.status !== 400)
          throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
        return res.status === 200;
      },
    })),
    {
      name: 'position_add',
      weight: 1,
      run: async ({ pick, orders }) => {
        const candidates = orders.filter((o) => o.status === 'n' || o.status === 'p');
        if (candidates.length === 0) return false;
        const res = await post(`${current}/orderpositions/`, {
          order: pick(candidates).code,
          item: cat.ticket,
        });
        if (res.status !== 201 && res.status !== 400) throw new Error(`position_add: ${res.status}`);
        return res.status === 201;
      },
    },
    {
      name: 'position_delete',
      weight: 1,
      run: async ({ pick, orders }) => {
        const candidates = orders.filter((o) => o.status === 'n' || o.status === 'p');
        if (candidates.length === 0) return false;
        const { ps } = await partsOf(pick(candidates).id);
        if (ps.length < 2) return false;
        const res = await t
          .http()
          .delete(`${current}/orderpositions/${pick(ps)}/`)
          .set('Authorization', auth(token));
        if (res.status !== 204 && res.status !== 400) throw new Error(`position_delete: ${res.status}`);
        return res.status === 204;
      },
    },
  ];

  /** The active position ids (`ps`) and fee ids (`fs`) of an order. */
  const partsOf = async (orderId: number): Promise<{ ps: number[]; fs: number[] }> => {
    const ps: { id: number }[] = await t.db.query(
      'SELECT id FROM order_position WHERE order_id = $1 AND NOT canceled ORDER BY id',
      [orderId],
    );
    const fs: { id: number }[] = await t.db.query(
      'SELECT id FROM order_fee WHERE order_id = $1 AND NOT canceled ORDER BY id',
      [orderId],
    );
    return { ps: ps.map((r) => r.id), fs: fs.map((r) => r.id) };
  };

  /** The sequence's orders (event `series-run`, created for it) with their state. */
  const stateOf = async (eventId: number): Promise<OrderRow[]> =>
    t.db.query(
      `SELECT id, code, status, require_approval, total::text AS total FROM orders WHERE event_id = $1 ORDER BY id`,
      [eventId],
    );

  /**
   * Per order: the sum of the log and what pretix's rules say it must be (total while counting, else 0), the net
   * count of each position's rows (1 while the position is active and the order counts, else 0) and of the fees'.
   */
  async function violations(eventId: number): Promise<string[]> {
    const rows: { code: string; problem: string }[] = await t.db.query(
      `WITH o AS (SELECT id, code, total, (status IN ('n', 'p') AND NOT require_approval) AS counts
                    FROM orders WHERE event_id = $1)
       SELECT o.code, 'sum ' || coalesce(s.v, 0) || ' <> ' || CASE WHEN o.counts THEN o.total ELSE 0 END AS problem
         FROM o LEFT JOIN (SELECT order_id, sum(price * count) AS v FROM order_transaction GROUP BY order_id) s
           ON s.order_id = o.id
        WHERE coalesce(s.v, 0) <> CASE WHEN o.counts THEN o.total ELSE 0 END
       UNION ALL
       SELECT o.code, 'position ' || p.positionid || ' net ' || coalesce(n.c, 0)
         FROM o JOIN order_position p ON p.order_id = o.id
         LEFT JOIN (SELECT order_id, positionid, sum(count) AS c FROM order_transaction
                     WHERE positionid IS NOT NULL GROUP BY 1, 2) n
           ON n.order_id = o.id AND n.positionid = p.positionid
        WHERE coalesce(n.c, 0) <> CASE WHEN o.counts AND NOT p.canceled THEN 1 ELSE 0 END
       UNION ALL
       SELECT o.code, 'fees net ' || coalesce(n.c, 0) || ' <> ' || coalesce(f.c, 0)
         FROM o
         LEFT JOIN (SELECT order_id, count(*) AS c FROM order_fee WHERE NOT canceled GROUP BY 1) f ON f.order_id = o.id
         LEFT JOIN (SELECT order_id, sum(count) AS c FROM order_transaction WHERE positionid IS NULL GROUP BY 1) n
           ON n.order_id = o.id
        WHERE coalesce(n.c, 0) <> CASE WHEN o.counts THEN coalesce(f.c, 0) ELSE 0 END
       UNION ALL
       SELECT o.code, 'bad row ' || t.id
         FROM o JOIN order_transaction t ON t.order_id = o.id
        WHERE t.count = 0 OR t.event_id <> $1
           OR (t.positionid IS NULL) <> (t.fee_type IS NOT NULL) OR (t.positionid IS NULL) <> (t.item_id IS NULL)`,
      [eventId],
    );
    return rows.map((r) => `${r.code}: ${r.problem}`);
  }

  it('a random sequence of 200 operations keeps every order log equal to what it sells', async () => {
    const run = `${ORG}/events/series-run`;
    await createEvent(t, token, 'org', { slug: 'series-run' });
    const [{ id: eventId }] = await t.db.query<{ id: number }[]>(
      `SELECT id FROM event WHERE slug = 'series-run'`,
    );
    // The same catalogue in the run's event.
    const vat = (await ok(await post(`${run}/taxrules/`, { name: 'VAT', rate: '19.00' }))).id as number;
    const reduced = (await ok(await post(`${run}/taxrules/`, { name: 'Reduced', rate: '7.00' })))
      .id as number;
    const saved = { ...cat };
    cat.ticket = (await ok(await post(`${run}/items/`, { name: 'T', default_price: '10.00', tax_rule: vat })))
      .id as number;
    const shirt = await ok(
      await post(`${run}/items/`, {
        name: 'S',
        default_price: '15.00',
        tax_rule: reduced,
        variations: [{ value: 'S' }, { value: 'L', default_price: '20.00' }],
      }),
    );
    cat.shirt = shirt.id as number;
    [cat.small, cat.large] = (shirt.variations as { id: number }[]).map((v) => v.id);
    cat.free = (await ok(await post(`${run}/items/`, { name: 'F', default_price: '0.00' }))).id as number;
    cat.vat = vat;
    await ok(
      await post(`${run}/quotas/`, {
        name: 'All',
        size: null,
        items: [cat.ticket, cat.shirt, cat.free],
        variations: [cat.small, cat.large],
      }),
    );
    const seeded = prng(20261206);
    const ctx: OpContext = {
      rnd: seeded,
      pick: <T>(xs: readonly T[]) => xs[Math.floor(seeded() * xs.length)],
      orders: [],
    };
    const totalWeight = OPERATIONS.reduce((s, o) => s + o.weight, 0);
    const applied: Record<string, number> = {};
    try {
      current = run;
      for (let step = 0; step < 200; step++) {
        ctx.orders = await stateOf(eventId);
        let r = seeded() * totalWeight;
        const op = OPERATIONS.find((o) => (r -= o.weight) < 0) ?? OPERATIONS[0];
        const done = ctx.orders.length === 0 ? await OPERATIONS[0].run(ctx) : await op.run(ctx);
        if (done) applied[op.name] = (applied[op.name] ?? 0) + 1;
        const problems = await violations(eventId);
        if (problems.length > 0) throw new Error(`step ${step} (${op.name}): ${problems.join('; ')}`);
      }
    } finally {
      current = E;
      Object.assign(cat, saved);
    }
    // Every kind of operation ran.
    expect(Object.keys(applied).sort()).toEqual(OPERATIONS.map((o) => o.name).sort());
    const orders = await stateOf(eventId);
    expect(orders.length).toBeGreaterThan(20);
    // The list agrees with the table: per order, the API's rows sum to the total while it counts.
    const listed = await all(`${run}/transactions/`);
    for (const o of orders) {
      const counts = (o.status === 'n' || o.status === 'p') && !o.require_approval;
      expect([o.code, sum(listed.filter((r) => r.order === o.code))]).toEqual([
        o.code,
        counts ? o.total : '0.00',
      ]);
    }
    // Revenue by product is one sum over the table: the log of the counting orders.
    const byItem: { item_id: number; revenue: string }[] = await t.db.query(
      `SELECT item_id, sum(price * count)::text AS revenue FROM order_transaction
        WHERE event_id = $1 AND item_id IS NOT NULL GROUP BY item_id ORDER BY item_id`,
      [eventId],
    );
    const expected: { item_id: number; revenue: string }[] = await t.db.query(
      `SELECT p.item_id, sum(p.price)::text AS revenue FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE o.event_id = $1 AND o.status IN ('n', 'p') AND NOT o.require_approval AND NOT p.canceled
        GROUP BY p.item_id ORDER BY p.item_id`,
      [eventId],
    );
    expect(byItem.filter((r) => new Decimal(r.revenue).gt(0))).toEqual(
      expected.filter((r) => new Decimal(r.revenue).gt(0)),
    );

    // The backfill migration rebuilds a log with the same sums (its rows are `migrated`), and sync then has
    // nothing to add.
    await t.db.query(`DELETE FROM order_transaction WHERE event_id = $1`, [eventId]);
    const runner = t.db.createQueryRunner();
    try {
      await new BackfillOrderTransactions1796586878117().up(runner);
    } finally {
      await runner.release();
    }
    expect(await violations(eventId)).toEqual([]);
    const count = async () =>
      Number(
        (
          await t.db.query<{ n: string }[]>(
            `SELECT count(*) AS n FROM order_transaction WHERE event_id = $1`,
            [eventId],
          )
        )[0].n,
      );
    const backfilled = await count();
    const log = t.app.get(OrderTransactionLog, { strict: false });
    await t.db.transaction(async (em) => {
      for (const o of orders) await log.sync(em, o.id, new Date());
    });
    expect(await count()).toBe(backfilled);
  });
});
