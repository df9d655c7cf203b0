import { auth, bootstrapOrganizer, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { listStatements } from './sql-count';

/**
 * `O/memberships/` (pretix `MembershipViewSet`, test_membership.py): list with `customer`, `membership_type`,
 * `testmode`; detail; create; PUT/PATCH (customer and testmode kept); no DELETE. A membership type with
 * memberships cannot be deleted. Permissions: `organizer.customers:read|write`.
 */
describe('memberships', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let readOnly: string;
  const O = '/api/v1/organizers/org';
  const O2 = '/api/v1/organizers/org2';
  const DENIED = { detail: 'You do not have permission to perform this action.' };

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const put = (path: string, body: object, tok = token) =>
    t.http().put(path).set('Authorization', auth(tok)).send(body);

  type Json = Record<string, unknown>;

  async function created(res: { status: number; body: unknown }): Promise<Json> {
    if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Json;
  }

  let customer: string;
  let otherCustomer: string;
  let type: number;
  let type2: number;
  let foreignType: number;
  let foreignCustomer: string;

  const BODY = () => ({
    customer,
    membership_type: type,
    date_start: '2021-04-01T00:00:00.000Z',
    date_end: '2021-04-08T23:59:59.999Z',
  });

  async function logs(identifier: string): Promise<{ action_type: string; data: Json }[]> {
    return t.db.query(
      `SELECT l.action_type, l.data FROM log_entry l JOIN customer c ON c.id = l.object_id
        WHERE l.content_type = 'customer' AND c.identifier = $1 ORDER BY l.id`,
      [identifier],
    );
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    ({ token: otherToken } = await bootstrapOrganizer(t, 'org2'));
    readOnly = await teamToken(t, 'org', { organizerPermissions: ['organizer.customers:read'] });
    customer = (await created(await post(`${O}/customers/`, { email: 'foo@example.org' })))
      .identifier as string;
    otherCustomer = (await created(await post(`${O}/customers/`, {}))).identifier as string;
    type = (await created(await post(`${O}/membershiptypes/`, { name: { en: 'Week pass' }, max_usages: 15 })))
      .id as number;
    type2 = (await created(await post(`${O}/membershiptypes/`, { name: { en: 'Year pass' } }))).id as number;
    foreignType = (await created(await post(`${O2}/membershiptypes/`, { name: { en: 'X' } }, otherToken)))
      .id as number;
    foreignCustomer = (await created(await post(`${O2}/customers/`, {}, otherToken))).identifier as string;
  });
  afterAll(() => t.close());

  it('creates a membership; detail and list show it in pretix’s shape; logs on the customer', async () => {
    const m = await created(
      await post(`${O}/memberships/`, {
        ...BODY(),
        attendee_name_parts: { _scheme: 'given_family', given_name: 'John', family_name: 'Doe' },
      }),
    );
    expect(m).toEqual({
      id: expect.any(Number),
      testmode: false,
      customer,
      membership_type: type,
      date_start: '2021-04-01T00:00:00Z',
      date_end: '2021-04-08T23:59:59.999Z',
      attendee_name_parts: { _scheme: 'given_family', given_name: 'John', family_name: 'Doe' },
    });
    expect((await get(`${O}/memberships/${String(m.id)}/`)).body).toEqual(m);
    const list = await get(`${O}/memberships/`);
    expect(list.status).toBe(200);
    expect(list.body.results).toContainEqual(m);
    const entries = await logs(customer);
    expect(entries.map((e) => e.action_type)).toContain('pretix.customer.membership.created');
    expect(entries.find((e) => e.action_type === 'pretix.customer.membership.created')?.data).toMatchObject({
      customer,
      membership_type: type,
      identifier: customer,
    });
  });

  it('filters by customer (case-insensitive), membership_type and testmode; fixed statements', async () => {
    await created(
      await post(`${O}/memberships/`, { ...BODY(), customer: otherCustomer, membership_type: type2 }),
    );
    await created(await post(`${O}/memberships/`, { ...BODY(), customer: otherCustomer, testmode: true }));
    const ids = async (q: string) =>
      ((await get(`${O}/memberships/?${q}`)).body.results as Json[]).map((m) => [
        m.customer,
        m.membership_type,
        m.testmode,
      ]);
    expect(await ids(`customer=${otherCustomer.toLowerCase()}`)).toEqual([
      [otherCustomer, type2, false],
      [otherCustomer, type, true],
    ]);
    expect(await ids(`customer=${otherCustomer}&membership_type=${type2}`)).toEqual([
      [otherCustomer, type2, false],
    ]);
    expect(await ids(`customer=${otherCustomer}&testmode=true`)).toEqual([[otherCustomer, type, true]]);
    expect((await get(`${O}/memberships/?membership_type=abc`)).status).toBe(400);
    const count = (q: string) => listStatements(() => get(`${O}/memberships/?${q}`));
    const a = await count('page_size=1');
    const b = await count('page_size=3');
    expect([a.rows, b.rows]).toEqual([1, 3]);
    expect(b.statements).toBe(a.statements);
  });

  it('refuses a customer or membership type of another organizer, and missing fields', async () => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM membership');
    const res = await post(`${O}/memberships/`, {
      ...BODY(),
      customer: foreignCustomer,
      membership_type: foreignType,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      customer: [`Object with identifier=${foreignCustomer} does not exist.`],
      membership_type: [`Invalid pk "${foreignType}" - object does not exist.`],
    });
    const missing = await post(`${O}/memberships/`, {});
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body as Json).sort()).toEqual([
      'customer',
      'date_end',
      'date_start',
      'membership_type',
    ]);
    expect(await t.db.query('SELECT count(*)::int AS n FROM membership')).toEqual(before);
  });

  it('PATCH changes dates and type; customer and testmode are ignored; logs changed', async () => {
    const m = await created(await post(`${O}/memberships/`, BODY()));
    const res = await patch(`${O}/memberships/${String(m.id)}/`, { date_end: '2021-04-03T23:59:59.999Z' });
    expect(res.status).toBe(200);
    expect(res.body.date_end).toBe('2021-04-03T23:59:59.999Z');
    const again = await patch(`${O}/memberships/${String(m.id)}/`, {
      customer: otherCustomer,
      testmode: true,
      membership_type: type2,
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ customer, testmode: false, membership_type: type2 });
    expect((await get(`${O}/memberships/${String(m.id)}/`)).body).toEqual(again.body);
    const bad = await patch(`${O}/memberships/${String(m.id)}/`, { membership_type: foreignType });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ membership_type: [`Invalid pk "${foreignType}" - object does not exist.`] });
    expect(
      (await logs(customer)).filter((e) => e.action_type === 'pretix.customer.membership.changed'),
    ).toHaveLength(2);
  });

  it('PUT needs every field and keeps the customer', async () => {
    const m = await created(await post(`${O}/memberships/`, BODY()));
    const missing = await put(`${O}/memberships/${String(m.id)}/`, { membership_type: type2 });
    expect(missing.status).toBe(400);
    const res = await put(`${O}/memberships/${String(m.id)}/`, {
      ...BODY(),
      customer: otherCustomer,
      membership_type: type2,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ customer, membership_type: type2 });
  });

  it('has no DELETE (405); 404 for another organizer’s membership', async () => {
    const m = await created(await post(`${O}/memberships/`, BODY()));
    const del = await t
      .http()
      .delete(`${O}/memberships/${String(m.id)}/`)
      .set('Authorization', auth(token));
    expect(del.status).toBe(405);
    expect((await get(`${O}/memberships/${String(m.id)}/`)).status).toBe(200);
    expect((await get(`${O2}/memberships/${String(m.id)}/`, otherToken)).status).toBe(404);
  });

  it('a membership type with memberships cannot be deleted; an unused one can', async () => {
    const res = await t.http().delete(`${O}/membershiptypes/${type}/`).set('Authorization', auth(token));
    expect([res.status, res.body]).toEqual([403, { detail: 'Can only be deleted if unused.' }]);
    const unused = await created(await post(`${O}/membershiptypes/`, { name: { en: 'Unused' } }));
    expect(
      (
        await t
          .http()
          .delete(`${O}/membershiptypes/${String(unused.id)}/`)
          .set('Authorization', auth(token))
      ).status,
    ).toBe(204);
  });

  it('read needs organizer.customers:read, writes organizer.customers:write', async () => {
    expect((await get(`${O}/memberships/`, readOnly)).status).toBe(200);
    const denied = await post(`${O}/memberships/`, BODY(), readOnly);
    expect([denied.status, denied.body]).toEqual([403, DENIED]);
    expect((await get(`${O}/memberships/`, otherToken)).status).toBe(403);
  });
});

