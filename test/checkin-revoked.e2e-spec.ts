import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Revoked secrets and pending orders at check-in (compat §3.21, §4.4 `regenerate_secrets`): new secrets revoke the
 * old ones (redeeming one answers `revoked`, stored as a failed scan; forced, it checks the position in); pending
 * orders with `valid_if_pending` are admitted and listed, orders awaiting approval are not.
 */
describe('check-in: revoked secrets and pending orders', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const post = (path: string, body: object = {}) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  let ticket: number;
  let all: number;

  const redeem = (secret: string, body: object = {}) =>
    post(`${E}/checkinlists/${all}/positions/${encodeURIComponent(secret)}/redeem/`, body);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    ticket = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00', admission: true })).body.id;
    await post(`${E}/quotas/`, { name: 'Q', size: 1000, items: [ticket] });
    all = (await post(`${E}/checkinlists/`, { name: 'All', all_products: true })).body.id;
  });
  afterAll(() => t.close());

  it('regenerate_secrets: new order and ticket secrets; the old ticket secret is revoked (force admits it)', async () => {
    const created = await post(`${E}/orders/`, {
      status: 'p',
      positions: [{ item: ticket }, { item: ticket }],
    });
    expect(created.status).toBe(201);
    const [first, second] = created.body.positions as { id: number; secret: string }[];
    const res = await post(`${E}/orders/${created.body.code}/regenerate_secrets/`);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(created.body.code);
    expect(res.body.secret).not.toBe(created.body.secret);
    const fresh = res.body.positions as { id: number; secret: string }[];
    expect(fresh.map((p) => p.id)).toEqual([first.id, second.id]);
    expect(fresh[0].secret).not.toBe(first.secret);
    expect(fresh[0].secret).toMatch(/^[a-z0-9]{32}$/);
    expect((await get(`${E}/orders/${created.body.code}/`)).body.positions[0].secret).toBe(fresh[0].secret);

    const old = await redeem(first.secret);
    expect(old.status).toBe(400);
    expect(old.body).toMatchObject({
      status: 'error',
      reason: 'revoked',
      reason_explanation: expect.any(String),
      position: { id: first.id, secret: fresh[0].secret },
    });
    expect(
      await t.db.query('SELECT successful, error_reason FROM checkin WHERE position_id = $1', [first.id]),
    ).toEqual([{ successful: false, error_reason: 'revoked' }]);
    expect((await redeem(first.secret, { force: true })).status).toBe(201);
    // Each scan is logged with the order (the refused one as denied), in the scan's own statement.
    const logged = await t.db.query<
      { action_type: string; data: { position: number; errorcode?: string } }[]
    >(
      `SELECT action_type, data FROM log_entry WHERE content_type = 'order' AND action_type LIKE 'pretix.event.checkin%'
          AND (data->>'position')::int = $1 ORDER BY id`,
      [first.id],
    );
    expect(logged).toEqual([
      { action_type: 'pretix.event.checkin.denied', data: expect.objectContaining({ errorcode: 'revoked' }) },
      {
        action_type: 'pretix.event.checkin',
        data: expect.objectContaining({ position: first.id, forced: true }),
      },
    ]);
    expect((await redeem(fresh[0].secret)).body.reason).toBe('already_redeemed');
    expect((await redeem(fresh[1].secret)).status).toBe(201);
    // Revoked twice: both earlier secrets stay revoked.
    expect((await post(`${E}/orders/${created.body.code}/regenerate_secrets/`)).status).toBe(200);
    expect((await redeem(second.secret)).body.reason).toBe('revoked');
    expect((await redeem(fresh[1].secret)).body.reason).toBe('revoked');
    expect((await post(`${E}/orders/NOPE1/regenerate_secrets/`)).status).toBe(404);
  });

  it('pending orders: valid_if_pending admits and lists; awaiting approval never admits', async () => {
    const valid = await post(`${E}/orders/`, { valid_if_pending: true, positions: [{ item: ticket }] });
    expect(valid.status).toBe(201);
    expect(valid.body.status).toBe('n');
    const plain = await post(`${E}/orders/`, { positions: [{ item: ticket }] });
    const listed = await get(`${E}/checkinlists/${all}/positions/`);
    const ids = listed.body.results.map((p: { id: number }) => p.id);
    expect(ids).toContain(valid.body.positions[0].id);
    expect(ids).not.toContain(plain.body.positions[0].id);
    expect((await redeem(valid.body.positions[0].secret)).status).toBe(201);
    expect((await redeem(plain.body.positions[0].secret)).body.reason).toBe('unpaid');

    const pendingList = (
      await post(`${E}/checkinlists/`, { name: 'P', all_products: true, include_pending: true })
    ).body.id;
    const approval = await post(`${E}/orders/`, { require_approval: true, positions: [{ item: ticket }] });
    expect(approval.status).toBe(201);
    const res = await post(
      `${E}/checkinlists/${pendingList}/positions/${approval.body.positions[0].secret}/redeem/`,
      { ignore_unpaid: true },
    );
    expect(res.body.reason).toBe('unpaid');
  });
});
