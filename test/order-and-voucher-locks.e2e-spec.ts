import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Bounded lock waits of voucher writes and order actions (spec "Errors": 409 with `Retry-After`; architecture.md
 * "Concurrency"), on an app configured through the typed configuration with short waits
 * (`VOUCHER_LOCK_TIMEOUT_MS=200`, `ORDER_LOCK_TIMEOUT_MS=300`). The defaults are checked in vouchers.e2e-spec.ts.
 */
describe('lock waits of voucher writes and order actions', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const BUSY = { detail: 'The server was too busy to process your request. Please try again.' };

  const send = (method: 'get' | 'post' | 'patch' | 'put' | 'delete', path: string, body: unknown = {}) =>
    t
      .http()
      [method](path)
      .set('Authorization', auth(token))
      .send(body as object);

  async function created(path: string, body: object): Promise<{ id: number } & Record<string, unknown>> {
    const res = await send('post', `${E}/${path}`, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: number } & Record<string, unknown>;
  }

  /** An item on its own quota of `size` places. */
  async function product(size: number): Promise<{ item: number; quota: number }> {
    const item = await created('items/', { name: 'Ticket', default_price: '10.00' });
    const quota = await created('quotas/', { name: 'Q', size, items: [item.id] });
    return { item: item.id, quota: quota.id };
  }

  /** Runs `work` while another transaction holds `FOR UPDATE` on one row of `table`. */
  async function whileLocked(
    table: 'quota' | 'voucher',
    id: number,
    work: () => Promise<void>,
  ): Promise<void> {
    const runner = t.db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query(`SELECT id FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
      await work();
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  const voucherCount = async (): Promise<number> => {
    const rows: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM voucher');
    return Number(rows[0].n);
  };

  beforeAll(async () => {
    t = await startTestApp({ voucherLockTimeoutMs: 200, orderLockTimeoutMs: 300 });
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
  });
  afterAll(() => t.close());

  it('sets the configured waits at the start of each voucher write and order action', async () => {
    const { item } = await product(5);
    const order = await created('orders/', { positions: [{ item }] });
    const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
    try {
      expect((await send('post', `${E}/vouchers/`, {})).status).toBe(201);
      expect(
        (await send('post', `${E}/orders/${String(order.code)}/extend/`, { expires: '2099-01-01' })).status,
      ).toBe(200);
      const statements = spy.mock.calls.map((c) => String(c[0]));
      const timeouts = statements.filter((s, i) => i > 0 && /^START TRANSACTION/i.test(statements[i - 1]));
      expect(timeouts).toEqual(["SET LOCAL lock_timeout = '200ms'", "SET LOCAL lock_timeout = '300ms'"]);
    } finally {
      spy.mockRestore();
    }
  });

  it('answers 409 with Retry-After to a blocking voucher while its quota stays locked, creating nothing', async () => {
    const { item, quota } = await product(10);
    await whileLocked('quota', quota, async () => {
      const before = await voucherCount();
      const started = Date.now();
      const res = await send('post', `${E}/vouchers/`, { item, block_quota: true });
      expect(res.status).toBe(409);
      expect(res.body).toEqual(BUSY);
      expect(res.headers['retry-after']).toBe('5');
      expect(Date.now() - started).toBeLessThan(2500);
      const batch = await send('post', `${E}/vouchers/batch_create/`, [{ quota, block_quota: true }]);
      expect(batch.status).toBe(409);
      expect(batch.body).toEqual(BUSY);
      expect(await voucherCount()).toBe(before);
      // Vouchers that do not block quota do not wait for it.
      expect((await send('post', `${E}/vouchers/`, { item })).status).toBe(201);
    });
    expect((await send('post', `${E}/vouchers/`, { item, block_quota: true })).status).toBe(201);
  });

  it('answers 409 to PATCH, PUT and DELETE of a voucher while its row is locked', async () => {
    const voucher = await created('vouchers/', { comment: 'locked' });
    const url = `${E}/vouchers/${voucher.id}/`;
    await whileLocked('voucher', voucher.id, async () => {
      for (const res of [
        await send('patch', url, { comment: 'x' }),
        await send('put', url),
        await send('delete', url),
      ]) {
        expect(res.status).toBe(409);
        expect(res.body).toEqual(BUSY);
        expect(res.headers['retry-after']).toBe('5');
      }
    });
    expect((await send('get', url)).body).toEqual(voucher);
  });

  it('order actions lock only the quotas involved: a lock on another quota does not block, one on its own gives 409', async () => {
    const a = await product(5);
    const b = await product(5);
    const codes: string[] = [];
    for (const p of [a, b]) {
      const order = await created('orders/', { positions: [{ item: p.item }] });
      const code = String(order.code);
      expect((await send('post', `${E}/orders/${code}/mark_expired/`)).status).toBe(200);
      codes.push(code);
    }
    const [onA, onB] = codes;
    const markPaid = (code: string) => send('post', `${E}/orders/${code}/mark_paid/`, { send_email: false });
    await whileLocked('quota', b.quota, async () => {
      expect((await markPaid(onA)).status).toBe(200);
      const busy = await markPaid(onB);
      expect(busy.status).toBe(409);
      expect(busy.body).toEqual(BUSY);
      expect(busy.headers['retry-after']).toBe('5');
    });
    const after = await send('get', `${E}/orders/${onB}/`);
    expect(after.body.status).toBe('e');
    const log: { action_type: string }[] = await t.db.query(
      `SELECT action_type FROM log_entry WHERE content_type = 'order' AND object_id = $1 ORDER BY id`,
      [await orderId(onB)],
    );
    expect(log.map((r) => r.action_type)).toEqual([
      'pretix.event.order.placed',
      'pretix.event.order.expired',
    ]);
    expect((await markPaid(onB)).status).toBe(200);
  });

  async function orderId(code: string): Promise<number> {
    const rows: { id: number }[] = await t.db.query('SELECT id FROM orders WHERE code = $1', [code]);
    return rows[0].id;
  }
});