/** pretix `signal_listener_issue_memberships`: a paid order of a customer grants the memberships its items grant. */
describe('memberships granted by paid orders', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/sample`;
  const post = (path: string, body: object = {}) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  let customer: string;
  let type: number;
  let item: number;

  async function memberships(): Promise<Record<string, unknown>[]> {
    const res = await t
      .http()
      .get(`${O}/memberships/?customer=${customer}`)
      .set('Authorization', auth(token));
    return res.body.results as Record<string, unknown>[];
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    const ev = await post(`${O}/events/`, {
      name: { en: 'Conf' },
      slug: 'sample',
      currency: 'EUR',
      date_from: '2030-12-27T10:00:00Z',
      date_to: '2030-12-28T18:00:00Z',
    });
    expect(ev.status).toBe(201);
    customer = (await post(`${O}/customers/`, { email: 'member@example.org' })).body.identifier as string;
    type = (await post(`${O}/membershiptypes/`, { name: { en: 'Pass' } })).body.id as number;
    const res = await post(`${E}/items/`, {
      name: { en: 'Pass' },
      default_price: '10.00',
      grant_membership_type: type,
    });
    expect(res.status).toBe(201);
    item = res.body.id as number;
    expect((await post(`${E}/quotas/`, { name: 'Q', size: 100, items: [item] })).status).toBe(201);
  });
  afterAll(() => t.close());

  it('a paid order grants a membership valid like the event, once; a pending one only when paid', async () => {
    const paid = await post(`${E}/orders/`, {
      customer,
      status: 'p',
      positions: [{ item, attendee_name_parts: { full_name: 'Max' } }],
    });
    expect(paid.status).toBe(201);
    expect(await memberships()).toEqual([
      {
        id: expect.any(Number),
        testmode: false,
        customer,
        membership_type: type,
        date_start: '2030-12-27T10:00:00Z',
        date_end: '2030-12-28T18:00:00Z',
        attendee_name_parts: { full_name: 'Max' },
      },
    ]);
    const pending = await post(`${E}/orders/`, { customer, positions: [{ item }] });
    expect(pending.status).toBe(201);
    expect(await memberships()).toHaveLength(1);
    expect((await post(`${E}/orders/${String(pending.body.code)}/mark_paid/`)).status).toBe(200);
    expect(await memberships()).toHaveLength(2);
    const noCustomer = await post(`${E}/orders/`, { status: 'p', positions: [{ item }] });
    expect(noCustomer.status).toBe(201);
    const rows: { n: number }[] = await t.db.query('SELECT count(*)::int AS n FROM membership');
    expect(rows[0].n).toBe(2);
  });
});
