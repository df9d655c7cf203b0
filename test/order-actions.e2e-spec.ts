import { randomBytes } from 'crypto';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Order status actions `POST E/orders/{code}/<action>/` (compat §4.4 "Actions"; permission `event.orders:write`,
 * docs/permissions.md). Orders are written straight to the tables (order creation is another resource's), on
 * items, quotas and vouchers made through the catalogue API; every state change is checked against the quota
 * engine through `GET …/quotas/{id}/availability/`.
 */
describe('order actions', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let writer: string;
  const BASE = '/api/v1/organizers/org/events';
  const E = `${BASE}/sample`;
  const OTHER = `${BASE}/other`;
  const ACTIONS = [
    'mark_paid',
    'mark_pending',
    'mark_expired',
    'mark_canceled',
    'reactivate',
    'extend',
    'approve',
    'deny',
    'regenerate_secrets',
  ] as const;
  type Action = (typeof ACTIONS)[number];

  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const NOT_FOUND = { detail: 'Not found.' };
  const NOT_AUTHENTICATED = { detail: 'Authentication credentials were not provided.' };
  const detail = (text: string) => ({ detail: text });
  const quotaMessage = (name: string) =>
    detail(`There is not enough quota available on quota "${name}" to perform the operation.`);

  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const act = (code: string, action: Action, body: object = {}, tok = token, base = E) =>
    post(`${base}/orders/${code}/${action}/`, body, tok);

  // ------------------------------------------------------------------------------------------------------------
  // Fixtures
  // ------------------------------------------------------------------------------------------------------------

  const events = new Map<string, { id: number; organizerId: number }>();

  async function eventIds(slug: string): Promise<{ id: number; organizerId: number }> {
    const known = events.get(slug);
    if (known) return known;
    const rows: { id: number; organizer_id: number }[] = await t.db.query(
      `SELECT e.id, e.organizer_id FROM event e JOIN organizer o ON o.id = e.organizer_id
        WHERE o.slug = 'org' AND e.slug = $1`,
      [slug],
    );
    const ids = { id: rows[0].id, organizerId: rows[0].organizer_id };
    events.set(slug, ids);
    return ids;
  }

  let productCount = 0;

  /** An item on its own quota of `size` places (null: unlimited), made through the catalogue API. */
  async function product(
    size: number | null,
    base = E,
    extra: object = {},
  ): Promise<{ item: number; quota: number; quotaName: string }> {
    productCount += 1;
    const item = await post(`${base}/items/`, { name: `Ticket ${productCount}`, default_price: '10.00' });
    if (item.status !== 201) throw new Error(`item: ${item.status} ${JSON.stringify(item.body)}`);
    const quotaName = `Quota ${productCount}`;
    const quota = await post(`${base}/quotas/`, { name: quotaName, size, items: [item.body.id], ...extra });
    if (quota.status !== 201) throw new Error(`quota: ${quota.status} ${JSON.stringify(quota.body)}`);
    return { item: item.body.id as number, quota: quota.body.id as number, quotaName };
  }

  async function voucher(body: object): Promise<number> {
    const res = await post(`${E}/vouchers/`, body);
    if (res.status !== 201) throw new Error(`voucher: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as number;
  }

  interface PositionSpec {
    item: number;
    price?: string;
    voucher?: number | null;
    budgetUse?: string | null;
    canceled?: boolean;
  }

  interface OrderSpec {
    event?: string;
    status?: 'n' | 'p' | 'e' | 'c';
    total?: string;
    email?: string | null;
    requireApproval?: boolean;
    expires?: string;
    positions: PositionSpec[];
    payments?: { state: string; amount: string; provider?: string }[];
    fees?: { type: string; value: string }[];
    cancellationDate?: string | null;
  }

  const randomCode = (n: number) =>
    Array.from(randomBytes(n), (b) => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[b % 32]).join('');

  /**
   * An order as order creation would leave it: rows in orders, order_position, order_fee, order_payment; a
   * voucher used by a position of a live (not canceled) order is counted as redeemed, with its budget use.
   */
  async function placeOrder(spec: OrderSpec): Promise<string> {
    const ev = await eventIds(spec.event ?? 'sample');
    const code = randomCode(8);
    const positions = spec.positions.map((p) => ({ price: '10.00', ...p }));
    const total =
      spec.total ??
      [...positions.map((p) => Number(p.price)), ...(spec.fees ?? []).map((f) => Number(f.value))]
        .reduce((a, b) => a + b, 0)
        .toFixed(2);
    const status = spec.status ?? 'n';
    const [order]: { id: number }[] = await t.db.query(
      `INSERT INTO orders (event_id, organizer_id, code, status, secret, email, expires, total, require_approval,
                           cancellation_date, datetime, last_modified)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, '2026-01-01T10:00:00Z', '2026-01-01T10:00:00Z')
       RETURNING id`,
      [
        ev.id,
        ev.organizerId,
        code,
        status,
        randomBytes(16).toString('hex'),
        spec.email === undefined ? 'buyer@example.org' : spec.email,
        spec.expires ?? '2031-01-10T10:00:00Z',
        total,
        spec.requireApproval ?? false,
        spec.cancellationDate ?? (status === 'c' ? '2026-01-02T10:00:00Z' : null),
      ],
    );
    for (const [i, p] of positions.entries()) {
      await t.db.query(
        `INSERT INTO order_position (order_id, event_id, positionid, item_id, price, secret, pseudonymization_id,
                                     voucher_id, voucher_budget_use, canceled, canceled_with_order)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          order.id,
          ev.id,
          i + 1,
          p.item,
          p.price,
          randomBytes(16).toString('hex'),
          randomCode(10),
          p.voucher ?? null,
          p.budgetUse ?? null,
          p.canceled ?? status === 'c',
          // A canceled order's positions went with it (what `reactivate` revives).
          status === 'c' && (p.canceled ?? true),
        ],
      );
      if (p.voucher && status !== 'c' && !p.canceled) {
        await t.db.query(
          'UPDATE voucher SET redeemed = redeemed + 1, budget_used = budget_used + $2 WHERE id = $1',
          [p.voucher, p.budgetUse ?? '0'],
        );
      }
    }
    for (const f of spec.fees ?? []) {
      await t.db.query(
        'INSERT INTO order_fee (order_id, fee_type, value, canceled) VALUES ($1, $2, $3, $4)',
        [order.id, f.type, f.value, status === 'c'],
      );
    }
    for (const [i, p] of (spec.payments ?? []).entries()) {
      await t.db.query(
        `INSERT INTO order_payment (order_id, local_id, state, amount, provider, payment_date, created)
         VALUES ($1, $2, $3, $4, $5, $6, '2026-01-01T10:00:00Z')`,
        [
          order.id,
          i + 1,
          p.state,
          p.amount,
          p.provider ?? 'banktransfer',
          p.state === 'confirmed' ? '2026-01-01T11:00:00Z' : null,
        ],
      );
    }
    return code;
  }

  async function availability(quota: number, base = E): Promise<Record<string, unknown>> {
    const res = await get(`${base}/quotas/${quota}/availability/`);
    expect(res.status).toBe(200);
    return res.body as Record<string, unknown>;
  }

  async function orderRow(
    code: string,
  ): Promise<{ id: number; status: string; total: string; last_modified: Date; require_approval: boolean }> {
    const rows: {
      id: number;
      status: string;
      total: string;
      last_modified: Date;
      require_approval: boolean;
    }[] = await t.db.query(
      'SELECT id, status, total, last_modified, require_approval FROM orders WHERE code = $1',
      [code],
    );
    return rows[0];
  }

  async function logOf(code: string): Promise<{ action: string; data: Record<string, unknown> }[]> {
    const rows: { action_type: string; data: Record<string, unknown> }[] = await t.db.query(
      `SELECT l.action_type, l.data FROM log_entry l JOIN orders o ON o.id = l.object_id
        WHERE l.content_type = 'order' AND o.code = $1 ORDER BY l.id`,
      [code],
    );
    return rows.map((r) => ({ action: r.action_type, data: r.data }));
  }

  async function mailsTo(code: string): Promise<{ recipient: string; subject: string; body: string }[]> {
    return t.db.query('SELECT recipient, subject, body FROM outgoing_mail WHERE body LIKE $1 ORDER BY id', [
      `%${code}%`,
    ]);
  }

  async function voucherState(id: number): Promise<{ redeemed: number; budget_used: string }> {
    const res = await get(`${E}/vouchers/${id}/`);
    expect(res.status).toBe(200);
    return { redeemed: res.body.redeemed as number, budget_used: res.body.budget_used as string };
  }

  /** The order as the actions present it (fetched by running an action that is refused, so nothing changes). */
  async function snapshot(code: string): Promise<Record<string, unknown>> {
    const rows: Record<string, unknown>[] = await t.db.query(
      `SELECT o.status, o.total::text, o.expires, o.require_approval, o.cancellation_date, o.last_modified,
              (SELECT json_agg(json_build_object('canceled', p.canceled) ORDER BY p.positionid)
                 FROM order_position p WHERE p.order_id = o.id) AS positions,
              (SELECT json_agg(json_build_object('state', y.state, 'amount', y.amount) ORDER BY y.local_id)
                 FROM order_payment y WHERE y.order_id = o.id) AS payments,
              (SELECT json_agg(json_build_object('type', f.fee_type, 'value', f.value, 'canceled', f.canceled)
                        ORDER BY f.id) FROM order_fee f WHERE f.order_id = o.id) AS fees
         FROM orders o WHERE o.code = $1`,
      [code],
    );
    return rows[0];
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample', timezone: 'Europe/Berlin' });
    await createEvent(t, token, 'org', { slug: 'other' });
    reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    writer = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:write'] });
  });
  afterAll(() => t.close());

  // ------------------------------------------------------------------------------------------------------------
  // Access
  // ------------------------------------------------------------------------------------------------------------

  describe('access', () => {
    let code: string;
    let otherCode: string;

    beforeAll(async () => {
      const { item } = await product(10);
      code = await placeOrder({ positions: [{ item }] });
      const { item: otherItem } = await product(10, OTHER);
      otherCode = await placeOrder({ event: 'other', positions: [{ item: otherItem }] });
    });

    it.each(ACTIONS)('%s: 401 without credentials', async (action) => {
      const res = await t.http().post(`${E}/orders/${code}/${action}/`).send({});
      expect(res.status).toBe(401);
      expect(res.body).toEqual(NOT_AUTHENTICATED);
    });

    it.each(ACTIONS)('%s: 403 with only event.orders:read, order unchanged', async (action) => {
      const before = await snapshot(code);
      const res = await act(code, action, { expires: '2031-06-01' }, reader);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(DENIED);
      expect(await snapshot(code)).toEqual(before);
    });

    it.each(ACTIONS)('%s: 404 for an order of another event, and for an unknown code', async (action) => {
      const before = await snapshot(otherCode);
      const res = await act(otherCode, action, { expires: '2031-06-01' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect(await snapshot(otherCode)).toEqual(before);
      const unknown = await act('NOSUCHCODE', action, { expires: '2031-06-01' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(NOT_FOUND);
      const tooLong = await act('X'.repeat(40), action, { expires: '2031-06-01' });
      expect(tooLong.status).toBe(404);
    });

    it('the same code works on its own event', async () => {
      const res = await act(otherCode, 'mark_expired', {}, token, OTHER);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('e');
      expect(res.body.event).toBe('other');
    });

    it('a team with exactly event.orders:write may act', async () => {
      const res = await act(code, 'mark_expired', {}, writer);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('e');
    });
  });

  // ------------------------------------------------------------------------------------------------------------
  // mark_paid
  // ------------------------------------------------------------------------------------------------------------

  describe('mark_paid', () => {
    it('marks a pending order paid with a confirmed manual payment of the total, logs and mails', async () => {
      const { item, quota } = await product(5);
      const code = await placeOrder({
        positions: [
          { item, price: '12.00' },
          { item, price: '8.00' },
        ],
      });
      expect(await availability(quota)).toMatchObject({
        pending_orders: 2,
        paid_orders: 0,
        available_number: 3,
      });
      const started = Date.now();
      const res = await act(code, 'mark_paid');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        code,
        event: 'sample',
        status: 'p',
        total: '20.00',
        payment_provider: 'manual',
        payments: [
          {
            local_id: 1,
            state: 'confirmed',
            amount: '20.00',
            provider: 'manual',
            payment_date: expect.any(String),
            created: expect.any(String),
            payment_url: null,
            details: {},
          },
        ],
      });
      expect(res.body.payment_date).toBe(new Date().toISOString().slice(0, 10));
      expect(res.body.positions).toHaveLength(2);
      expect(res.body.positions.map((p: { canceled: boolean }) => p.canceled)).toEqual([false, false]);
      expect(Date.parse(res.body.last_modified as string)).toBeGreaterThanOrEqual(started - 1000);
      expect((await orderRow(code)).status).toBe('p');
      expect(await availability(quota)).toMatchObject({
        pending_orders: 0,
        paid_orders: 2,
        available_number: 3,
      });
      expect(await logOf(code)).toEqual([
        { action: 'pretix.event.order.payment.confirmed', data: { local_id: 1, provider: 'manual' } },
        {
          action: 'pretix.event.order.paid',
          data: { provider: 'manual', info: {}, date: expect.any(String), force: false },
        },
      ]);
      const mails = await mailsTo(code);
      expect(mails).toHaveLength(1);
      expect(mails[0].recipient).toBe('buyer@example.org');
      expect(mails[0].subject).toBe(`Payment received for your order: ${code}`);
      expect(mails[0].body).toContain('Sample Conference');
    });

    it('sends no mail with send_email false, nor for an order without e-mail', async () => {
      const { item } = await product(5);
      const quiet = await placeOrder({ positions: [{ item }] });
      expect((await act(quiet, 'mark_paid', { send_email: false })).status).toBe(200);
      expect(await mailsTo(quiet)).toEqual([]);
      const noEmail = await placeOrder({ positions: [{ item }], email: null });
      const res = await act(noEmail, 'mark_paid', { send_email: true });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('p');
      expect(await mailsTo(noEmail)).toEqual([]);
    });

    it('pays only the open amount, confirming an open manual payment of exactly that amount', async () => {
      const { item } = await product(5);
      const code = await placeOrder({
        positions: [{ item, price: '10.00' }],
        payments: [
          { state: 'confirmed', amount: '4.00' },
          { state: 'created', amount: '6.00', provider: 'manual' },
        ],
      });
      const res = await act(code, 'mark_paid', { send_email: false });
      expect(res.status).toBe(200);
      expect(
        res.body.payments.map((p: Record<string, unknown>) => [p.local_id, p.state, p.amount, p.provider]),
      ).toEqual([
        [1, 'confirmed', '4.00', 'banktransfer'],
        [2, 'confirmed', '6.00', 'manual'],
      ]);
      expect((await logOf(code)).map((l) => l.action)).toEqual([
        'pretix.event.order.payment.confirmed',
        'pretix.event.order.paid',
      ]);
    });

    it('cancels other open payments and adds a new one with the next local id', async () => {
      const { item } = await product(5);
      const code = await placeOrder({
        positions: [{ item, price: '10.00' }],
        payments: [{ state: 'pending', amount: '10.00', provider: 'stripe' }],
      });
      const res = await act(code, 'mark_paid', { send_email: false });
      expect(res.status).toBe(200);
      expect(
        res.body.payments.map((p: Record<string, unknown>) => [p.local_id, p.state, p.amount, p.provider]),
      ).toEqual([
        [1, 'canceled', '10.00', 'stripe'],
        [2, 'confirmed', '10.00', 'manual'],
      ]);
      expect((await logOf(code)).map((l) => l.action)).toEqual([
        'pretix.event.order.payment.canceled',
        'pretix.event.order.payment.confirmed',
        'pretix.event.order.paid',
      ]);
    });

    it.each(['p', 'c'] as const)('refuses an order in status %s, unchanged', async (status) => {
      const { item } = await product(5);
      const code = await placeOrder({
        status,
        positions: [{ item }],
        payments: status === 'p' ? [{ state: 'confirmed', amount: '10.00' }] : [],
      });
      const before = await snapshot(code);
      const res = await act(code, 'mark_paid');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(detail('The order is not pending or expired.'));
      expect(await snapshot(code)).toEqual(before);
      expect(await logOf(code)).toEqual([]);
      expect(await mailsTo(code)).toEqual([]);
    });

    it('refuses a send_email that is not a boolean', async () => {
      const { item } = await product(5);
      const code = await placeOrder({ positions: [{ item }] });
      const res = await act(code, 'mark_paid', { send_email: 'yes' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ send_email: ['Must be a valid boolean.'] });
      const nulled = await act(code, 'mark_paid', { send_email: null });
      expect(nulled.body).toEqual({ send_email: ['This field may not be null.'] });
      expect((await orderRow(code)).status).toBe('n');
    });

    it('an expired order takes its places again; refused while the quota is sold out, paid once it grows', async () => {
      const { item, quota, quotaName } = await product(2);
      const code = await placeOrder({ status: 'e', positions: [{ item }, { item }] });
      expect(await availability(quota)).toMatchObject({ pending_orders: 0, available_number: 2 });
      // Meanwhile one place is sold to someone else.
      await placeOrder({
        status: 'p',
        positions: [{ item }],
        payments: [{ state: 'confirmed', amount: '10.00' }],
      });
      expect(await availability(quota)).toMatchObject({ paid_orders: 1, available_number: 1 });

      const before = await snapshot(code);
      const refused = await act(code, 'mark_paid');
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(quotaMessage(quotaName));
      expect(await snapshot(code)).toEqual(before);
      expect(await logOf(code)).toEqual([]);
      expect(await mailsTo(code)).toEqual([]);

      expect((await patch(`${E}/quotas/${quota}/`, { size: 3 })).status).toBe(200);
      const res = await act(code, 'mark_paid');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('p');
      expect(res.body.payments).toMatchObject([{ state: 'confirmed', amount: '20.00', provider: 'manual' }]);
      expect(await availability(quota)).toMatchObject({
        paid_orders: 3,
        available_number: 0,
        available: false,
      });
    });

    it('an expired order on an unlimited quota needs no free place', async () => {
      const { item, quota } = await product(null);
      const code = await placeOrder({ status: 'e', positions: [{ item }] });
      const res = await act(code, 'mark_paid', { send_email: false });
      expect(res.status).toBe(200);
      expect(await availability(quota)).toMatchObject({ paid_orders: 1, available_number: null });
    });

    it('closes a close_when_sold_out quota that reviving an expired order sells out', async () => {
      const { item, quota } = await product(1, E, { close_when_sold_out: true });
      const code = await placeOrder({ status: 'e', positions: [{ item }] });
      expect((await act(code, 'mark_paid', { send_email: false })).status).toBe(200);
      expect((await get(`${E}/quotas/${quota}/`)).body.closed).toBe(true);
    });

    it('an expired order whose product lost its quota is refused', async () => {
      const item = await post(`${E}/items/`, { name: 'Quota-less', default_price: '3.00' });
      const code = await placeOrder({ status: 'e', positions: [{ item: item.body.id as number }] });
      const res = await act(code, 'mark_paid');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(detail('The product "Quota-less" is not assigned to a quota.'));
      expect((await orderRow(code)).status).toBe('e');
    });

    it('two expired orders revived at once on the last place: exactly one succeeds', async () => {
      const { item, quota, quotaName } = await product(1);
      const a = await placeOrder({ status: 'e', positions: [{ item }] });
      const b = await placeOrder({ status: 'e', positions: [{ item }] });
      const results = await Promise.all([act(a, 'mark_paid'), act(b, 'mark_paid')]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      expect(results.find((r) => r.status === 400)!.body).toEqual(quotaMessage(quotaName));
      expect(await availability(quota)).toMatchObject({ paid_orders: 1, available_number: 0 });
    });
    // Lock waits of actions: test/order-and-voucher-locks.e2e-spec.ts (an app configured with short waits).
  });

  // ------------------------------------------------------------------------------------------------------------
  // mark_pending
  // ------------------------------------------------------------------------------------------------------------

  describe('mark_pending', () => {
    it('marks a paid order pending and cancels its confirmed payments', async () => {
      const { item, quota } = await product(5);
      const code = await placeOrder({
        status: 'p',
        positions: [{ item }],
        payments: [{ state: 'confirmed', amount: '10.00' }],
      });
      expect(await availability(quota)).toMatchObject({ paid_orders: 1, pending_orders: 0 });
      const res = await act(code, 'mark_pending');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        code,
        status: 'n',
        payment_date: null,
        payment_provider: null,
        payments: [{ local_id: 1, state: 'canceled', amount: '10.00' }],
      });
      expect(await availability(quota)).toMatchObject({
        paid_orders: 0,
        pending_orders: 1,
        available_number: 4,
      });
      expect(await logOf(code)).toEqual([{ action: 'pretix.event.order.unpaid', data: {} }]);
      // Paying again takes the whole total again.
      const again = await act(code, 'mark_paid', { send_email: false });
      expect(again.body.payments).toMatchObject([
        { local_id: 1, state: 'canceled' },
        { local_id: 2, state: 'confirmed', amount: '10.00' },
      ]);
    });

    it.each(['n', 'e', 'c'] as const)('refuses an order in status %s', async (status) => {
      const { item } = await product(5);
      const code = await placeOrder({ status, positions: [{ item }] });
      const before = await snapshot(code);
      const res = await act(code, 'mark_pending');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(detail('The order is not paid.'));
      expect(await snapshot(code)).toEqual(before);
    });
  });

  // ------------------------------------------------------------------------------------------------------------
  // mark_expired
  // ------------------------------------------------------------------------------------------------------------

  describe('mark_expired', () => {
    it('expires a pending order: its places are free again, its voucher stays redeemed', async () => {
      const { item, quota } = await product(3);
      const v = await voucher({ item, max_usages: 2 });
      const code = await placeOrder({ positions: [{ item, voucher: v }, { item }] });
      expect(await availability(quota)).toMatchObject({ pending_orders: 2, available_number: 1 });
      expect((await voucherState(v)).redeemed).toBe(1);
      const res = await act(code, 'mark_expired');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code, status: 'e' });
      expect(res.body.positions.map((p: { canceled: boolean }) => p.canceled)).toEqual([false, false]);
      expect(await availability(quota)).toMatchObject({ pending_orders: 0, available_number: 3 });
      expect((await voucherState(v)).redeemed).toBe(1);
      expect(await logOf(code)).toEqual([{ action: 'pretix.event.order.expired', data: {} }]);
    });

    it.each(['p', 'e', 'c'] as const)('refuses an order in status %s', async (status) => {
      const { item } = await product(5);
      const code = await placeOrder({ status, positions: [{ item }] });
      const before = await snapshot(code);
      const res = await act(code, 'mark_expired');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(detail('The order is not pending.'));
      expect(await snapshot(code)).toEqual(before);
    });
  });

  // ------------------------------------------------------------------------------------------------------------
  // mark_canceled
  // ------------------------------------------------------------------------------------------------------------

  describe('mark_canceled', () => {
    it('cancels a pending order: positions and fees canceled, voucher given back, places freed, mail', async () => {
      const { item, quota } = await product(4);
      const v = await voucher({ item, max_usages: 3, budget: '20.00' });
      const code = await placeOrder({
        positions: [
          { item, voucher: v, budgetUse: '2.00' },
          { item, voucher: v, budgetUse: '1.50' },
          { item },
        ],
        fees: [{ type: 'service', value: '1.00' }],
        payments: [{ state: 'created', amount: '31.00' }],
      });
      expect(await voucherState(v)).toEqual({ redeemed: 2, budget_used: '3.50' });
      expect(await availability(quota)).toMatchObject({ pending_orders: 3, available_number: 1 });
      const res = await act(code, 'mark_canceled', { comment: 'Event moved.' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code, status: 'c', total: '31.00' });
      expect(Date.parse(res.body.cancellation_date as string)).toBeGreaterThan(Date.now() - 60_000);
      expect(res.body.positions.map((p: { canceled: boolean }) => p.canceled)).toEqual([true, true, true]);
      expect(res.body.fees).toMatchObject([{ fee_type: 'service', value: '1.00', canceled: true }]);
      expect(res.body.payments).toMatchObject([{ state: 'canceled', amount: '31.00' }]);
      expect(await voucherState(v)).toEqual({ redeemed: 0, budget_used: '0.00' });
      expect(await availability(quota)).toMatchObject({ pending_orders: 0, available_number: 4 });
      expect(await logOf(code)).toEqual([
        { action: 'pretix.event.order.payment.canceled', data: { local_id: 1, provider: 'banktransfer' } },
        { action: 'pretix.event.order.canceled', data: { cancellation_fee: null, comment: 'Event moved.' } },
      ]);
      const mails = await mailsTo(code);
      expect(mails.map((m) => m.subject)).toEqual([`Order canceled: ${code}`]);
      expect(mails[0].body).toContain('Event moved.');
    });

    it('cancels a paid and an expired order completely without a fee (zero counts as none)', async () => {
      const { item, quota } = await product(5);
      const paid = await placeOrder({
        status: 'p',
        positions: [{ item }],
        payments: [{ state: 'confirmed', amount: '10.00' }],
      });
      const expired = await placeOrder({ status: 'e', positions: [{ item }] });
      const a = await act(paid, 'mark_canceled', { cancellation_fee: '0.00', send_email: false });
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ status: 'c', total: '10.00', payments: [{ state: 'confirmed' }] });
      const b = await act(expired, 'mark_canceled', { cancellation_fee: null, send_email: false });
      expect(b.status).toBe(200);
      expect(b.body.status).toBe('c');
      expect(await availability(quota)).toMatchObject({
        paid_orders: 0,
        pending_orders: 0,
        available_number: 5,
      });
      expect(await mailsTo(paid)).toEqual([]);
      expect((await logOf(paid)).at(-1)).toEqual({
        action: 'pretix.event.order.canceled',
        data: { cancellation_fee: null, comment: null },
      });
    });

    it('with a fee on a paid order: stays paid with the fee as its only component', async () => {
      const { item, quota } = await product(5);
      const v = await voucher({ item, max_usages: 1 });
      const code = await placeOrder({
        status: 'p',
        positions: [
          { item, price: '20.00', voucher: v },
          { item, price: '20.00' },
        ],
        fees: [{ type: 'payment', value: '2.00' }],
        payments: [{ state: 'confirmed', amount: '42.00' }],
      });
      const res = await act(code, 'mark_canceled', { cancellation_fee: ' 5 ', send_email: false });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code, status: 'p', total: '5.00' });
      expect(res.body.cancellation_date).toEqual(expect.any(String));
      expect(res.body.positions.map((p: { canceled: boolean }) => p.canceled)).toEqual([true, true]);
      expect(res.body.fees).toMatchObject([
        { fee_type: 'payment', value: '2.00', canceled: true },
        { fee_type: 'cancellation', value: '5.00', canceled: false, tax_rate: '0.00', tax_value: '0.00' },
      ]);
      expect(res.body.payments).toMatchObject([{ state: 'confirmed', amount: '42.00' }]);
      expect((await voucherState(v)).redeemed).toBe(0);
      expect(await availability(quota)).toMatchObject({ paid_orders: 0, available_number: 5 });
      expect((await logOf(code)).at(-1)).toEqual({
        action: 'pretix.event.order.canceled',
        data: { cancellation_fee: '5.00', comment: null },
      });

      // Nothing left to cancel, and it is not canceled: both further steps are refused.
      const again = await act(code, 'mark_canceled');
      expect(again.status).toBe(400);
      expect(again.body).toEqual(detail('The order is not allowed to be canceled.'));
      const reactivate = await act(code, 'reactivate');
      expect(reactivate.status).toBe(400);
      expect(reactivate.body).toEqual(detail('The order is not canceled.'));
    });

    it('taxes the cancellation fee with the default tax rule of the event', async () => {
      const slug = 'taxed';
      await createEvent(t, token, 'org', { slug });
      const base = `${BASE}/${slug}`;
      const rule = await post(`${base}/taxrules/`, { name: { en: 'VAT' }, rate: '19.00' });
      expect(rule.status).toBe(201);
      const { item } = await product(5, base);
      const code = await placeOrder({
        event: slug,
        status: 'p',
        positions: [{ item, price: '20.00' }],
        payments: [{ state: 'confirmed', amount: '20.00' }],
      });
      const res = await act(
        code,
        'mark_canceled',
        { cancellation_fee: 5.95, send_email: false },
        token,
        base,
      );
      expect(res.status).toBe(200);
      expect(res.body.fees).toEqual([
        {
          id: expect.any(Number),
          fee_type: 'cancellation',
          value: '5.95',
          description: '',
          internal_type: '',
          tax_code: null,
          tax_rate: '19.00',
          tax_value: '0.95',
          tax_rule: rule.body.id,
          canceled: false,
        },
      ]);
    });

    it('refuses a fee above the payment credit (also on an unpaid order) and above the total', async () => {
      const { item } = await product(5);
      const partly = await placeOrder({
        status: 'n',
        positions: [{ item, price: '20.00' }],
        payments: [{ state: 'confirmed', amount: '4.00' }],
      });
      const before = await snapshot(partly);
      const res = await act(partly, 'mark_canceled', { cancellation_fee: '4.01' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        detail('The cancellation fee cannot be higher than the payment credit of this order.'),
      );
      expect(await snapshot(partly)).toEqual(before);

      const overpaid = await placeOrder({
        status: 'p',
        positions: [{ item, price: '10.00' }],
        payments: [{ state: 'confirmed', amount: '15.00' }],
      });
      const above = await act(overpaid, 'mark_canceled', { cancellation_fee: '12.00' });
      expect(above.status).toBe(400);
      expect(above.body).toEqual(
        detail('The cancellation fee cannot be higher than the total amount of this order.'),
      );
      expect((await orderRow(overpaid)).status).toBe('p');

      // A partly paid pending order keeping no more than its credit becomes paid.
      const ok = await act(partly, 'mark_canceled', { cancellation_fee: '4.00', send_email: false });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ status: 'p', total: '4.00' });
    });

    it.each([
      ['not a number', { cancellation_fee: 'abc' }, { cancellation_fee: ['A valid number is required.'] }],
      [
        'negative',
        { cancellation_fee: '-1.00' },
        { cancellation_fee: ['Ensure this value is greater than or equal to 0.'] },
      ],
      [
        'three decimals',
        { cancellation_fee: '1.005' },
        { cancellation_fee: ['Ensure that there are no more than 2 decimal places.'] },
      ],
      ['a non-string comment', { comment: 5 }, { comment: ['Not a valid string.'] }],
      ['a non-boolean send_email', { send_email: 1 }, { send_email: ['Must be a valid boolean.'] }],
    ])('refuses %s', async (_label, body, expected) => {
      const { item } = await product(5);
      const code = await placeOrder({ positions: [{ item }] });
      const res = await act(code, 'mark_canceled', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expected);
      expect((await orderRow(code)).status).toBe('n');
    });

    it('refuses a canceled order', async () => {
      const { item } = await product(5);
      const code = await placeOrder({ status: 'c', positions: [{ item }] });
      const before = await snapshot(code);
      const res = await act(code, 'mark_canceled');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(detail('The order is not allowed to be canceled.'));
      expect(await snapshot(code)).toEqual(before);
    });
  });

  // ------------------------------------------------------------------------------------------------------------
  // reactivate
  // ------------------------------------------------------------------------------------------------------------

  describe('reactivate', () => {
    it('canceled → pending: positions back, voucher redeemed again, places taken again', async () => {
      const { item, quota } = await product(3);
      const v = await voucher({ item, max_usages: 2, budget: '10.00' });
      const code = await placeOrder({ positions: [{ item, voucher: v, budgetUse: '2.50' }, { item }] });
      expect((await act(code, 'mark_canceled', { send_email: false })).status).toBe(200);
      expect(await voucherState(v)).toEqual({ redeemed: 0, budget_used: '0.00' });
      expect(await availability(quota)).toMatchObject({ pending_orders: 0, available_number: 3 });

      const res = await act(code, 'reactivate');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code, status: 'n', cancellation_date: null });
      expect(res.body.positions.map((p: { canceled: boolean }) => p.canceled)).toEqual([false, false]);
      expect(await voucherState(v)).toEqual({ redeemed: 1, budget_used: '2.50' });
      expect(await availability(quota)).toMatchObject({ pending_orders: 2, available_number: 1 });
      expect((await logOf(code)).at(-1)).toEqual({
        action: 'pretix.event.order.reactivated',
        data: { expires: '2031-01-10T10:00:00Z' },
      });
    });

    it('a paid order canceled without refund comes back paid (pretix), its fees uncanceled', async () => {
      const { item, quota } = await product(3);
      const code = await placeOrder({
        status: 'p',
        positions: [{ item }],
        fees: [{ type: 'service', value: '1.00' }],
        payments: [{ state: 'confirmed', amount: '11.00' }],
      });
      expect((await act(code, 'mark_canceled', { send_email: false })).status).toBe(200);
      const res = await act(code, 'reactivate');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'p', fees: [{ fee_type: 'service', canceled: false }] });
      expect(await availability(quota)).toMatchObject({ paid_orders: 1, available_number: 2 });
    });

    it('is refused while the quota is full, unchanged; succeeds after the quota grows', async () => {
      const { item, quota, quotaName } = await product(1);
      const v = await voucher({ item, max_usages: 5 });
      const code = await placeOrder({ status: 'c', positions: [{ item, voucher: v }] });
      await placeOrder({ positions: [{ item }] });
      expect(await availability(quota)).toMatchObject({ pending_orders: 1, available_number: 0 });
      const before = await snapshot(code);
      const res = await act(code, 'reactivate');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(quotaMessage(quotaName));
      expect(await snapshot(code)).toEqual(before);
      // The voucher redemption taken before the quota check was rolled back with it.
      expect((await voucherState(v)).redeemed).toBe(0);
      expect(await logOf(code)).toEqual([]);

      expect((await patch(`${E}/quotas/${quota}/`, { size: 2 })).status).toBe(200);
      const ok = await act(code, 'reactivate');
      expect(ok.status).toBe(200);
      expect(ok.body.status).toBe('n');
      expect((await voucherState(v)).redeemed).toBe(1);
      expect(await availability(quota)).toMatchObject({ pending_orders: 2, available_number: 0 });
    });

    it('takes back the place its blocking voucher held', async () => {
      const { item, quota } = await product(2);
      const v = await voucher({ item, max_usages: 1, block_quota: true });
      const code = await placeOrder({ positions: [{ item, voucher: v }] });
      await placeOrder({ positions: [{ item }] });
      expect(await availability(quota)).toMatchObject({
        pending_orders: 2,
        blocking_vouchers: 0,
        available_number: 0,
      });
      expect((await act(code, 'mark_canceled', { send_email: false })).status).toBe(200);
      // Canceling gave the redemption back: the voucher blocks the freed place again.
      expect(await availability(quota)).toMatchObject({
        pending_orders: 1,
        blocking_vouchers: 1,
        available_number: 0,
      });
      const res = await act(code, 'reactivate');
      expect(res.status).toBe(200);
      expect(await availability(quota)).toMatchObject({
        pending_orders: 2,
        blocking_vouchers: 0,
        available_number: 0,
      });
    });

    it('is refused when the voucher was used up meanwhile (redemptions or live carts)', async () => {
      const { item } = await product(10);
      const v = await voucher({ item, max_usages: 1 });
      const code = await placeOrder({ positions: [{ item, voucher: v }] });
      expect((await act(code, 'mark_canceled', { send_email: false })).status).toBe(200);
      const thief = await placeOrder({ positions: [{ item, voucher: v }] });
      const before = await snapshot(code);
      const res = await act(code, 'reactivate');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(detail('The voucher has already been used the maximum number of times.'));
      expect(await snapshot(code)).toEqual(before);
      expect((await voucherState(v)).redeemed).toBe(1);

      // The other order lets go of it, but a live cart holds it now.
      expect((await act(thief, 'mark_canceled', { send_email: false })).status).toBe(200);
      const ev = await eventIds('sample');
      await t.db.query(
        `INSERT INTO cart_position (event_id, cart_id, item_id, price, voucher_id, expires)
         VALUES ($1, 'held@api', $2, '10.00', $3, now() + interval '10 minutes')`,
        [ev.id, item, v],
      );
      const held = await act(code, 'reactivate');
      expect(held.status).toBe(400);
      expect(held.body).toEqual(detail('The voucher has already been used the maximum number of times.'));
      await t.db.query("DELETE FROM cart_position WHERE cart_id = 'held@api'");
      expect((await act(code, 'reactivate')).status).toBe(200);
      expect((await voucherState(v)).redeemed).toBe(1);
    });

    it('is refused when the voucher budget was spent meanwhile', async () => {
      const { item } = await product(10);
      const v = await voucher({ item, max_usages: 10, budget: '5.00' });
      const code = await placeOrder({ positions: [{ item, voucher: v, budgetUse: '3.00' }] });
      expect((await act(code, 'mark_canceled', { send_email: false })).status).toBe(200);
      await placeOrder({ positions: [{ item, voucher: v, budgetUse: '3.00' }] });
      const res = await act(code, 'reactivate');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(detail('The voucher budget has already been used up.'));
    });

    it.each(['n', 'p', 'e'] as const)('refuses an order in status %s', async (status) => {
      const { item } = await product(5);
      const code = await placeOrder({ status, positions: [{ item }] });
      const before = await snapshot(code);
      const res = await act(code, 'reactivate');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(detail('The order is not canceled.'));
      expect(await snapshot(code)).toEqual(before);
    });
  });

  // ------------------------------------------------------------------------------------------------------------
  // extend
  // ------------------------------------------------------------------------------------------------------------

  describe('extend', () => {
    it('sets the deadline of a pending order to the end of the day in the event time zone', async () => {
      const { item, quota } = await product(5);
      const code = await placeOrder({ positions: [{ item }] });
      const res = await act(code, 'extend', { expires: '2031-07-15' });
      expect(res.status).toBe(200);
      // Europe/Berlin is UTC+2 in July.
      expect(res.body).toMatchObject({ code, status: 'n', expires: '2031-07-15T21:59:59Z' });
      expect(await logOf(code)).toEqual([
        {
          action: 'pretix.event.order.expirychanged',
          data: { expires: '2031-07-15T21:59:59Z', state_change: false },
        },
      ]);
      expect(await availability(quota)).toMatchObject({ pending_orders: 1 });
      // The same date again changes nothing.
      const lastModified = (await orderRow(code)).last_modified;
      const same = await act(code, 'extend', { expires: '2031-07-15' });
      expect(same.status).toBe(200);
      expect((await orderRow(code)).last_modified).toEqual(lastModified);
      expect(await logOf(code)).toHaveLength(1);
      // Winter time: UTC+1.
      const winter = await act(code, 'extend', { expires: '2031-12-01' });
      expect(winter.body.expires).toBe('2031-12-01T22:59:59Z');
    });

    it('revives an expired order when its places are free; refused when sold out unless forced', async () => {
      const { item, quota, quotaName } = await product(1);
      const code = await placeOrder({ status: 'e', positions: [{ item }] });
      const other = await placeOrder({ status: 'e', positions: [{ item }] });
      const res = await act(code, 'extend', { expires: '2031-07-15' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'n', expires: '2031-07-15T21:59:59Z' });
      expect((await logOf(code)).at(-1)!.data).toEqual({
        expires: '2031-07-15T21:59:59Z',
        state_change: true,
      });
      expect(await availability(quota)).toMatchObject({ pending_orders: 1, available_number: 0 });

      const before = await snapshot(other);
      const refused = await act(other, 'extend', { expires: '2031-07-15', force: false });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(quotaMessage(quotaName));
      expect(await snapshot(other)).toEqual(before);

      const forced = await act(other, 'extend', { expires: '2031-07-15', force: true });
      expect(forced.status).toBe(200);
      expect(forced.body.status).toBe('n');
      expect(await availability(quota)).toMatchObject({
        pending_orders: 2,
        available_number: 0,
        available: false,
      });
    });

    it.each([
      ['no date', {}, 'New date is missing.'],
      ['a null date', { expires: null }, 'New date is missing.'],
      ['an empty date', { expires: '' }, 'New date is missing.'],
      ['a malformed date', { expires: '15.07.2031' }, 'New date is invalid.'],
      ['an impossible date', { expires: '2031-02-30' }, 'New date is invalid.'],
      ['a datetime', { expires: '2031-07-15T10:00:00Z' }, 'New date is invalid.'],
      ['a number', { expires: 20310715 }, 'New date is invalid.'],
      ['a past date', { expires: '2020-01-01' }, 'The new expiry date needs to be in the future.'],
    ])('refuses %s', async (_label, body, message) => {
      const { item } = await product(5);
      const code = await placeOrder({ positions: [{ item }] });
      const before = await snapshot(code);
      const res = await act(code, 'extend', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(detail(message));
      expect(await snapshot(code)).toEqual(before);
    });

    it('refuses a force that is not a boolean', async () => {
      const { item } = await product(5);
      const code = await placeOrder({ positions: [{ item }] });
      const res = await act(code, 'extend', { expires: '2031-07-15', force: 'yes' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ force: ['Must be a valid boolean.'] });
    });

    it.each(['p', 'c'] as const)('refuses an order in status %s', async (status) => {
      const { item } = await product(5);
      const code = await placeOrder({ status, positions: [{ item }] });
      const before = await snapshot(code);
      const res = await act(code, 'extend', { expires: '2031-07-15' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(detail('The order is not pending or expired.'));
      expect(await snapshot(code)).toEqual(before);
    });
  });

  // ------------------------------------------------------------------------------------------------------------
  // approve / deny
  // ------------------------------------------------------------------------------------------------------------

  describe('approve', () => {
    it('approves an order pending approval; its places were counted all along', async () => {
      const { item, quota } = await product(2);
      const code = await placeOrder({ requireApproval: true, positions: [{ item }] });
      expect(await availability(quota)).toMatchObject({ pending_orders: 1, available_number: 1 });
      const res = await act(code, 'approve');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code, status: 'n', require_approval: false, payments: [] });
      expect(await availability(quota)).toMatchObject({ pending_orders: 1, available_number: 1 });
      expect(await logOf(code)).toEqual([{ action: 'pretix.event.order.approved', data: {} }]);
      expect((await mailsTo(code)).map((m) => m.subject)).toEqual([`Order approved: ${code}`]);
    });

    it('a free order becomes paid by a free payment', async () => {
      const { item, quota } = await product(2);
      const code = await placeOrder({ requireApproval: true, positions: [{ item, price: '0.00' }] });
      const res = await act(code, 'approve', { send_email: false });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'p',
        require_approval: false,
        payments: [{ local_id: 1, state: 'confirmed', amount: '0.00', provider: 'free' }],
      });
      expect((await logOf(code)).map((l) => l.action)).toEqual([
        'pretix.event.order.approved',
        'pretix.event.order.payment.confirmed',
        'pretix.event.order.paid',
      ]);
      expect(await mailsTo(code)).toEqual([]);
      expect(await availability(quota)).toMatchObject({ paid_orders: 1 });
    });

    it.each([
      ['a pending order not requiring approval', 'n', false],
      ['a paid order', 'p', true],
      ['a canceled order', 'c', true],
    ] as const)('refuses %s', async (_label, status, requireApproval) => {
      const { item } = await product(5);
      const code = await placeOrder({ status, requireApproval, positions: [{ item }] });
      const before = await snapshot(code);
      const res = await act(code, 'approve');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(detail('This order is not pending approval.'));
      expect(await snapshot(code)).toEqual(before);
    });
  });

  describe('deny', () => {
    it('denies an order pending approval: canceled, places and voucher freed, mail with the comment', async () => {
      const { item, quota } = await product(2);
      const v = await voucher({ item, max_usages: 1 });
      const code = await placeOrder({ requireApproval: true, positions: [{ item, voucher: v }] });
      expect((await voucherState(v)).redeemed).toBe(1);
      const res = await act(code, 'deny', { comment: 'Sold out for members.' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code, status: 'c', require_approval: true });
      expect(res.body.positions.map((p: { canceled: boolean }) => p.canceled)).toEqual([true]);
      expect((await voucherState(v)).redeemed).toBe(0);
      expect(await availability(quota)).toMatchObject({ pending_orders: 0, available_number: 2 });
      expect(await logOf(code)).toEqual([
        { action: 'pretix.event.order.denied', data: { comment: 'Sold out for members.' } },
      ]);
      const mails = await mailsTo(code);
      expect(mails.map((m) => m.subject)).toEqual([`Order denied: ${code}`]);
      expect(mails[0].body).toContain('Sold out for members.');

      // Reactivating a denied order brings it back to pending approval.
      const back = await act(code, 'reactivate');
      expect(back.status).toBe(200);
      expect(back.body).toMatchObject({ status: 'n', require_approval: true });
      expect((await voucherState(v)).redeemed).toBe(1);
    });

    it('sends no mail with send_email false', async () => {
      const { item } = await product(2);
      const code = await placeOrder({ requireApproval: true, positions: [{ item }] });
      const res = await act(code, 'deny', { send_email: false });
      expect(res.status).toBe(200);
      expect(await mailsTo(code)).toEqual([]);
      expect(await logOf(code)).toEqual([{ action: 'pretix.event.order.denied', data: { comment: null } }]);
    });

    it.each([
      ['a pending order not requiring approval', 'n', false],
      ['a paid order', 'p', false],
      ['an expired order requiring approval', 'e', true],
    ] as const)('refuses %s', async (_label, status, requireApproval) => {
      const { item } = await product(5);
      const code = await placeOrder({ status, requireApproval, positions: [{ item }] });
      const before = await snapshot(code);
      const res = await act(code, 'deny');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(detail('This order is not pending approval.'));
      expect(await snapshot(code)).toEqual(before);
    });
  });

  // ------------------------------------------------------------------------------------------------------------
  // A whole life
  // ------------------------------------------------------------------------------------------------------------

  it('every transition moves last_modified and keeps the quota engine in step', async () => {
    const { item, quota } = await product(3);
    const code = await placeOrder({ positions: [{ item }, { item }] });
    const steps: [Action, object, string, Record<string, number>][] = [
      ['mark_expired', {}, 'e', { pending_orders: 0, paid_orders: 0, available_number: 3 }],
      ['extend', { expires: '2031-03-01' }, 'n', { pending_orders: 2, paid_orders: 0, available_number: 1 }],
      ['mark_paid', { send_email: false }, 'p', { pending_orders: 0, paid_orders: 2, available_number: 1 }],
      ['mark_pending', {}, 'n', { pending_orders: 2, paid_orders: 0, available_number: 1 }],
      [
        'mark_canceled',
        { send_email: false },
        'c',
        { pending_orders: 0, paid_orders: 0, available_number: 3 },
      ],
      ['reactivate', {}, 'n', { pending_orders: 2, paid_orders: 0, available_number: 1 }],
    ];
    let last = (await orderRow(code)).last_modified.getTime();
    for (const [action, body, status, counts] of steps) {
      const res = await act(code, action, body);
      expect({ action, status: res.status, order: res.body.status }).toEqual({
        action,
        status: 200,
        order: status,
      });
      const now = (await orderRow(code)).last_modified.getTime();
      expect({ action, moved: now > last }).toEqual({ action, moved: true });
      expect(Date.parse(res.body.last_modified as string)).toBe(now);
      last = now;
      expect(await availability(quota)).toMatchObject(counts);
    }
    expect((await logOf(code)).map((l) => l.action)).toEqual([
      'pretix.event.order.expired',
      'pretix.event.order.expirychanged',
      'pretix.event.order.payment.confirmed',
      'pretix.event.order.paid',
      'pretix.event.order.unpaid',
      'pretix.event.order.canceled',
      'pretix.event.order.reactivated',
    ]);
  });
});
