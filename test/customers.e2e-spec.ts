import bcrypt from 'bcryptjs';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { listStatements } from './sql-count';

/**
 * `O/customers/` (pretix `CustomerViewSet`, test_customers.py): list with `email`, detail by identifier, create
 * (generated identifier, hashed password, registration mail with `send_email`), PUT/PATCH, anonymize, no DELETE;
 * orders and reusable media naming customers. Permissions: `organizer.customers:read|write`.
 */
describe('customers', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let readOnly: string;
  let noCustomers: string;
  const O = '/api/v1/organizers/org';
  const O2 = '/api/v1/organizers/org2';
  const E = `${O}/events/sample`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const TAKEN = { email: ['An account with this email address is already registered.'] };

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const put = (path: string, body: object, tok = token) =>
    t.http().put(path).set('Authorization', auth(tok)).send(body);

  type Json = Record<string, unknown>;

  async function customer(body: object = {}, base = O, tok = token): Promise<Json> {
    const res = await post(`${base}/customers/`, body, tok);
    if (res.status !== 201) throw new Error(`customer: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Json;
  }

  async function row(identifier: string): Promise<Json> {
    const rows: Json[] = await t.db.query('SELECT * FROM customer WHERE identifier = $1', [identifier]);
    return rows[0];
  }

  async function logEntries(identifier: string): Promise<{ action_type: string; data: Json }[]> {
    return t.db.query(
      `SELECT l.action_type, l.data FROM log_entry l JOIN customer c ON c.id = l.object_id
        WHERE l.content_type = 'customer' AND c.identifier = $1 ORDER BY l.id`,
      [identifier],
    );
  }

  let webhookId: number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org', 'Org Inc'));
    ({ token: otherToken } = await bootstrapOrganizer(t, 'org2'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    readOnly = await teamToken(t, 'org', { organizerPermissions: ['organizer.customers:read'] });
    noCustomers = await teamToken(t, 'org', {
      allEvents: true,
      allEventPermissions: true,
      organizerPermissions: ['organizer.settings.general:write', 'organizer.giftcards:write'],
    });
    const hook = await post(`${O}/webhooks/`, {
      target_url: 'https://hooks.example.org/in',
      action_types: ['pretix.customer.created', 'pretix.customer.changed', 'pretix.customer.anonymized'],
    });
    expect(hook.status).toBe(201);
    webhookId = hook.body.id as number;
  });
  afterAll(() => t.close());

  describe('create', () => {
    it('generates the identifier, stores the password hashed, builds the name, logs and notifies webhooks', async () => {
      const res = await post(`${O}/customers/`, {
        identifier: 'IGNORED',
        email: 'Bar@Example.com',
        password: 'foobar',
        name_parts: { _scheme: 'given_family', given_name: 'John', family_name: 'Doe' },
        is_active: true,
        is_verified: true,
      });
      expect(res.status).toBe(201);
      const c = res.body as Json;
      expect(c.identifier).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{7}$/);
      expect(c).toEqual({
        identifier: c.identifier,
        external_identifier: null,
        email: 'bar@example.com',
        phone: null,
        name: 'John Doe',
        name_parts: { _scheme: 'given_family', given_name: 'John', family_name: 'Doe' },
        is_active: true,
        is_verified: true,
        last_login: null,
        date_joined: expect.stringMatching(/Z$/),
        locale: 'en',
        last_modified: expect.stringMatching(/Z$/),
        notes: null,
      });
      const stored = await row(c.identifier as string);
      expect(await bcrypt.compare('foobar', stored.password_hash as string)).toBe(true);
      expect((await get(`${O}/customers/${String(c.identifier)}/`)).body).toEqual(c);
      const entries = await logEntries(c.identifier as string);
      expect(entries.map((e) => e.action_type)).toEqual(['pretix.customer.created']);
      expect(entries[0].data).toMatchObject({ email: 'Bar@Example.com', identifier: c.identifier });
      expect(entries[0].data).not.toHaveProperty('password');
      const deliveries: { action: string; payload: Json }[] = await t.db.query(
        'SELECT action, payload FROM webhook_delivery WHERE webhook_id = $1 ORDER BY id DESC LIMIT 1',
        [webhookId],
      );
      expect(deliveries[0]).toEqual({
        action: 'pretix.customer.created',
        payload: expect.objectContaining({
          organizer: 'org',
          customer: c.identifier,
          action: 'pretix.customer.created',
        }),
      });
      const mails: Json[] = await t.db.query('SELECT id FROM outgoing_mail WHERE recipient = $1', [
        'bar@example.com',
      ]);
      expect(mails).toHaveLength(0);
    });

    it('defaults: no e-mail, empty name, active, verified, en; name parts get a scheme', async () => {
      const c = await customer({ name_parts: { full_name: 'Ann' } });
      expect(c).toMatchObject({
        email: null,
        name: 'Ann',
        name_parts: { full_name: 'Ann', _scheme: 'full' },
      });
      const empty = await customer({});
      expect(empty).toMatchObject({
        email: null,
        name: '',
        name_parts: {},
        is_active: true,
        is_verified: true,
      });
      expect((await row(empty.identifier as string)).password_hash).toBeNull();
    });

    it('send_email puts the registration mail with the activation link into the outbox', async () => {
      const c = await customer({
        email: 'reg@example.org',
        name_parts: { _scheme: 'given_family', given_name: 'John', family_name: 'Doe' },
        send_email: true,
      });
      const mails: { subject: string; body: string; organizer_id: number }[] = await t.db.query(
        'SELECT subject, body, organizer_id FROM outgoing_mail WHERE recipient = $1',
        ['reg@example.org'],
      );
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe('Activate your account at Org Inc');
      expect(mails[0].body).toContain('Hello John Doe,');
      expect(mails[0].body).toContain(`/org/account/activate?id=${String(c.identifier)}&token=`);
    });

    it('refuses an e-mail address of another customer (case-insensitive); another organizer may use it', async () => {
      await customer({ email: 'dup@example.org' });
      const before = await t.db.query('SELECT count(*)::int AS n FROM customer');
      const res = await post(`${O}/customers/`, { email: 'DUP@example.org' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(TAKEN);
      expect(await t.db.query('SELECT count(*)::int AS n FROM customer')).toEqual(before);
      await customer({ email: 'dup@example.org' }, O2, otherToken);
    });

    it('validates fields: name parts, e-mail, locale, phone', async () => {
      const res = await post(`${O}/customers/`, {
        name_parts: 'should be a dictionary',
        email: 'nope',
        locale: 'xx',
        phone: 'call me',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        name_parts: ['Invalid data type'],
        email: ['Enter a valid email address.'],
        locale: ['"xx" is not a valid choice.'],
        phone: ['Enter a valid phone number.'],
      });
    });
  });

  describe('list and detail', () => {
    it('lists ordered by e-mail with the email filter (case-insensitive exact), fixed statements', async () => {
      await customer({ email: 'zed@list.example' });
      await customer({ email: 'amy@list.example' });
      const all = await get(`${O}/customers/`);
      expect(all.status).toBe(200);
      const emails = (all.body.results as Json[]).map((c) => c.email).filter((e) => e !== null);
      expect(emails).toEqual([...emails].sort());
      const one = await get(`${O}/customers/?email=AMY@list.example`);
      expect(one.body.count).toBe(1);
      expect(one.body.results[0].email).toBe('amy@list.example');
      expect((await get(`${O}/customers/?email=amy@list`)).body.count).toBe(0);
      const count = (q: string) => listStatements(() => get(`${O}/customers/?${q}`));
      const a = await count('page_size=1');
      const b = await count('page_size=3');
      expect([a.rows, b.rows]).toEqual([1, 3]);
      expect(b.statements).toBe(a.statements);
    });

    it('404 for an unknown identifier or another organizer’s customer', async () => {
      const other = await customer({}, O2, otherToken);
      expect((await get(`${O}/customers/NOPE123/`)).status).toBe(404);
      expect((await get(`${O}/customers/${String(other.identifier)}/`)).status).toBe(404);
      expect((await patch(`${O}/customers/${String(other.identifier)}/`, { notes: 'x' })).status).toBe(404);
    });
  });

  describe('update', () => {
    it('PATCH changes the sent fields, logs pretix.customer.changed; the identifier stays', async () => {
      const c = await customer({ email: 'old@example.org', notes: 'keep' });
      const res = await patch(`${O}/customers/${String(c.identifier)}/`, {
        email: 'Blubb@example.org',
        identifier: 'CHANGED',
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ identifier: c.identifier, email: 'blubb@example.org', notes: 'keep' });
      expect((await get(`${O}/customers/${String(c.identifier)}/`)).body.email).toBe('blubb@example.org');
      expect((await logEntries(c.identifier as string)).map((e) => e.action_type)).toEqual([
        'pretix.customer.created',
        'pretix.customer.changed',
      ]);
    });

    it('PATCH refuses bad name parts and a taken e-mail; nothing changes', async () => {
      await customer({ email: 'taken@example.org' });
      const c = await customer({ email: 'mine@example.org' });
      const bad = await patch(`${O}/customers/${String(c.identifier)}/`, { name_parts: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ name_parts: ['Invalid data type'] });
      const taken = await patch(`${O}/customers/${String(c.identifier)}/`, { email: 'TAKEN@example.org' });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual(TAKEN);
      expect((await row(c.identifier as string)).email).toBe('mine@example.org');
    });

    it('PUT resets omitted fields to their defaults', async () => {
      const c = await customer({ email: 'put@example.org', notes: 'n', is_verified: false, locale: 'de' });
      const res = await put(`${O}/customers/${String(c.identifier)}/`, { email: 'put@example.org' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ notes: null, is_verified: true, locale: 'en' });
    });

    it('has no DELETE (405); the customer survives', async () => {
      const c = await customer({});
      const res = await t
        .http()
        .delete(`${O}/customers/${String(c.identifier)}/`)
        .set('Authorization', auth(token));
      expect(res.status).toBe(405);
      expect((await get(`${O}/customers/${String(c.identifier)}/`)).status).toBe(200);
    });
  });

  describe('permissions', () => {
    it('read needs organizer.customers:read, writes organizer.customers:write', async () => {
      const c = await customer({});
      expect((await get(`${O}/customers/`, readOnly)).status).toBe(200);
      expect((await get(`${O}/customers/${String(c.identifier)}/`, readOnly)).status).toBe(200);
      const denied = await post(`${O}/customers/`, {}, readOnly);
      expect([denied.status, denied.body]).toEqual([403, DENIED]);
      expect((await post(`${O}/customers/${String(c.identifier)}/anonymize/`, {}, readOnly)).status).toBe(
        403,
      );
      expect((await get(`${O}/customers/`, noCustomers)).status).toBe(403);
      expect((await get(`${O}/customers/`, otherToken)).status).toBe(403);
    });
  });

  describe('orders and reusable media', () => {
    let itemId: number;
    beforeAll(async () => {
      const item = await post(`${E}/items/`, { name: { en: 'Ticket' }, default_price: '10.00' });
      itemId = item.body.id as number;
      expect((await post(`${E}/quotas/`, { name: 'Q', size: 100, items: [itemId] })).status).toBe(201);
    });

    const orderBody = (extra: object) => ({
      email: 'buyer@example.org',
      positions: [{ item: itemId, price: '10.00' }],
      ...extra,
    });

    it('an order names its customer; an unknown or foreign identifier is 400', async () => {
      const c = await customer({ email: 'buyer@example.org' });
      const res = await post(`${E}/orders/`, orderBody({ customer: c.identifier }));
      expect(res.status).toBe(201);
      expect(res.body.customer).toBe(c.identifier);
      expect((await get(`${E}/orders/${String(res.body.code)}/`)).body.customer).toBe(c.identifier);
      const none = await post(`${E}/orders/`, orderBody({}));
      expect(none.body.customer).toBeNull();
      const foreign = await customer({}, O2, otherToken);
      for (const identifier of ['NOPE123', foreign.identifier as string]) {
        const bad = await post(`${E}/orders/`, orderBody({ customer: identifier }));
        expect(bad.status).toBe(400);
        expect(bad.body).toEqual({ customer: [`Object with identifier=${identifier} does not exist.`] });
      }
      const sim = await post(`${E}/orders/`, orderBody({ customer: c.identifier, simulate: true }));
      expect(sim.body.customer).toBe(c.identifier);
    });

    it('a reusable medium names its customer; expand=customer nests it; unknown is 400', async () => {
      const c = await customer({ email: 'medium@example.org' });
      const res = await post(`${O}/reusablemedia/`, {
        type: 'barcode',
        identifier: 'CARD1',
        customer: c.identifier,
      });
      expect(res.status).toBe(201);
      expect(res.body.customer).toBe(c.identifier);
      const expanded = await get(`${O}/reusablemedia/${String(res.body.id)}/?expand=customer`);
      expect(expanded.body.customer).toEqual(
        await (
          await get(`${O}/customers/${String(c.identifier)}/`)
        ).body,
      );
      const bad = await post(`${O}/reusablemedia/`, {
        type: 'barcode',
        identifier: 'CARD2',
        customer: 'NOPE123',
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ customer: ['Object with identifier=NOPE123 does not exist.'] });
    });

    it('anonymize removes the personal data, unlinks orders and media, empties old log data', async () => {
      const c = await customer({
        email: 'anon@example.org',
        phone: '+493012345678',
        external_identifier: 'ext',
        notes: 'secret',
        name_parts: { full_name: 'Anne Onymous' },
      });
      const id = c.identifier as string;
      const order = await post(`${E}/orders/`, orderBody({ customer: id }));
      const medium = await post(`${O}/reusablemedia/`, {
        type: 'barcode',
        identifier: 'ANON1',
        customer: id,
      });
      const type = await post(`${O}/membershiptypes/`, { name: { en: 'Pass' } });
      const membership = await post(`${O}/memberships/`, {
        customer: id,
        membership_type: type.body.id,
        date_start: '2030-01-01T00:00:00Z',
        date_end: '2030-12-31T23:59:59Z',
        attendee_name_parts: { full_name: 'Anne Onymous' },
      });
      expect([order.status, medium.status, membership.status]).toEqual([201, 201, 201]);

      const res = await post(`${O}/customers/${id}/anonymize/`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        identifier: id,
        email: null,
        phone: null,
        external_identifier: null,
        notes: null,
        name: '',
        name_parts: {},
        is_active: false,
        is_verified: false,
      });
      expect((await get(`${O}/customers/${id}/`)).body).toEqual(res.body);
      expect((await get(`${E}/orders/${String(order.body.code)}/`)).body.customer).toBeNull();
      expect((await get(`${O}/reusablemedia/${String(medium.body.id)}/`)).body.customer).toBeNull();
      expect(
        (await get(`${O}/memberships/${String(membership.body.id)}/`)).body.attendee_name_parts,
      ).toBeNull();
      const entries = await logEntries(id);
      expect(entries.map((e) => e.action_type)).toEqual([
        'pretix.customer.created',
        'pretix.customer.membership.created',
        'pretix.customer.anonymized',
      ]);
      expect(entries.slice(0, 2).map((e) => e.data)).toEqual([{}, {}]);
      expect(
        JSON.stringify(await t.db.query("SELECT data FROM log_entry WHERE content_type = 'customer'")),
      ).not.toContain('anon@example.org');
      const deliveries: { payload: Json }[] = await t.db.query(
        "SELECT payload FROM webhook_delivery WHERE webhook_id = $1 AND action = 'pretix.customer.anonymized'",
        [webhookId],
      );
      expect(deliveries.map((d) => d.payload.customer)).toEqual([id]);
    });
  });
});
