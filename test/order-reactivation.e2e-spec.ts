import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * `reactivate` revives only the positions the order's cancel canceled (`order_position.canceled_with_order`): a
 * position canceled on its own before stays canceled, and does not take its quota place back.
 */
describe('order reactivation', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const post = (path: string, body: object = {}) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  let ticket: number;
  let quota: number;

  const flags = (code: string) =>
    t.db.query<{ positionid: number; canceled: boolean; canceled_with_order: boolean }[]>(
      `SELECT p.positionid, p.canceled, p.canceled_with_order FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE o.code = $1 ORDER BY p.positionid`,
      [code],
    );
  const available = async () =>
    (await get(`${E}/quotas/${quota}/availability/`)).body.available_number as number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    ticket = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' })).body.id;
    quota = (await post(`${E}/quotas/`, { name: 'Q', size: 10, items: [ticket] })).body.id;
  });
  afterAll(() => t.close());

  it('keeps a position canceled on its own canceled through cancel and reactivate', async () => {
    const created = await post(`${E}/orders/`, {
      positions: [{ item: ticket }, { item: ticket }, { item: ticket }],
    });
    expect(created.status).toBe(201);
    const code = created.body.code as string;
    expect(await available()).toBe(7);
    // The second position is canceled on its own (as DELETE E/orderpositions/{id}/ does).
    await t.db.query(
      `UPDATE order_position SET canceled = true, live_seat_id = NULL
        WHERE positionid = 2 AND order_id = (SELECT id FROM orders WHERE code = $1)`,
      [code],
    );
    expect(await available()).toBe(8);

    const canceled = await post(`${E}/orders/${code}/mark_canceled/`, { send_email: false });
    expect([canceled.status, canceled.body.status]).toEqual([200, 'c']);
    expect(await flags(code)).toEqual([
      { positionid: 1, canceled: true, canceled_with_order: true },
      { positionid: 2, canceled: true, canceled_with_order: false },
      { positionid: 3, canceled: true, canceled_with_order: true },
    ]);
    expect(await available()).toBe(10);

    const revived = await post(`${E}/orders/${code}/reactivate/`);
    expect([revived.status, revived.body.status]).toEqual([200, 'n']);
    const live = (await get(`${E}/orders/${code}/`)).body.positions as { positionid: number }[];
    expect(live.map((p) => p.positionid)).toEqual([1, 3]);
    expect(await flags(code)).toEqual([
      { positionid: 1, canceled: false, canceled_with_order: false },
      { positionid: 2, canceled: true, canceled_with_order: false },
      { positionid: 3, canceled: false, canceled_with_order: false },
    ]);
    expect(await available()).toBe(8);
    const all = await get(`${E}/orders/${code}/?include_canceled_positions=true`);
    expect(
      (all.body.positions as { positionid: number; canceled: boolean }[]).map((p) => p.canceled),
    ).toEqual([false, true, false]);

    // A second cancel and reactivate still leaves it alone.
    expect((await post(`${E}/orders/${code}/mark_canceled/`, { send_email: false })).status).toBe(200);
    expect((await post(`${E}/orders/${code}/reactivate/`)).status).toBe(200);
    expect((await get(`${E}/orders/${code}/`)).body.positions).toHaveLength(2);
    expect(await available()).toBe(8);
  });

  it('deny marks the positions too, so a denied order revives whole', async () => {
    const created = await post(`${E}/orders/`, { require_approval: true, positions: [{ item: ticket }] });
    const code = created.body.code as string;
    expect((await post(`${E}/orders/${code}/deny/`, { send_email: false })).status).toBe(200);
    expect(await flags(code)).toEqual([{ positionid: 1, canceled: true, canceled_with_order: true }]);
    const revived = await post(`${E}/orders/${code}/reactivate/`);
    expect(revived.status).toBe(200);
    expect(revived.body.positions).toHaveLength(1);
    expect(await flags(code)).toEqual([{ positionid: 1, canceled: false, canceled_with_order: false }]);
  });
});
