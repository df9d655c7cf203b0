import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Ticket blocking (pretix "Order position endpoints" `add_block`/`remove_block`, permission `event.orders:write`)
 * and the secret lists scanners download (`E/blockedsecrets/`, `E/revokedsecrets/`, `event.orders:read`): a
 * blocked ticket is refused at check-in with reason `blocked` (stored as a failed scan), stays listed after
 * unblocking with `blocked: false`; regenerated secrets are listed as revoked.
 */
describe('order positions: blocking and secret lists', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  const E = '/api/v1/organizers/org/events/sample';
  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  let ticket: number;
  let all: number;

  const redeem = (secret: string, body: object = {}) =>
    post(`${E}/checkinlists/${all}/positions/${encodeURIComponent(secret)}/redeem/`, body);

  async function paidTicket(): Promise<{ id: number; secret: string; code: string }> {
    const created = await post(`${E}/orders/`, { status: 'p', positions: [{ item: ticket }] });
    expect(created.status).toBe(201);
    const p = created.body.positions[0] as { id: number; secret: string };
    return { id: p.id, secret: p.secret, code: created.body.code as string };
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    ticket = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00', admission: true })).body.id;
    await post(`${E}/quotas/`, { name: 'Q', size: 1000, items: [ticket] });
    all = (await post(`${E}/checkinlists/`, { name: 'All', all_products: true })).body.id;
  });
  afterAll(() => t.close());

  it('add_block blocks the ticket: refused at check-in, listed in blockedsecrets; remove_block lifts it', async () => {
    const pos = await paidTicket();
    expect((await get(`${E}/orderpositions/${pos.id}/`)).body.blocked).toBeNull();
    const before = new Date(Date.now() - 1000).toISOString();

    const added = await post(`${E}/orderpositions/${pos.id}/add_block/`, { name: 'admin' });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ id: pos.id, order: pos.code, secret: pos.secret, blocked: ['admin'] });
    expect((await get(`${E}/orderpositions/${pos.id}/`)).body.blocked).toEqual(['admin']);
    expect((await get(`${E}/orders/${pos.code}/`)).body.positions[0].blocked).toEqual(['admin']);
    // A second time changes nothing; another API name adds to the list.
    expect((await post(`${E}/orderpositions/${pos.id}/add_block/`, { name: 'admin' })).body.blocked).toEqual([
      'admin',
    ]);

    const refused = await redeem(pos.secret);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      status: 'error',
      reason: 'blocked',
      reason_explanation: 'This ticket has been blocked.',
      position: { id: pos.id, blocked: ['admin'] },
    });
    expect(
      await t.db.query('SELECT successful, error_reason FROM checkin WHERE position_id = $1', [pos.id]),
    ).toEqual([{ successful: false, error_reason: 'blocked' }]);
    // The check-in list's positions show the block as the position resource does.
    const listed = await get(`${E}/checkinlists/${all}/positions/?search=${pos.secret}`);
    expect(listed.body.results.find((p: { id: number }) => p.id === pos.id)?.blocked).toEqual(['admin']);

    const blocked = await get(`${E}/blockedsecrets/?updated_since=${encodeURIComponent(before)}`, reader);
    expect(blocked.status).toBe(200);
    expect(blocked.body.results).toEqual([
      { id: expect.any(Number), secret: pos.secret, updated: expect.any(String), blocked: true },
    ]);
    const later = new Date(Date.now() + 60_000).toISOString();
    expect(
      (await get(`${E}/blockedsecrets/?updated_since=${encodeURIComponent(later)}`)).body.results,
    ).toEqual([]);

    const removed = await post(`${E}/orderpositions/${pos.id}/remove_block/`, { name: 'admin' });
    expect(removed.status).toBe(200);
    expect(removed.body.blocked).toBeNull();
    expect((await get(`${E}/orderpositions/${pos.id}/`)).body.blocked).toBeNull();
    expect((await redeem(pos.secret)).status).toBe(201);

    const after = await get(`${E}/blockedsecrets/`);
    const row = after.body.results.find((r: { secret: string }) => r.secret === pos.secret);
    expect(row).toEqual({
      id: blocked.body.results[0].id,
      secret: pos.secret,
      updated: expect.any(String),
      blocked: false,
    });
    expect(
      (await get(`${E}/blockedsecrets/?blocked=true`)).body.results.map((r: { secret: string }) => r.secret),
    ).not.toContain(pos.secret);
    expect(
      (await get(`${E}/blockedsecrets/?blocked=false`)).body.results.map((r: { secret: string }) => r.secret),
    ).toContain(pos.secret);

    const logged = await t.db.query(
      `SELECT action_type, data FROM log_entry WHERE content_type = 'order' AND action_type LIKE 'pretix.event.order.changed.%'
          AND (data->>'position')::int = $1 ORDER BY id`,
      [pos.id],
    );
    expect(logged).toEqual([
      {
        action_type: 'pretix.event.order.changed.add_block',
        data: { position: pos.id, positionid: 1, block_name: 'admin' },
      },
      {
        action_type: 'pretix.event.order.changed.add_block',
        data: { position: pos.id, positionid: 1, block_name: 'admin' },
      },
      {
        action_type: 'pretix.event.order.changed.remove_block',
        data: { position: pos.id, positionid: 1, block_name: 'admin' },
      },
    ]);
  });

  it('several blocks: api names are accepted, blocked stays until the last one is removed', async () => {
    const pos = await paidTicket();
    await post(`${E}/orderpositions/${pos.id}/add_block/`, { name: 'admin' });
    const two = await post(`${E}/orderpositions/${pos.id}/add_block/`, { name: 'api:crm.sync_1' });
    expect(two.body.blocked).toEqual(['admin', 'api:crm.sync_1']);
    const one = await post(`${E}/orderpositions/${pos.id}/remove_block/`, { name: 'admin' });
    expect(one.body.blocked).toEqual(['api:crm.sync_1']);
    expect((await redeem(pos.secret)).body.reason).toBe('blocked');
    const none = await post(`${E}/orderpositions/${pos.id}/remove_block/`, { name: 'api:crm.sync_1' });
    expect(none.body.blocked).toBeNull();
  });

  it('bad bodies answer 400 naming the field; unknown positions 404; a read-only token 403', async () => {
    const pos = await paidTicket();
    for (const action of ['add_block', 'remove_block']) {
      const path = `${E}/orderpositions/${pos.id}/${action}/`;
      expect((await post(path, {})).body).toEqual({ name: ['This field is required.'] });
      expect((await post(path, { name: 'user' })).body).toEqual({ name: ['Enter a valid value.'] });
      expect((await post(path, { name: 'api:' })).status).toBe(400);
      expect((await post(path, { name: 3 })).body).toEqual({ name: ['Not a valid string.'] });
      expect((await post(path, { name: '' })).body).toEqual({ name: ['This field may not be blank.'] });
      expect((await post(`${E}/orderpositions/999999/${action}/`, { name: 'admin' })).status).toBe(404);
      const denied = await post(path, { name: 'admin' }, reader);
      expect(denied.status).toBe(403);
    }
    expect((await get(`${E}/orderpositions/${pos.id}/`)).body.blocked).toBeNull();
    expect(
      await t.db.query('SELECT count(*)::int AS n FROM blocked_secret WHERE position_id = $1', [pos.id]),
    ).toEqual([{ n: 0 }]);
    expect((await get(`${E}/blockedsecrets/?updated_since=yesterday`)).status).toBe(400);
  });

  it('revokedsecrets lists the secrets regenerate_secrets replaced; created_since filters', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const pos = await paidTicket();
    expect((await post(`${E}/orders/${pos.code}/regenerate_secrets/`)).status).toBe(200);
    const res = await get(`${E}/revokedsecrets/?created_since=${encodeURIComponent(before)}`, reader);
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { id: expect.any(Number), secret: pos.secret, created: expect.any(String) },
    ]);
    const later = new Date(Date.now() + 60_000).toISOString();
    expect(
      (await get(`${E}/revokedsecrets/?created_since=${encodeURIComponent(later)}`)).body.results,
    ).toEqual([]);
    expect((await get(`${E}/revokedsecrets/?ordering=-id`)).body.results[0].secret).toBe(pos.secret);
  });

  it('printlog: 201 with the print log; print_logs on the position and its order; bad bodies 400; read-only 403', async () => {
    const pos = await paidTicket();
    const path = `${E}/orderpositions/${pos.id}/printlog/`;
    const res = await post(path, {
      datetime: '2026-01-02T10:00:00+01:00',
      source: 'pretixSCAN',
      type: 'badge',
      info: { printer: 'front desk' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      successful: true,
      device_id: null,
      source: 'pretixSCAN',
      type: 'badge',
      datetime: '2026-01-02T09:00:00Z',
      info: { printer: 'front desk' },
    });
    const second = await post(path, {
      datetime: '2026-01-02T11:00:00Z',
      source: 'app',
      type: 'admission',
      successful: false,
    });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ successful: false, info: {} });
    const shown = await get(`${E}/orderpositions/${pos.id}/`);
    expect(shown.body.print_logs).toEqual([res.body, second.body]);
    expect((await get(`${E}/orders/${pos.code}/`)).body.positions[0].print_logs).toEqual([
      res.body,
      second.body,
    ]);
    const listed = await get(`${E}/orders/?code=${pos.code}`);
    expect(listed.body.results[0].positions[0].print_logs).toEqual([res.body, second.body]);
    // Order actions answer with the batch presentation: the same list.
    const action = await post(`${E}/orders/${pos.code}/mark_pending/`);
    expect(action.body.positions[0].print_logs).toEqual([res.body, second.body]);

    const logged = await t.db.query(
      `SELECT data FROM log_entry WHERE action_type = 'pretix.event.order.print' AND (data->>'position')::int = $1`,
      [pos.id],
    );
    expect(logged[0].data).toMatchObject({
      position: pos.id,
      positionid: 1,
      source: 'pretixSCAN',
      type: 'badge',
    });

    const ok = { datetime: '2026-01-02T10:00:00Z', source: 'app', type: 'badge' };
    expect((await post(path, { source: 'app', type: 'badge' })).body).toEqual({
      datetime: ['This field is required.'],
    });
    expect((await post(path, { ...ok, datetime: 'soon' })).body).toEqual({ datetime: [expect.any(String)] });
    expect((await post(path, { ...ok, type: 'poster' })).body).toEqual({
      type: ['"poster" is not a valid choice.'],
    });
    expect((await post(path, { ...ok, source: undefined })).body).toEqual({
      source: ['This field is required.'],
    });
    expect((await post(path, { ...ok, info: [1] })).status).toBe(400);
    expect(Object.keys((await post(path, { ...ok, info: 'x' })).body)).toEqual(['info']);
    expect((await post(path, { ...ok, successful: 'yes' })).body).toEqual({
      successful: ['Must be a valid boolean.'],
    });
    expect((await post(`${E}/orderpositions/999999/printlog/`, ok)).status).toBe(404);
    expect((await post(path, ok, reader)).status).toBe(403);
    expect((await get(`${E}/orderpositions/${pos.id}/`)).body.print_logs).toHaveLength(2);
  });
});
