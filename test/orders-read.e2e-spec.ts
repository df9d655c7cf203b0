import type { Response } from 'supertest';
import type { OrderFeeJson, OrderJson, OrderPositionJson } from '../src/orders/presentation/order.presenter';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { listStatements } from './sql-count';

/**
 * Reading and changing orders (compat §4.4): `E/orders/` list with filters, ordering and `X-Page-Generated`,
 * detail by code, the organizer-wide `O/orders/` filtered by permission, PATCH of the allowed fields with its
 * logs, PUT 405 (DELETE: test/orders-delete.e2e-spec.ts); fixed SQL statement counts for list pages.
 */
describe('orders: read, change, delete', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let vouchersOnly: string;
  const ORG = '/api/v1/organizers/org';
  const E = `${ORG}/events/sample`;
  const OTHER = `${ORG}/events/other`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const NOT_FOUND = { detail: 'Not found.' };

  const send = (method: 'post' | 'patch' | 'put' | 'delete', path: string, body?: unknown, as = token) =>
    t
      .http()
      [method](path)
      .set('Authorization', auth(as))
      .send(body as object);
  const get = (path: string, as = token) => t.http().get(path).set('Authorization', auth(as));

  /** The body of a response that must have the given status (untyped: the assertions check it). */
  async function ok(res: Response, status = 201) {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  let itemId: number;
  let otherItemId: number;
  let questionId: number;

  async function order(body: Record<string, unknown> = {}, base = E): Promise<OrderJson> {
    return ok(
      await send('post', `${base}/orders/`, {
        positions: [{ item: base === E ? itemId : otherItemId }],
        ...body,
      }),
    );
  }

  async function logs(orderId: number): Promise<{ action_type: string; data: Record<string, unknown> }[]> {
    return t.db.query(
      "SELECT action_type, data FROM log_entry WHERE content_type = 'order' AND object_id = $1 ORDER BY id",
      [orderId],
    );
  }

  async function orderId(code: string): Promise<number> {
    const rows: { id: number }[] = await t.db.query('SELECT id FROM orders WHERE code = $1', [code]);
    return rows[0].id;
  }

  const codes = (res: { body: { results: { code: string }[] } }) => res.body.results.map((o) => o.code);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    itemId = (await ok(await send('post', `${E}/items/`, { name: 'Ticket', default_price: '10.00' }))).id;
    otherItemId = (await ok(await send('post', `${OTHER}/items/`, { name: 'Ticket', default_price: '5.00' })))
      .id;
    await ok(await send('post', `${E}/quotas/`, { name: 'Q', size: null, items: [itemId] }));
    await ok(await send('post', `${OTHER}/quotas/`, { name: 'Q', size: null, items: [otherItemId] }));
    questionId = (
      await ok(await send('post', `${E}/questions/`, { question: 'Q', type: 'S', items: [itemId] }))
    ).id;
    reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    vouchersOnly = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.vouchers:read'] });
  });
  afterAll(() => t.close());

  describe('list and detail', () => {
    let a: OrderJson;
    let b: OrderJson;
    let c: OrderJson;

    beforeAll(async () => {
      a = await order({ code: 'AAAAA1', email: 'Alice@Example.org', status: 'p' });
      b = await order({ code: 'BBBBB2', email: 'bob@example.org', testmode: true, locale: 'de' });
      c = await order({ code: 'CCCCC3', email: 'carol@example.org', require_approval: true });
      await order({ code: 'DDDDD4' }, OTHER);
    });

    it('lists the event orders by datetime with the envelope and X-Page-Generated', async () => {
      const started = Date.now();
      const res = await get(`${E}/orders/`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ count: 3, next: null, previous: null, results: [a, b, c] });
      const generated = res.headers['x-page-generated'];
      expect(generated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(Math.abs(new Date(generated).getTime() - started)).toBeLessThan(5000);
    });

    it('orders by code, status and last_modified, ascending or descending; unknown fields fall back', async () => {
      expect(codes(await get(`${E}/orders/?ordering=-code`))).toEqual(['CCCCC3', 'BBBBB2', 'AAAAA1']);
      expect(codes(await get(`${E}/orders/?ordering=status,code`))).toEqual(['BBBBB2', 'CCCCC3', 'AAAAA1']);
      expect(codes(await get(`${E}/orders/?ordering=-last_modified`))).toEqual([
        'CCCCC3',
        'BBBBB2',
        'AAAAA1',
      ]);
      expect(codes(await get(`${E}/orders/?ordering=-datetime`))).toEqual(['CCCCC3', 'BBBBB2', 'AAAAA1']);
      expect(codes(await get(`${E}/orders/?ordering=total`))).toEqual(['AAAAA1', 'BBBBB2', 'CCCCC3']);
    });

    it('filters by status, code, email, locale, testmode, require_approval, created_since', async () => {
      const cases: [string, string[]][] = [
        ['status=p', ['AAAAA1']],
        ['status=n', ['BBBBB2', 'CCCCC3']],
        ['status=x', []],
        ['code=bbbbb2', ['BBBBB2']],
        ['code=DDDDD4', []],
        ['email=alice@example.ORG', ['AAAAA1']],
        ['email=alice', []],
        ['locale=de', ['BBBBB2']],
        ['testmode=true', ['BBBBB2']],
        ['testmode=false', ['AAAAA1', 'CCCCC3']],
        ['require_approval=true', ['CCCCC3']],
        [`created_since=${encodeURIComponent(b.datetime)}`, ['BBBBB2', 'CCCCC3']],
        ['created_since=2999-01-01T00:00:00Z', []],
      ];
      for (const [query, expected] of cases) {
        const res = await get(`${E}/orders/?${query}`);
        expect([query, res.status, codes(res)]).toEqual([query, 200, expected]);
      }
    });

    it('answers 400 for malformed filter values', async () => {
      for (const [query, body] of [
        ['testmode=maybe', { testmode: ['Must be a valid boolean.'] }],
        ['modified_since=yesterday', { modified_since: ['Enter a valid date/time.'] }],
        ['created_since=2020-13-01T00:00:00Z', { created_since: ['Enter a valid date/time.'] }],
      ] as const) {
        const res = await get(`${E}/orders/?${query}`);
        expect([res.status, res.body]).toEqual([400, body]);
      }
    });

    it('pages with absolute links', async () => {
      const res = await get(`${E}/orders/?page_size=2`);
      expect(res.body.count).toBe(3);
      expect(codes(res)).toEqual(['AAAAA1', 'BBBBB2']);
      expect(res.body.next).toMatch(/\/orders\/\?page_size=2&page=2$/);
      const second = await get(`${E}/orders/?page_size=2&page=2`);
      expect(codes(second)).toEqual(['CCCCC3']);
      expect((await get(`${E}/orders/?page=3`)).status).toBe(404);
    });

    it('shows one order by code; an unknown code or one of another event is 404', async () => {
      expect((await get(`${E}/orders/AAAAA1/`)).body).toEqual(a);
      for (const code of ['ZZZZZ9', 'DDDDD4', 'aaaaa1']) {
        const res = await get(`${E}/orders/${code}/`);
        expect([code, res.status, res.body]).toEqual([code, 404, NOT_FOUND]);
      }
      expect((await get(`${OTHER}/orders/AAAAA1/`)).status).toBe(404);
    });

    it('needs event.orders:read: 401 without credentials, 403 without the permission or the event', async () => {
      expect((await t.http().get(`${E}/orders/`)).status).toBe(401);
      for (const path of [`${E}/orders/`, `${E}/orders/AAAAA1/`, `${E}/orders/NOPE1/`]) {
        const res = await get(path, vouchersOnly);
        expect([path, res.status, res.body]).toEqual([path, 403, DENIED]);
      }
      const limited = await teamToken(t, 'org', {
        limitEvents: ['other'],
        eventPermissions: ['event.orders:read'],
      });
      expect((await get(`${E}/orders/`, limited)).status).toBe(403);
      expect((await get(`${OTHER}/orders/`, limited)).body.count).toBe(1);
      expect((await get(`${E}/orders/`, reader)).body.count).toBe(3);
    });

    it('hides canceled positions and fees unless asked for them', async () => {
      const body = await order({
        positions: [{ item: itemId }, { item: itemId }],
        fees: [{ fee_type: 'service', value: '1.00' }],
      });
      const id = await orderId(body.code);
      await t.db.query('UPDATE order_position SET canceled = true WHERE order_id = $1 AND positionid = 2', [
        id,
      ]);
      await t.db.query('UPDATE order_fee SET canceled = true WHERE order_id = $1', [id]);
      const shown = (await get(`${E}/orders/${body.code}/`)).body;
      expect([shown.positions.length, shown.fees.length]).toEqual([1, 0]);
      const all = (
        await get(`${E}/orders/${body.code}/?include_canceled_positions=true&include_canceled_fees=true`)
      ).body;
      expect(all.positions.map((p: OrderPositionJson) => [p.positionid, p.canceled])).toEqual([
        [1, false],
        [2, true],
      ]);
      expect(all.fees.map((f: OrderFeeJson) => f.canceled)).toEqual([true]);
      const listed = await get(`${E}/orders/?code=${body.code}&include_canceled_positions=true`);
      expect(listed.body.results[0].positions).toHaveLength(2);
      await t.db.query('DELETE FROM orders WHERE id = $1', [id]);
    });
  });

  describe('modified_since with X-Page-Generated', () => {
    it('gives back exactly the orders created or changed since the page was generated', async () => {
      const untouched = await order();
      const changed = await order();
      const first = await get(`${E}/orders/`);
      const since = first.headers['x-page-generated'];
      await new Promise((r) => setTimeout(r, 20));
      await ok(await send('patch', `${E}/orders/${changed.code}/`, { comment: 'later' }), 200);
      const fresh = await order();
      const res = await get(`${E}/orders/?modified_since=${encodeURIComponent(since)}`);
      expect(codes(res)).toEqual([changed.code, fresh.code]);
      expect(codes(res)).not.toContain(untouched.code);
    });
  });

  describe('O/orders/', () => {
    it('lists orders of all events the credential may read, with filters', async () => {
      const inSample = await order({ email: 'org-wide@example.org' });
      const inOther = await order({ email: 'org-wide@example.org' }, OTHER);
      let res = await get(`${ORG}/orders/?email=org-wide@example.org`);
      expect(res.status).toBe(200);
      expect(res.headers['x-page-generated']).toMatch(/Z$/);
      expect(res.body.results.map((o: OrderJson) => [o.code, o.event])).toEqual([
        [inSample.code, 'sample'],
        [inOther.code, 'other'],
      ]);
      expect(res.body.results[0]).toEqual((await get(`${E}/orders/${inSample.code}/`)).body);

      const sampleOnly = await teamToken(t, 'org', {
        limitEvents: ['sample'],
        eventPermissions: ['event.orders:read'],
      });
      res = await get(`${ORG}/orders/?email=org-wide@example.org`, sampleOnly);
      expect(res.body.results.map((o: OrderJson) => o.code)).toEqual([inSample.code]);

      const mixed = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.items:write'] });
      res = await get(`${ORG}/orders/`, mixed);
      expect([res.status, res.body]).toEqual([200, { count: 0, next: null, previous: null, results: [] }]);
      res = await get(`${ORG}/orders/`, vouchersOnly);
      expect(res.body.count).toBe(0);
    });

    it('answers 401 without credentials and 403 for another organizer', async () => {
      expect((await t.http().get(`${ORG}/orders/`)).status).toBe(401);
      await bootstrapOrganizer(t, 'stranger');
      const res = await get('/api/v1/organizers/stranger/orders/');
      expect([res.status, res.body]).toEqual([403, DENIED]);
    });
  });

  describe('SQL statements', () => {
    it('does not grow with the page size on E/orders/ and O/orders/', async () => {
      for (let i = 0; i < 4; i++) {
        await order({
          email: 'count@example.org',
          positions: [
            { item: itemId, answers: [{ question: questionId, answer: 'x' }] },
            { item: itemId, answers: [{ question: questionId, answer: 'y' }] },
          ],
          fees: [{ fee_type: 'service', value: '1.00' }],
          invoice_address: { name: 'N' },
          status: 'p',
        });
      }
      for (const base of [`${E}/orders/`, `${ORG}/orders/`]) {
        const one = await listStatements(() => get(`${base}?email=count@example.org&page_size=1`));
        const three = await listStatements(() => get(`${base}?email=count@example.org&page_size=3`));
        expect([one.rows, three.rows]).toEqual([1, 3]);
        expect(three.statements).toBe(one.statements);
      }
    });
  });

  describe('PATCH', () => {
    it('changes the allowed fields, ignores the others, moves last_modified and logs', async () => {
      const created = await order({ email: 'old@example.org', phone: '+49 1', comment: 'c1' });
      const id = await orderId(created.code);
      await new Promise((r) => setTimeout(r, 5));
      const res = await send('patch', `${E}/orders/${created.code}/`, {
        email: 'new@example.org',
        phone: '+49 2',
        locale: 'de',
        comment: 'c2',
        checkin_attention: true,
        checkin_text: 'Look',
        custom_followup_at: '2031-01-01',
        valid_if_pending: true,
        api_meta: { a: 1 },
        status: 'p',
        total: '0.00',
        code: 'NEWCD1',
        testmode: true,
        positions: [],
      });
      const body = await ok(res, 200);
      expect(body).toEqual({
        ...created,
        email: 'new@example.org',
        phone: '+49 2',
        locale: 'de',
        comment: 'c2',
        checkin_attention: true,
        checkin_text: 'Look',
        custom_followup_at: '2031-01-01',
        valid_if_pending: true,
        api_meta: { a: 1 },
        last_modified: expect.any(String),
        // valid_if_pending opens the ticket downloads of the pending order.
        downloads: [{ output: 'pdf', url: `http://testserver${E}/orders/${created.code}/download/pdf/` }],
        positions: created.positions.map((p) => ({
          ...p,
          downloads: [{ output: 'pdf', url: `http://testserver${E}/orderpositions/${p.id}/download/pdf/` }],
        })),
      });
      expect(new Date(body.last_modified as string).getTime()).toBeGreaterThan(
        new Date(created.last_modified).getTime(),
      );
      expect((await get(`${E}/orders/${created.code}/`)).body).toEqual(body);
      expect((await logs(id)).slice(1)).toEqual([
        {
          action_type: 'pretix.event.order.contact.changed',
          data: {
            old_email: 'old@example.org',
            new_email: 'new@example.org',
            old_phone: '+49 1',
            new_phone: '+49 2',
          },
        },
        { action_type: 'pretix.event.order.comment', data: { new_comment: 'c2' } },
        {
          action_type: 'pretix.event.order.modified',
          data: {
            locale: 'de',
            checkin_attention: true,
            checkin_text: 'Look',
            custom_followup_at: '2031-01-01',
            valid_if_pending: true,
            api_meta: { a: 1 },
          },
        },
      ]);
    });

    it('logs only what changed; an unchanged PATCH logs nothing but still moves last_modified', async () => {
      const created = await order({ email: 'same@example.org', comment: 'same' });
      const id = await orderId(created.code);
      await new Promise((r) => setTimeout(r, 5));
      const body = await ok(
        await send('patch', `${E}/orders/${created.code}/`, { email: 'same@example.org', comment: 'same' }),
        200,
      );
      expect(await logs(id)).toHaveLength(1);
      expect(body.last_modified).not.toBe(created.last_modified);
      await ok(await send('patch', `${E}/orders/${created.code}/`, { phone: '+1' }), 200);
      expect((await logs(id)).map((l) => l.action_type)).toEqual([
        'pretix.event.order.placed',
        'pretix.event.order.contact.changed',
      ]);
    });

    it('creates, replaces and removes the invoice address', async () => {
      const created = await order();
      const id = await orderId(created.code);
      let body = await ok(
        await send('patch', `${E}/orders/${created.code}/`, {
          invoice_address: { company: 'ACME', name: 'Jane', country: 'at', vat_id: 'ATU1' },
        }),
        200,
      );
      expect(body.invoice_address).toMatchObject({
        company: 'ACME',
        name: 'Jane',
        name_parts: { _legacy: 'Jane' },
        country: 'AT',
        vat_id: 'ATU1',
      });
      body = await ok(
        await send('patch', `${E}/orders/${created.code}/`, {
          invoice_address: { name_parts: { given_name: 'Al' } },
        }),
        200,
      );
      expect(body.invoice_address).toMatchObject({
        company: '',
        name: 'Al',
        name_parts: { given_name: 'Al' },
        country: '',
        vat_id: '',
      });
      expect(
        Number(
          (await t.db.query('SELECT count(*) AS n FROM invoice_address WHERE order_id = $1', [id]))[0].n,
        ),
      ).toBe(1);
      body = await ok(await send('patch', `${E}/orders/${created.code}/`, { invoice_address: null }), 200);
      expect(body.invoice_address).toBeNull();
      expect((await logs(id)).map((l) => l.action_type)).toEqual([
        'pretix.event.order.placed',
        'pretix.event.order.modified',
        'pretix.event.order.modified',
        'pretix.event.order.modified',
      ]);
    });

    it('answers 400 for invalid values, 404 for unknown codes, 403 without write, 405 for PUT', async () => {
      const created = await order();
      for (const [patch, errors] of [
        [{ email: 'nope' }, { email: ['Enter a valid email address.'] }],
        [{ checkin_attention: 'yes' }, { checkin_attention: ['Must be a valid boolean.'] }],
        [{ api_meta: [1] }, { api_meta: ['Expected a dictionary of items but got type "list".'] }],
        [{ locale: null }, { locale: ['This field may not be null.'] }],
        [
          { invoice_address: { name: 'A', name_parts: { given_name: 'B' } } },
          { invoice_address: { name: ['Do not specify name if you specified name_parts.'] } },
        ],
        [{ invoice_address: { country: 'QQ' } }, { invoice_address: { country: ['Invalid country code.'] } }],
      ] as const) {
        const res = await send('patch', `${E}/orders/${created.code}/`, patch);
        expect([res.status, res.body]).toEqual([400, errors]);
      }
      expect((await get(`${E}/orders/${created.code}/`)).body).toEqual(created);
      let res = await send('patch', `${E}/orders/NOPE2/`, { comment: 'x' });
      expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
      res = await send('patch', `${E}/orders/${created.code}/`, { comment: 'x' }, reader);
      expect([res.status, res.body]).toEqual([403, DENIED]);
      res = await send('patch', `${OTHER}/orders/${created.code}/`, { comment: 'x' });
      expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
      expect((await t.http().patch(`${E}/orders/${created.code}/`).send({ comment: 'x' })).status).toBe(401);
      res = await send('put', `${E}/orders/${created.code}/`, { comment: 'x' });
      expect([res.status, res.body]).toEqual([405, { detail: 'Method "PUT" not allowed.' }]);
      expect((await get(`${E}/orders/${created.code}/`)).body).toEqual(created);
    });
  });
});
