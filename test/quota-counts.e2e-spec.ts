import { AppConfig } from '../src/config/app-config';
import { runCli } from './cli-harness';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

/**
 * Maintained quota counts (architecture.md "Concurrency"): every path that moves a position's
 * paid, pending or exited state moves `product_sales` in the same transaction, checked after each step against
 * counts recomputed from the rows by this test's own SQL; parallel writers on shared products neither deadlock nor
 * lose a count; `check-quotas` (CLI) and the worker's periodic check report and repair drift.
 */
describe('maintained quota counts', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const post = (path: string, body: object = {}) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  let ticket: number;
  let shirt: number;
  let small: number;
  let large: number;
  let quota: number;

  /** Stored counts and counts from the rows, per product, in the same order. */
  async function countsAndRows(): Promise<{ stored: unknown[]; rows: unknown[] }> {
    const stored = await t.db.query(
      `SELECT item_id, variation_id, subevent_id, paid, pending, exited FROM product_sales
        WHERE paid <> 0 OR pending <> 0 OR exited <> 0
        ORDER BY item_id, variation_id NULLS FIRST, subevent_id NULLS FIRST`,
    );
    const rows = await t.db.query(
      `SELECT p.item_id, p.variation_id, p.subevent_id,
              COUNT(*) FILTER (WHERE o.status = 'p')::int AS paid,
              COUNT(*) FILTER (WHERE o.status = 'n')::int AS pending,
              COUNT(*) FILTER (WHERE o.status = 'p' AND (
                SELECT c.type FROM checkin c WHERE c.position_id = p.id AND c.successful
                 ORDER BY c.datetime DESC, c.id DESC LIMIT 1) = 'exit')::int AS exited
         FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE NOT p.canceled AND o.status IN ('n', 'p')
        GROUP BY 1, 2, 3 ORDER BY item_id, variation_id NULLS FIRST, subevent_id NULLS FIRST`,
    );
    return { stored, rows };
  }

  /** The stored counts equal the rows', and the quota's availability adds them up. */
  async function expectConsistent(): Promise<void> {
    const { stored, rows } = await countsAndRows();
    expect(stored).toEqual(rows);
    const sum = (key: 'paid' | 'pending' | 'exited') =>
      (rows as Record<string, number>[]).reduce((n, r) => n + r[key], 0);
    expect((await get(`${E}/quotas/${quota}/availability/`)).body).toMatchObject({
      paid_orders: sum('paid'),
      pending_orders: sum('pending'),
      exited_orders: sum('exited'),
    });
  }

  const order = async (body: object) => {
    const res = await post(`${E}/orders/`, body);
    expect(res.status).toBe(201);
    return res.body as { code: string; positions: { id: number }[] };
  };
  const action = async (code: string, name: string, body: object = {}) => {
    const res = await post(`${E}/orders/${code}/${name}/`, body);
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  const scan = (position: number, type: string, at: string, successful = true) =>
    t.db.query('INSERT INTO checkin (position_id, type, datetime, successful) VALUES ($1, $2, $3, $4)', [
      position,
      type,
      at,
      successful,
    ]);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    ticket = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' })).body.id;
    const withVariations = await post(`${E}/items/`, {
      name: 'Shirt',
      default_price: '20.00',
      has_variations: true,
      variations: [{ value: 'S' }, { value: 'L' }],
    });
    expect(withVariations.status).toBe(201);
    shirt = withVariations.body.id;
    [small, large] = withVariations.body.variations.map((v: { id: number }) => v.id);
    quota = (
      await post(`${E}/quotas/`, {
        name: 'All',
        size: 1000,
        items: [ticket, shirt],
        variations: [small, large],
        release_after_exit: true,
      })
    ).body.id;
  });
  afterAll(() => t.close());

  it('every path that moves a position keeps the counts equal to the rows', async () => {
    await expectConsistent();
    // Order creation: pending and paid, items and variations.
    const pending = await order({ positions: [{ item: ticket }, { item: shirt, variation: small }] });
    const paid = await order({ status: 'p', positions: [{ item: ticket }, { item: ticket }] });
    await expectConsistent();
    expect((await countsAndRows()).stored).toHaveLength(2);
    // Status actions: paid, back to pending, canceled, reactivated, expired, extended.
    await action(pending.code, 'mark_paid');
    await expectConsistent();
    await action(pending.code, 'mark_pending');
    await expectConsistent();
    await action(pending.code, 'mark_canceled');
    await expectConsistent();
    await action(pending.code, 'reactivate');
    await expectConsistent();
    await action(pending.code, 'mark_expired');
    await expectConsistent();
    await action(pending.code, 'extend', { expires: '2099-01-01' });
    await expectConsistent();
    // Approval: pending approval counts as pending; denied stops counting.
    const approval = await order({ require_approval: true, positions: [{ item: shirt, variation: large }] });
    await expectConsistent();
    await action(approval.code, 'deny');
    await expectConsistent();
    // Check-ins: an exit, a later entry, an earlier scan uploaded late, a failed scan, a deleted scan.
    const [first, second] = paid.positions.map((p) => p.id);
    await scan(first, 'exit', '2030-01-01T12:00:00Z');
    await expectConsistent();
    await scan(second, 'exit', '2030-01-01T12:00:00Z');
    await scan(second, 'entry', '2030-01-01T13:00:00Z');
    await scan(first, 'entry', '2030-01-01T09:00:00Z'); // earlier than the exit: still out
    await scan(first, 'entry', '2030-01-01T14:00:00Z', false); // failed: ignored
    await expectConsistent();
    expect((await get(`${E}/quotas/${quota}/availability/`)).body.exited_orders).toBe(1);
    await t.db.query(`DELETE FROM checkin WHERE position_id = $1 AND type = 'entry'`, [second]);
    await expectConsistent();
    expect((await get(`${E}/quotas/${quota}/availability/`)).body.exited_orders).toBe(2);
    // An exited ticket of an order that goes back to pending no longer counts as exited.
    await action(paid.code, 'mark_pending');
    await expectConsistent();
    await action(paid.code, 'mark_paid');
    await expectConsistent();
    // Position rows changed or removed directly (order changes, a position moved to another product).
    await t.db.query(`UPDATE order_position SET canceled = true WHERE id = $1`, [first]);
    await expectConsistent();
    await t.db.query(`UPDATE order_position SET item_id = $1, variation_id = $2 WHERE id = $3`, [
      shirt,
      large,
      second,
    ]);
    await expectConsistent();
    // A test-mode order deleted with its positions.
    const test = await order({
      testmode: true,
      status: 'p',
      positions: [{ item: ticket }, { item: ticket }],
    });
    await scan(test.positions[0].id, 'exit', '2030-01-01T12:00:00Z');
    await expectConsistent();
    expect(
      (await t.http().delete(`${E}/orders/${test.code}/`).set('Authorization', auth(token))).status,
    ).toBe(204);
    await expectConsistent();
    // The check of the service agrees: nothing drifted.
    const check = await runCli(t, ['check-quotas', '--dry-run']);
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ drift: [], exitStates: 0, repaired: false });
  });

  it('parallel orders, payments and cancellations on shared products neither deadlock nor lose counts', async () => {
    const products = [{ item: ticket }, { item: shirt, variation: small }, { item: shirt, variation: large }];
    // Each order holds the products in a different order, so row locks would cross if taken unordered.
    const created = await Promise.all(
      Array.from({ length: 30 }, (_v, i) =>
        post(`${E}/orders/`, {
          positions: [products[i % 3], products[(i + 1) % 3], products[(i + 2) % 3]].slice(0, 1 + (i % 3)),
        }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    const codes = created.map((r) => r.body.code as string);
    const moved = await Promise.all(
      codes.map((code, i) => post(`${E}/orders/${code}/${i % 3 === 0 ? 'mark_canceled' : 'mark_paid'}/`, {})),
    );
    expect(moved.map((r) => r.status)).toEqual(moved.map(() => 200));
    await expectConsistent();
  });

  it('check-quotas reports drift, repairs it, and then finds none', async () => {
    const positions: { id: number }[] = await t.db.query(
      `SELECT p.id FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE o.status = 'p' AND NOT p.canceled AND NOT p.exited ORDER BY p.id LIMIT 1`,
    );
    const before = await countsAndRows();
    // Bypass the triggers: counts changed by hand, a count row lost, an exit state set without a scan.
    await t.db.query(`ALTER TABLE order_position DISABLE TRIGGER USER`);
    try {
      await t.db.query(`UPDATE order_position SET exited = true WHERE id = $1`, [positions[0].id]);
    } finally {
      await t.db.query(`ALTER TABLE order_position ENABLE TRIGGER USER`);
    }
    await t.db.query(`UPDATE product_sales SET paid = paid + 5 WHERE item_id = $1`, [ticket]);
    await t.db.query(`DELETE FROM product_sales WHERE variation_id = $1`, [small]);
    expect((await countsAndRows()).stored).not.toEqual(before.rows);

    const dry = await runCli(t, ['check-quotas', '--dry-run']);
    expect(dry.code).toBe(1);
    const found = JSON.parse(dry.stdout);
    expect(found).toMatchObject({ exitStates: 1, repaired: false });
    expect(found.drift).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ item_id: ticket, variation_id: null }),
        expect.objectContaining({
          item_id: shirt,
          variation_id: small,
          stored: { paid: 0, pending: 0, exited: 0 },
        }),
      ]),
    );
    expect((await countsAndRows()).stored).not.toEqual(before.rows); // a dry run changes nothing

    const repair = await runCli(t, ['check-quotas']);
    expect(repair.code).toBe(0);
    expect(JSON.parse(repair.stdout)).toMatchObject({ exitStates: 1, repaired: true });
    await expectConsistent();
    expect((await countsAndRows()).stored).toEqual(before.rows);

    const again = await runCli(t, ['check-quotas', '--dry-run']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ drift: [], exitStates: 0, repaired: false });
  });

  it('the worker checks and repairs the counts periodically', async () => {
    const prefix = t.app.get(AppConfig).queuePrefix;
    const before = await countsAndRows();
    await t.db.query(`UPDATE product_sales SET pending = pending + 3 WHERE item_id = $1`, [ticket]);
    try {
      await startWorker({
        ...workerEnvFor(t),
        SCHEDULER_INTERVAL_MS: '60000',
        QUOTA_CHECK_INTERVAL_MS: '500',
        SCHEDULER_WATCH_MS: '500',
      });
      await eventually(async () => {
        const now = await countsAndRows();
        return JSON.stringify(now.stored) === JSON.stringify(before.rows);
      });
      await expectConsistent();
    } finally {
      await stopAllWorkers();
      await deleteQueueKeys(prefix);
    }
  });
});
