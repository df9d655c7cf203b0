import type { Response } from 'supertest';
import type { AnswerJson, OrderPositionJson } from '../src/orders/presentation/order.presenter';
import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * `POST E/orders/` (compat §4.4 "Order creation"; pretix OrderCreateSerializer): the created order, pricing and
 * tax, payments, codes and secrets, every validation rule with its exact body, vouchers, quotas, answers per
 * question type, fees, simulate, consume_carts, send_email, logs, and the quota engine counting the result.
 */
describe('order creation', () => {
  let t: TestApp;
  let token: string;
  let eventId: number;
  let otherEventId: number;
  const ORG = '/api/v1/organizers/org';
  const E = `${ORG}/events/sample`;
  const OTHER = `${ORG}/events/other`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };

  const post = (path: string, body: unknown, as = token) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(as))
      .send(body as object);
  const get = (path: string, as = token) => t.http().get(path).set('Authorization', auth(as));
  const create = (body: Record<string, unknown>) => post(`${E}/orders/`, body);

  /** The body of a response that must have the given status (untyped: the assertions check it). */
  async function ok(res: Response, status = 201) {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** An item through the API (10.00, no tax rule unless given). */
  async function item(body: Record<string, unknown> = {}, base = E): Promise<number> {
    return (
      await ok(await post(`${base}/items/`, { name: { en: 'Ticket' }, default_price: '10.00', ...body }))
    ).id as number;
  }

  async function quota(body: Record<string, unknown>, base = E): Promise<number> {
    return (await ok(await post(`${base}/quotas/`, { name: 'Q', size: 10, ...body }))).id as number;
  }

  /** An item with its own quota of `size` places. */
  async function product(size: number | null = 10, body: Record<string, unknown> = {}) {
    const id = await item(body);
    const q = await quota({ size, items: [id] });
    return { item: id, quota: q };
  }

  async function availability(quotaId: number) {
    return ok(await get(`${E}/quotas/${quotaId}/availability/`), 200);
  }

  async function voucher(body: Record<string, unknown>) {
    return ok(await post(`${E}/vouchers/`, body));
  }

  async function count(table: string, where = 'true', params: unknown[] = []): Promise<number> {
    const rows: { n: string }[] = await t.db.query(
      `SELECT count(*) AS n FROM ${table} WHERE ${where}`,
      params,
    );
    return Number(rows[0].n);
  }

  async function logs(orderCode: string): Promise<string[]> {
    const rows: { action_type: string }[] = await t.db.query(
      `SELECT l.action_type FROM log_entry l JOIN orders o ON o.id = l.object_id
        WHERE l.content_type = 'order' AND o.code = $1 ORDER BY l.id`,
      [orderCode],
    );
    return rows.map((r) => r.action_type);
  }

  /** A live cart position written by SQL (the cart API is another resource). */
  async function cart(cartId: string, itemId: number, extra: { voucher?: number; minutes?: number } = {}) {
    await t.db.query(
      `INSERT INTO cart_position (event_id, cart_id, expires, item_id, price, voucher_id)
       VALUES ($1, $2, now() + make_interval(mins => $3), $4, 10, $5)`,
      [eventId, cartId, extra.minutes ?? 30, itemId, extra.voucher ?? null],
    );
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample', timezone: 'Europe/Berlin' });
    await createEvent(t, token, 'org', { slug: 'other' });
    const rows: { id: number; slug: string }[] = await t.db.query('SELECT id, slug FROM event');
    eventId = rows.find((r) => r.slug === 'sample')!.id;
    otherEventId = rows.find((r) => r.slug === 'other')!.id;
  });
  afterAll(() => t.close());

  describe('a minimal order', () => {
    it('answers 201 with the full order, which a GET shows the same', async () => {
      const { item: itemId, quota: quotaId } = await product();
      const before = new Date();
      const res = await create({ email: 'buyer@example.org', positions: [{ item: itemId }] });
      const body = await ok(res);
      expect(body).toEqual({
        code: expect.stringMatching(/^[ABCDEFGHJKLMNPQRSTUVWXYZ1234567890]{5}$/),
        event: 'sample',
        status: 'n',
        testmode: false,
        secret: expect.stringMatching(/^[a-z0-9]{16}$/),
        email: 'buyer@example.org',
        phone: null,
        locale: 'en',
        sales_channel: 'web',
        datetime: expect.any(String),
        expires: expect.any(String),
        payment_date: null,
        payment_provider: null,
        fees: [],
        total: '10.00',
        tax_rounding_mode: 'line',
        comment: '',
        custom_followup_at: null,
        invoice_address: null,
        positions: [
          {
            id: expect.any(Number),
            order: body.code,
            positionid: 1,
            item: itemId,
            variation: null,
            price: '10.00',
            attendee_name: null,
            attendee_name_parts: {},
            company: null,
            street: null,
            zipcode: null,
            city: null,
            country: null,
            state: null,
            attendee_email: null,
            voucher: null,
            voucher_budget_use: null,
            discount: null,
            tax_rate: '0.00',
            tax_value: '0.00',
            tax_code: null,
            tax_rule: null,
            secret: expect.stringMatching(/^[a-z0-9]{32}$/),
            addon_to: null,
            subevent: null,
            checkins: [],
            print_logs: [],
            downloads: [],
            answers: [],
            seat: null,
            canceled: false,
            valid_from: null,
            valid_until: null,
            blocked: null,
            is_bundled: false,
            pseudonymization_id: expect.stringMatching(/^[A-Z0-9]{10}$/),
            plugin_data: {},
          },
        ],
        downloads: [],
        checkin_attention: false,
        checkin_text: null,
        last_modified: expect.any(String),
        payments: [],
        refunds: [],
        require_approval: false,
        valid_if_pending: false,
        url: null,
        customer: null,
        cancellation_date: null,
        api_meta: {},
        plugin_data: {},
      });
      expect(new Date(body.datetime as string).getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
      expect((await get(`${E}/orders/${body.code}/`)).body).toEqual(body);
      expect(await logs(body.code as string)).toEqual(['pretix.event.order.placed']);
      expect(await availability(quotaId)).toMatchObject({ pending_orders: 1, available_number: 9 });
    });

    it('expires 14 days later at 23:59:59 in the event time zone', async () => {
      const { item: itemId } = await product();
      const body = await ok(await create({ positions: [{ item: itemId }] }));
      const expires = new Date(body.expires as string);
      const local = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Berlin',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      }).format(expires);
      expect(local).toBe('23:59:59');
      const days = (expires.getTime() - new Date(body.datetime as string).getTime()) / 86_400_000;
      expect(days).toBeGreaterThan(13.9);
      expect(days).toBeLessThan(15.1);
    });

    it('answers 401 without credentials and 403 without event.orders:write', async () => {
      const { item: itemId } = await product();
      expect(
        (
          await t
            .http()
            .post(`${E}/orders/`)
            .send({ positions: [{ item: itemId }] })
        ).status,
      ).toBe(401);
      const reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
      const res = await post(`${E}/orders/`, { positions: [{ item: itemId }] }, reader);
      expect([res.status, res.body]).toEqual([403, DENIED]);
      expect(await count('order_position', 'item_id = $1', [itemId])).toBe(0);
    });
  });

  describe('pricing and tax', () => {
    it('computes the listed price, adds tax on top for a net rule, and takes a sent price as gross', async () => {
      const net = await ok(
        await post(`${E}/taxrules/`, { name: 'VAT', rate: '19.00', price_includes_tax: false }),
      );
      const gross = await ok(await post(`${E}/taxrules/`, { name: 'VAT incl', rate: '19.00' }));
      const netItem = await item({ default_price: '100.00', tax_rule: net.id });
      const grossItem = await item({ default_price: '119.00', tax_rule: gross.id });
      await quota({ size: null, items: [netItem, grossItem] });
      const body = await ok(
        await create({
          positions: [{ item: netItem }, { item: grossItem }, { item: netItem, price: '100.00' }],
        }),
      );
      const lines = body.positions.map((p: OrderPositionJson) => [
        p.price,
        p.tax_rate,
        p.tax_value,
        p.tax_rule,
      ]);
      expect(lines).toEqual([
        ['119.00', '19.00', '19.00', net.id],
        ['119.00', '19.00', '19.00', gross.id],
        ['100.00', '19.00', '15.97', net.id],
      ]);
      expect(body.total).toBe('338.00');
    });

    it("prices a variation with its own price, else the item's", async () => {
      const itemId = await item({
        default_price: '20.00',
        has_variations: true,
        variations: [{ value: 'S', default_price: '12.00' }, { value: 'M' }],
      });
      const variations = (await ok(await get(`${E}/items/${itemId}/`), 200)).variations as { id: number }[];
      await quota({ size: 5, items: [itemId], variations: variations.map((v) => v.id) });
      const body = await ok(
        await create({
          positions: [
            { item: itemId, variation: variations[0].id },
            { item: itemId, variation: variations[1].id },
          ],
        }),
      );
      expect(body.positions.map((p: OrderPositionJson) => [p.variation, p.price])).toEqual([
        [variations[0].id, '12.00'],
        [variations[1].id, '20.00'],
      ]);
      expect(body.total).toBe('32.00');
    });

    it('adds fees with their tax to the total', async () => {
      const rule = await ok(await post(`${E}/taxrules/`, { name: 'VAT', rate: '19.00' }));
      const { item: itemId } = await product();
      const body = await ok(
        await create({
          positions: [{ item: itemId }],
          fees: [
            {
              fee_type: 'shipping',
              value: '5.00',
              description: 'Post',
              internal_type: 'dhl',
              tax_rule: rule.id,
            },
            { fee_type: 'service', value: 1.5 },
          ],
        }),
      );
      expect(body.fees).toEqual([
        {
          id: expect.any(Number),
          fee_type: 'shipping',
          value: '5.00',
          description: 'Post',
          internal_type: 'dhl',
          tax_code: null,
          tax_rate: '19.00',
          tax_value: '0.80',
          tax_rule: rule.id,
          canceled: false,
        },
        {
          id: expect.any(Number),
          fee_type: 'service',
          value: '1.50',
          description: '',
          internal_type: '',
          tax_code: null,
          tax_rate: '0.00',
          tax_value: '0.00',
          tax_rule: null,
          canceled: false,
        },
      ]);
      expect(body.total).toBe('16.50');
    });

    it('gives an add-on whose parent includes its category the price 0.00', async () => {
      const category = await ok(await post(`${E}/categories/`, { name: 'Extras', is_addon: true }));
      const parent = await item();
      const addon = await item({ default_price: '7.00', category: category.id });
      await ok(
        await post(`${E}/items/${parent}/addons/`, { addon_category: category.id, price_included: true }),
      );
      await quota({ size: null, items: [parent, addon] });
      const body = await ok(
        await create({
          positions: [
            { positionid: 1, item: parent },
            { positionid: 2, item: addon, addon_to: 1 },
          ],
        }),
      );
      expect(body.positions[1]).toMatchObject({
        addon_to: body.positions[0].id,
        price: '0.00',
        positionid: 2,
      });
      expect(body.total).toBe('10.00');
    });
  });

  describe('payments and status', () => {
    it('status p: a confirmed manual payment dated now, logged placed and paid, counted as paid', async () => {
      const { item: itemId, quota: quotaId } = await product();
      const body = await ok(await create({ status: 'p', positions: [{ item: itemId }] }));
      expect(body.status).toBe('p');
      expect(body.payments).toEqual([
        {
          local_id: 1,
          state: 'confirmed',
          amount: '10.00',
          created: expect.any(String),
          payment_date: expect.any(String),
          provider: 'manual',
          payment_url: null,
          details: {},
        },
      ]);
      expect(body.payment_provider).toBe('manual');
      expect(body.payment_date).toBe((body.payments[0].payment_date as string).slice(0, 10));
      expect(await logs(body.code as string)).toEqual([
        'pretix.event.order.placed',
        'pretix.event.order.paid',
      ]);
      expect(await availability(quotaId)).toMatchObject({
        paid_orders: 1,
        pending_orders: 0,
        available_number: 9,
      });
    });

    it('status p with payment_provider, payment_date and payment_info', async () => {
      const { item: itemId } = await product();
      const body = await ok(
        await create({
          status: 'p',
          payment_provider: 'banktransfer',
          payment_date: '2030-01-02T10:00:00+01:00',
          payment_info: { reference: 'X1' },
          positions: [{ item: itemId }],
        }),
      );
      expect(body.payments[0]).toMatchObject({
        state: 'confirmed',
        provider: 'banktransfer',
        payment_date: '2030-01-02T09:00:00Z',
      });
      const rows: { info: unknown }[] = await t.db.query(
        'SELECT p.info FROM order_payment p JOIN orders o ON o.id = p.order_id WHERE o.code = $1',
        [body.code],
      );
      expect(rows).toEqual([{ info: { reference: 'X1' } }]);
    });

    it('status n with a payment_provider: a payment in state created', async () => {
      const { item: itemId } = await product();
      const body = await ok(
        await create({ payment_provider: 'banktransfer', positions: [{ item: itemId }] }),
      );
      expect(body.status).toBe('n');
      expect(body.payments).toMatchObject([
        { state: 'created', provider: 'banktransfer', payment_date: null },
      ]);
      // The provider asked for is returned (it was null before, though stored on the payment).
      expect(body.payment_provider).toBe('banktransfer');
      expect((await get(`${E}/orders/${body.code}/`)).body.payment_provider).toBe('banktransfer');
    });

    it('refuses a payment_provider it does not know (400 on the field, nothing written)', async () => {
      const { item: itemId } = await product();
      const before = await count('orders');
      for (const provider of ['stripe', 'giftcard', 'Manual', '']) {
        const res = await create({ status: 'p', payment_provider: provider, positions: [{ item: itemId }] });
        expect([provider, res.status, res.body]).toEqual([
          provider,
          400,
          {
            payment_provider: [
              provider === '' ? 'This field may not be blank.' : 'The given payment provider is not known.',
            ],
          },
        ]);
      }
      expect(await count('orders')).toBe(before);
      for (const provider of ['manual', 'banktransfer', 'boxoffice', 'offsetting']) {
        const body = await ok(await create({ payment_provider: provider, positions: [{ item: itemId }] }));
        expect([body.payment_provider, body.payments[0].provider]).toEqual([provider, provider]);
      }
    });

    it('a free pending order becomes paid with a free payment; a free paid one too', async () => {
      const { item: itemId, quota: quotaId } = await product(10, { default_price: '0.00' });
      for (const status of ['n', 'p']) {
        const body = await ok(await create({ status, positions: [{ item: itemId }] }));
        expect([body.status, body.total]).toEqual(['p', '0.00']);
        expect(body.payments).toMatchObject([{ state: 'confirmed', provider: 'free', amount: '0.00' }]);
        expect(await logs(body.code as string)).toEqual([
          'pretix.event.order.placed',
          'pretix.event.order.paid',
        ]);
      }
      expect(await availability(quotaId)).toMatchObject({ paid_orders: 2 });
    });

    it('refuses the free provider for an order that is not free (bare list), writing nothing', async () => {
      const { item: itemId } = await product();
      const before = await count('orders');
      const res = await create({ status: 'p', payment_provider: 'free', positions: [{ item: itemId }] });
      expect([res.status, res.body]).toEqual([
        400,
        ['You cannot use the "free" payment provider for non-free orders.'],
      ]);
      expect(await count('orders')).toBe(before);
    });

    it('stores the other order fields', async () => {
      const { item: itemId } = await product();
      const body = await ok(
        await create({
          testmode: true,
          email: 'a@example.org',
          phone: '+4930123',
          locale: 'de',
          sales_channel: 'api',
          comment: 'VIP',
          checkin_attention: true,
          checkin_text: 'Say hi',
          custom_followup_at: '2030-05-01',
          require_approval: true,
          valid_if_pending: true,
          api_meta: { crm: { id: 7 } },
          positions: [{ item: itemId }],
        }),
      );
      expect(body).toMatchObject({
        testmode: true,
        email: 'a@example.org',
        phone: '+4930123',
        locale: 'de',
        sales_channel: 'api',
        comment: 'VIP',
        checkin_attention: true,
        checkin_text: 'Say hi',
        custom_followup_at: '2030-05-01',
        require_approval: true,
        valid_if_pending: true,
        api_meta: { crm: { id: 7 } },
      });
      expect(await logs(body.code as string)).toEqual([
        'pretix.event.order.placed',
        'pretix.event.order.placed.require_approval',
      ]);
    });
  });

  describe('codes, secrets, names, addresses', () => {
    it('uses a sent code; refuses invalid characters, a short code and a code used in the organizer', async () => {
      const { item: itemId } = await product();
      const otherItem = await item({}, OTHER);
      await quota({ size: null, items: [otherItem] }, OTHER);
      expect(
        (await ok(await post(`${OTHER}/orders/`, { code: 'TAKEN1', positions: [{ item: otherItem }] }))).code,
      ).toBe('TAKEN1');
      expect((await ok(await create({ code: 'MYCDE2', positions: [{ item: itemId }] }))).code).toBe('MYCDE2');
      for (const [code, message] of [
        ['abcde', 'This order code contains invalid characters.'],
        ['ABCDI', 'This order code contains invalid characters.'],
        ['ABC', 'Ensure this field has at least 5 characters.'],
        ['ABCDEFGHJKLMNPQRS', 'Ensure this field has no more than 16 characters.'],
        ['TAKEN1', 'This order code is already in use.'],
        ['MYCDE2', 'This order code is already in use.'],
      ]) {
        const res = await create({ code, positions: [{ item: itemId }] });
        expect([code, res.status, res.body]).toEqual([code, 400, { code: [message] }]);
      }
    });

    it('stores a sent secret; refuses one that exists in the event or twice in the request', async () => {
      const { item: itemId } = await product();
      const body = await ok(await create({ positions: [{ item: itemId, secret: 'my-own-secret-1' }] }));
      expect(body.positions[0].secret).toBe('my-own-secret-1');
      const res = await create({
        positions: [
          { item: itemId, secret: 'my-own-secret-1' },
          { item: itemId, secret: 'fresh-secret' },
          { item: itemId, secret: 'fresh-secret' },
        ],
      });
      const EXISTS = ['You cannot assign a position secret that already exists.'];
      expect([res.status, res.body]).toEqual([
        400,
        { positions: [{ secret: EXISTS }, {}, { secret: EXISTS }] },
      ]);
    });

    it('stores attendee names, addresses and e-mails; a plain name as _legacy', async () => {
      const { item: itemId } = await product();
      const body = await ok(
        await create({
          positions: [
            { item: itemId, attendee_name: 'Jane Doe', attendee_email: 'jane@example.org' },
            {
              item: itemId,
              attendee_name_parts: { given_name: 'John', family_name: 'Roe' },
              company: 'ACME',
              street: 'Main St 1',
              zipcode: '10115',
              city: 'Berlin',
              country: 'de',
              state: '',
            },
          ],
        }),
      );
      expect(body.positions[0]).toMatchObject({
        attendee_name: 'Jane Doe',
        attendee_name_parts: { _legacy: 'Jane Doe' },
        attendee_email: 'jane@example.org',
      });
      expect(body.positions[1]).toMatchObject({
        attendee_name: 'John Roe',
        attendee_name_parts: { given_name: 'John', family_name: 'Roe' },
        company: 'ACME',
        street: 'Main St 1',
        zipcode: '10115',
        city: 'Berlin',
        country: 'DE',
        state: '',
      });
    });

    it('refuses attendee_name with attendee_name_parts, and an invalid country or e-mail', async () => {
      const { item: itemId } = await product();
      let res = await create({
        positions: [
          { item: itemId },
          { item: itemId, attendee_name: 'A', attendee_name_parts: { given_name: 'B' } },
        ],
      });
      expect([res.status, res.body]).toEqual([
        400,
        {
          positions: [
            {},
            { attendee_name: ['Do not specify attendee_name if you specified attendee_name_parts.'] },
          ],
        },
      ]);
      // Type errors of the body are found before the rules that need the database (and reported together).
      res = await create({
        positions: [
          { item: itemId, country: 'XX' },
          { item: itemId, attendee_email: 'not-an-email' },
        ],
      });
      expect([res.status, res.body]).toEqual([
        400,
        {
          positions: [
            { country: ['Invalid country code.'] },
            { attendee_email: ['Enter a valid email address.'] },
          ],
        },
      ]);
    });

    it('stores the invoice address (name as _legacy, or name parts) and refuses name with name_parts', async () => {
      const { item: itemId } = await product();
      const address = {
        is_business: true,
        company: 'ACME',
        name: 'Jane Doe',
        street: 'Main St 1',
        zipcode: '10115',
        city: 'Berlin',
        country: 'DE',
        state: '',
        vat_id: 'DE123',
        vat_id_validated: true,
        custom_field: 'PO 7',
        internal_reference: 'ref',
      };
      const body = await ok(await create({ invoice_address: address, positions: [{ item: itemId }] }));
      expect(body.invoice_address).toEqual({
        ...address,
        name_parts: { _legacy: 'Jane Doe' },
        last_modified: expect.any(String),
        transmission_type: 'email',
        transmission_info: {},
      });
      const parts = await ok(
        await create({
          invoice_address: { name_parts: { given_name: 'Jo', family_name: 'Do' } },
          positions: [{ item: itemId }],
        }),
      );
      expect(parts.invoice_address).toMatchObject({
        name: 'Jo Do',
        name_parts: { given_name: 'Jo', family_name: 'Do' },
        company: '',
        country: '',
        is_business: false,
        custom_field: null,
      });
      for (const [input, errors] of [
        [
          { name: 'A', name_parts: { given_name: 'B' } },
          { name: ['Do not specify name if you specified name_parts.'] },
        ],
        [{ country: 'XX' }, { country: ['Invalid country code.'] }],
        ['street', ['Invalid data. Expected a dictionary, but got str.']],
      ] as const) {
        const res = await create({ invoice_address: input, positions: [{ item: itemId }] });
        expect([res.status, res.body]).toEqual([400, { invoice_address: errors }]);
      }
    });
  });

  describe('field rules', () => {
    it('requires positions, and refuses an empty list', async () => {
      for (const [positions, message] of [
        [undefined, 'This field is required.'],
        [null, 'This field may not be null.'],
        [[], 'An order cannot be empty.'],
        ['x', 'Expected a list of items but got type "str".'],
      ] as const) {
        const res = await create({ positions });
        expect([res.status, res.body]).toEqual([400, { positions: [message] }]);
      }
    });

    it('refuses unknown top-level values with field errors', async () => {
      const { item: itemId } = await product();
      const res = await create({
        status: 'e',
        sales_channel: 5,
        email: 'x',
        custom_followup_at: '01.05.2030',
        fees: [{ fee_type: 'tip', value: '1.001' }],
        positions: [{ item: itemId }],
      });
      expect([res.status, res.body]).toEqual([
        400,
        {
          status: ['"e" is not a valid choice.'],
          sales_channel: ['Unknown sales channel.'],
          email: ['Enter a valid email address.'],
          custom_followup_at: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
          fees: [
            {
              fee_type: ['"tip" is not a valid choice.'],
              value: ['Ensure that there are no more than 2 decimal places.'],
            },
          ],
        },
      ]);
    });

    it('refuses a fee tax rule of another event or unknown', async () => {
      const { item: itemId } = await product();
      const foreign = await ok(await post(`${OTHER}/taxrules/`, { name: 'VAT', rate: '7.00' }));
      const res = await create({
        positions: [{ item: itemId }],
        fees: [
          { fee_type: 'other', value: '1.00', tax_rule: foreign.id },
          { fee_type: 'other', value: '1.00' },
          { fee_type: 'other', value: '1.00', tax_rule: 999999 },
        ],
      });
      expect([res.status, res.body]).toEqual([
        400,
        {
          fees: [
            { tax_rule: [`Invalid pk "${foreign.id}" - object does not exist.`] },
            {},
            { tax_rule: ['Invalid pk "999999" - object does not exist.'] },
          ],
        },
      ]);
    });

    it('checks items: unknown, of another event or organizer, inactive, missing; errors aligned with the others', async () => {
      const { item: itemId } = await product();
      const inactive = await item({ active: false });
      const foreign = await item({}, OTHER);
      const { token: outsiderToken } = await bootstrapOrganizer(t, 'outsider');
      await createEvent(t, outsiderToken, 'outsider', { slug: 'x' });
      const alien = await ok(
        await post(
          '/api/v1/organizers/outsider/events/x/items/',
          { name: 'A', default_price: '1.00' },
          outsiderToken,
        ),
      );
      const res = await create({
        code: 'abcde',
        positions: [
          { item: itemId },
          { item: 999999 },
          { item: foreign },
          { item: alien.id },
          { item: inactive },
        ],
      });
      expect([res.status, res.body]).toEqual([
        400,
        {
          code: ['This order code contains invalid characters.'],
          positions: [
            {},
            { item: ['Invalid pk "999999" - object does not exist.'] },
            { item: ['The specified item does not belong to this event.'] },
            { item: [`Invalid pk "${alien.id}" - object does not exist.`] },
            { item: ['The specified item is not active.'] },
          ],
        },
      ]);
      const missing = await create({ positions: [{ item: itemId }, { variation: 1 }] });
      expect([missing.status, missing.body]).toEqual([
        400,
        { positions: [{}, { item: ['This field is required.'] }] },
      ]);
    });

    it('checks variations like pretix', async () => {
      const withVariations = await item({ has_variations: true, variations: [{ value: 'S' }] });
      const another = await item({ has_variations: true, variations: [{ value: 'L' }] });
      const simple = await item();
      const v1 = (await ok(await get(`${E}/items/${withVariations}/`), 200)).variations[0].id as number;
      const v2 = (await ok(await get(`${E}/items/${another}/`), 200)).variations[0].id as number;
      const foreign = await item({ has_variations: true, variations: [{ value: 'X' }] }, OTHER);
      const v3 = (await ok(await get(`${OTHER}/items/${foreign}/`), 200)).variations[0].id as number;
      const res = await create({
        positions: [
          { item: withVariations },
          { item: withVariations, variation: v2 },
          { item: simple, variation: v1 },
          { item: simple, variation: 999999 },
          { item: withVariations, variation: v3 },
        ],
      });
      expect([res.status, res.body]).toEqual([
        400,
        {
          positions: [
            { variation: ['You should specify a variation for this item.'] },
            { variation: ['The specified variation does not belong to the specified item.'] },
            { variation: ['You cannot specify a variation for this item.'] },
            { variation: ['Invalid pk "999999" - object does not exist.'] },
            { variation: [`Invalid pk "${v3}" - object does not exist.`] },
          ],
        },
      ]);
    });

    it('refuses a sub-event on an event without sub-events, requires one on a series, refuses a seat for an unseated product', async () => {
      const { item: itemId } = await product();
      let res = await create({ positions: [{ item: itemId, subevent: 3 }] });
      expect([res.status, res.body]).toEqual([
        400,
        { positions: [{ subevent: ['You cannot set a subevent for this event.'] }] },
      ]);
      await createSeries(t, token, 'org', { slug: 'series' });
      const seriesItem = await item({}, `${ORG}/events/series`);
      res = await post(`${ORG}/events/series/orders/`, {
        positions: [{ item: seriesItem }, { item: seriesItem, subevent: 4 }],
      });
      expect([res.status, res.body]).toEqual([
        400,
        {
          positions: [
            { subevent: ['You need to set a subevent.'] },
            { subevent: ['Invalid pk "4" - object does not exist.'] },
          ],
        },
      ]);
      res = await create({ positions: [{ item: itemId, seat: 'abc-def' }] });
      expect([res.status, res.body]).toEqual([
        400,
        { positions: [{ seat: ['The specified product does not allow to choose a seat.'] }] },
      ]);
    });

    it('checks position ids and add-ons exactly as pretix', async () => {
      const { item: itemId } = await product(null);
      const cases: [Record<string, unknown>[], unknown[]][] = [
        [
          [{ positionid: 1 }, {}],
          [{}, { positionid: ['If you set position IDs manually, you need to do so for all positions.'] }],
        ],
        [
          [{ positionid: 1 }, { positionid: 3 }],
          [{}, { positionid: ['Position IDs need to be consecutive.'] }],
        ],
        [[{ positionid: 2 }], [{ positionid: ['Position IDs need to be consecutive.'] }]],
        [
          [
            { positionid: 1 },
            { positionid: 2, addon_to: 1 },
            { positionid: 3 },
            { positionid: 4, addon_to: 1 },
          ],
          [
            {},
            {},
            {},
            {
              addon_to: [
                'If you set addon_to, you need to make sure that the referenced position ID exists and is transmitted directly before its add-ons.',
              ],
            },
          ],
        ],
        [
          [{}, { addon_to: 1 }],
          [
            {
              positionid: ['If you set addon_to on any position, you need to specify position IDs manually.'],
            },
            {
              positionid: ['If you set addon_to on any position, you need to specify position IDs manually.'],
            },
          ],
        ],
      ];
      for (const [positions, errors] of cases) {
        const res = await create({ positions: positions.map((p) => ({ item: itemId, ...p })) });
        expect([res.status, res.body]).toEqual([400, { positions: errors }]);
      }
      const body = await ok(
        await create({
          positions: [
            { positionid: 1, item: itemId },
            { positionid: 2, item: itemId, addon_to: 1 },
            { positionid: 3, item: itemId, addon_to: 1 },
            { positionid: 4, item: itemId },
          ],
        }),
      );
      const ids = body.positions.map((p: OrderPositionJson) => p.id);
      expect(body.positions.map((p: OrderPositionJson) => [p.positionid, p.addon_to])).toEqual([
        [1, null],
        [2, ids[0]],
        [3, ids[0]],
        [4, null],
      ]);
    });

    it('computes validity from the item, or takes valid_from/valid_until as sent', async () => {
      const fixed = await item({
        validity_mode: 'fixed',
        validity_fixed_from: '2030-01-01T00:00:00Z',
        validity_fixed_until: '2030-12-31T23:00:00Z',
      });
      const daily = await item({ validity_mode: 'dynamic', validity_dynamic_duration_days: 1 });
      await quota({ size: null, items: [fixed, daily] });
      const body = await ok(
        await create({
          positions: [{ item: fixed }, { item: daily }, { item: fixed, valid_from: '2031-01-01T10:00:00Z' }],
        }),
      );
      expect(body.positions[0]).toMatchObject({
        valid_from: '2030-01-01T00:00:00Z',
        valid_until: '2030-12-31T23:00:00Z',
      });
      const until = new Date(body.positions[1].valid_until as string);
      const berlin = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Berlin',
        dateStyle: 'short',
        timeStyle: 'medium',
        hourCycle: 'h23',
      });
      expect(berlin.format(until)).toBe(
        `${berlin.format(new Date(body.positions[1].valid_from as string)).slice(0, 10)}, 23:59:59`,
      );
      expect(body.positions[2]).toMatchObject({ valid_from: '2031-01-01T10:00:00Z', valid_until: null });
    });
  });

  describe('answers', () => {
    const questions: Record<string, { id: number; options: { id: number; identifier: string }[] }> = {};
    let itemId: number;

    beforeAll(async () => {
      ({ item: itemId } = await product(null));
      for (const type of ['N', 'B', 'D', 'H', 'W', 'S', 'F', 'C', 'M']) {
        const q = await ok(
          await post(`${E}/questions/`, {
            question: `Q ${type}`,
            type,
            items: [itemId],
            ...(type === 'C' || type === 'M' ? { options: [{ answer: 'Red' }, { answer: 'Blue' }] } : {}),
          }),
        );
        questions[type] = q;
      }
    });

    const answer = (type: string, value: unknown) => ({ question: questions[type].id, ...(value as object) });
    const errorOf = async (a: Record<string, unknown>) => {
      const res = await create({ positions: [{ item: itemId, answers: [a] }] });
      expect(res.status).toBe(400);
      return res.body.positions[0].answers[0];
    };

    it('stores normalised answers per type, with option ids and identifiers', async () => {
      const [red, blue] = questions.M.options;
      const body = await ok(
        await create({
          positions: [
            {
              item: itemId,
              answers: [
                answer('N', { answer: '3.50' }),
                answer('B', { answer: 'True' }),
                answer('D', { answer: '2030-01-02' }),
                answer('H', { answer: '10:30' }),
                answer('W', { answer: '2030-01-02T10:00:00+01:00' }),
                answer('S', { answer: 'free text' }),
                answer('C', { options: [questions.C.options[1].id] }),
                answer('M', { options: [red.id, blue.id] }),
              ],
            },
            { item: itemId, answers: [answer('B', { answer: '0' })] },
          ],
        }),
      );
      expect(body.positions[0].answers).toEqual([
        {
          question: questions.N.id,
          answer: '3.50',
          question_identifier: expect.any(String),
          options: [],
          option_identifiers: [],
        },
        {
          question: questions.B.id,
          answer: 'True',
          question_identifier: expect.any(String),
          options: [],
          option_identifiers: [],
        },
        {
          question: questions.D.id,
          answer: '2030-01-02',
          question_identifier: expect.any(String),
          options: [],
          option_identifiers: [],
        },
        {
          question: questions.H.id,
          answer: '10:30:00',
          question_identifier: expect.any(String),
          options: [],
          option_identifiers: [],
        },
        {
          question: questions.W.id,
          answer: '2030-01-02T09:00:00Z',
          question_identifier: expect.any(String),
          options: [],
          option_identifiers: [],
        },
        {
          question: questions.S.id,
          answer: 'free text',
          question_identifier: expect.any(String),
          options: [],
          option_identifiers: [],
        },
        {
          question: questions.C.id,
          answer: 'Blue',
          question_identifier: expect.any(String),
          options: [questions.C.options[1].id],
          option_identifiers: [questions.C.options[1].identifier],
        },
        {
          question: questions.M.id,
          answer: 'Red, Blue',
          question_identifier: expect.any(String),
          options: [red.id, blue.id],
          option_identifiers: [red.identifier, blue.identifier],
        },
      ]);
      expect(body.positions[1].answers.map((a: AnswerJson) => a.answer)).toEqual(['False']);
      expect((await get(`${E}/orders/${body.code}/`)).body.positions).toEqual(body.positions);
    });

    it('refuses malformed answers with the messages of pretix, per type', async () => {
      const cases: [Record<string, unknown>, unknown][] = [
        [answer('N', { answer: 'foo' }), { non_field_errors: ['A valid number is required.'] }],
        [
          answer('B', { answer: 'bla' }),
          { non_field_errors: ['Please specify "true" or "false" for boolean questions.'] },
        ],
        [
          answer('D', { answer: '02.01.2030' }),
          { non_field_errors: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] },
        ],
        [
          answer('H', { answer: '25:00' }),
          {
            non_field_errors: [
              'Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].',
            ],
          },
        ],
        [
          answer('W', { answer: 'tomorrow' }),
          {
            non_field_errors: [
              'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
            ],
          },
        ],
        [
          // Not an upload of this credential (README "Uploads and file answers").
          answer('F', { answer: 'file:abc' }),
          { non_field_errors: ['The submitted file ID "file:abc" was not found.'] },
        ],
        [
          answer('C', { options: questions.C.options.map((o) => o.id) }),
          { non_field_errors: ['You can specify at most one option for this question.'] },
        ],
        [
          answer('C', { answer: 'Red' }),
          { non_field_errors: ['You need to specify options if the question is of a choice type.'] },
        ],
        [
          answer('C', { options: [questions.M.options[0].id] }),
          { non_field_errors: ['The specified option does not belong to this question.'] },
        ],
        [answer('M', { options: [999999] }), { options: ['Invalid pk "999999" - object does not exist.'] }],
        [
          answer('S', { answer: 'x', options: [questions.C.options[0].id] }),
          { non_field_errors: ['You should not specify options if the question is not of a choice type.'] },
        ],
        [{ question: 999999, answer: 'x' }, { question: ['Invalid pk "999999" - object does not exist.'] }],
        [{ answer: 'x' }, { question: ['This field is required.'] }],
      ];
      for (const [input, expected] of cases) {
        expect([input, await errorOf(input)]).toEqual([input, expected]);
      }
    });

    it('refuses a question of another event, aligned with the answers and positions', async () => {
      const foreignItem = await item({}, OTHER);
      const foreign = await ok(
        await post(`${OTHER}/questions/`, { question: 'Q', type: 'S', items: [foreignItem] }),
      );
      const res = await create({
        positions: [
          { item: itemId },
          { item: itemId, answers: [answer('S', { answer: 'ok' }), { question: foreign.id, answer: 'x' }] },
        ],
      });
      expect([res.status, res.body]).toEqual([
        400,
        {
          positions: [
            {},
            { answers: [{}, { question: ['The specified question does not belong to this event.'] }] },
          ],
        },
      ]);
    });
  });

  describe('vouchers', () => {
    const USED_UP = 'The voucher has already been used the maximum number of times.';

    async function redeemed(id: number): Promise<{ redeemed: number; budget_used: string }> {
      const rows = await t.db.query('SELECT redeemed, budget_used FROM voucher WHERE id = $1', [id]);
      return rows[0];
    }

    it('takes a voucher by id or by code (any case), prices with it and redeems it', async () => {
      const { item: itemId } = await product();
      const v = await voucher({
        code: 'Half-Price',
        item: itemId,
        price_mode: 'percent',
        value: '50.00',
        max_usages: 5,
      });
      const body = await ok(
        await create({
          positions: [
            { item: itemId, voucher: v.id },
            { item: itemId, voucher: 'half-PRICE' },
          ],
        }),
      );
      expect(
        body.positions.map((p: OrderPositionJson) => [p.voucher, p.price, p.voucher_budget_use]),
      ).toEqual([
        [v.id, '5.00', '5.00'],
        [v.id, '5.00', '5.00'],
      ]);
      expect(await redeemed(v.id)).toEqual({ redeemed: 2, budget_used: '10.00' });
      expect((await get(`${E}/vouchers/${v.id}/`)).body).toMatchObject({ redeemed: 2 });
    });

    it('enforces min_usages: the first order must use the voucher that many times (400 on positions)', async () => {
      const { item: itemId } = await product();
      const v = await voucher({ code: 'GROUP-3', item: itemId, max_usages: 10, min_usages: 3 });
      const before = await count('orders');
      const msg = 'The voucher code "GROUP-3" can only be used if you select at least 3 matching products.';
      const two = await create({
        positions: [{ item: itemId, voucher: v.id }, { item: itemId, voucher: v.id }, { item: itemId }],
      });
      expect([two.status, two.body]).toEqual([
        400,
        { positions: [{ voucher: [msg] }, { voucher: [msg] }, {}] },
      ]);
      expect(await count('orders')).toBe(before);
      expect(await redeemed(v.id)).toEqual({ redeemed: 0, budget_used: '0.00' });
      const three = await ok(
        await create({ positions: [1, 2, 3].map(() => ({ item: itemId, voucher: v.id })) }),
      );
      expect(three.positions).toHaveLength(3);
      // Once redeemed 3 times, min_usages - redeemed is below 1: a single use is fine.
      await ok(await create({ positions: [{ item: itemId, voucher: 'group-3' }] }));
      expect(await redeemed(v.id)).toMatchObject({ redeemed: 4 });
      // force skips it like the other voucher-usage checks.
      const forced = await voucher({ code: 'GROUP-5', item: itemId, max_usages: 10, min_usages: 5 });
      await ok(await create({ force: true, positions: [{ item: itemId, voucher: forced.id }] }));
    });

    it('refuses unknown vouchers by id and by code, vouchers of another event, and vouchers on add-ons', async () => {
      const { item: itemId } = await product(null);
      const foreign = await ok(await post(`${OTHER}/vouchers/`, { code: 'FOREIGN-1' }));
      const v = await voucher({ code: 'ADDON-TRY' });
      const res = await create({
        positions: [
          { positionid: 1, item: itemId, voucher: 999999 },
          { positionid: 2, item: itemId, voucher: 'NOPE-NOPE' },
          { positionid: 3, item: itemId, voucher: foreign.id },
          { positionid: 4, item: itemId, voucher: 'foreign-1' },
          { positionid: 5, item: itemId },
          { positionid: 6, item: itemId, addon_to: 5, voucher: v.id },
        ],
      });
      expect([res.status, res.body]).toEqual([
        400,
        {
          positions: [
            { voucher: ['Invalid pk "999999" - object does not exist.'] },
            { voucher: ['The specified voucher does not exist.'] },
            { voucher: [`Invalid pk "${foreign.id}" - object does not exist.`] },
            { voucher: ['The specified voucher does not exist.'] },
            {},
            {},
          ],
        },
      ]);
      const addon = await create({
        positions: [
          { positionid: 1, item: itemId },
          { positionid: 2, item: itemId, addon_to: 1, voucher: v.id },
          { positionid: 3, item: itemId, addon_to: 1, seat: 'x' },
        ],
      });
      expect([addon.status, addon.body]).toEqual([
        400,
        {
          positions: [
            {},
            { voucher: ['Vouchers are currently not supported for add-on products.'] },
            { seat: ['Seats are currently not supported for add-on products.'] },
          ],
        },
      ]);
    });

    it('refuses a voucher for another product, an expired one, and one of a quota not holding the product', async () => {
      const a = await product();
      const b = await product();
      const forA = await voucher({ item: a.item });
      const expired = await voucher({ valid_until: '2020-01-01T00:00:00Z' });
      const quotaA = await voucher({ quota: a.quota, max_usages: 3 });
      const res = await create({
        positions: [
          { item: b.item, voucher: forA.id },
          { item: a.item, voucher: expired.id },
          { item: b.item, voucher: quotaA.id },
          { item: a.item, voucher: quotaA.id },
        ],
      });
      expect([res.status, res.body]).toEqual([
        400,
        {
          positions: [
            {
              voucher: [
                'The voucher code used for one of the items in your cart is not valid for this product. We removed this item from your cart.',
              ],
            },
            {
              voucher: [
                'The voucher code used for one of the items in your cart is expired. We removed this item from your cart.',
              ],
            },
            {
              voucher: [
                'The voucher code used for one of the items in your cart is not valid for this product. We removed this item from your cart.',
              ],
            },
            {},
          ],
        },
      ]);
      expect(await redeemed(quotaA.id as number)).toEqual({ redeemed: 0, budget_used: '0.00' });
    });

    it('counts uses within the request, earlier orders and live carts; force skips the usage check', async () => {
      const { item: itemId } = await product(null);
      const once = await voucher({ item: itemId, max_usages: 1 });
      let res = await create({
        positions: [
          { item: itemId, voucher: once.id },
          { item: itemId, voucher: once.id },
        ],
      });
      expect([res.status, res.body]).toEqual([400, { positions: [{}, { voucher: [USED_UP] }] }]);
      await ok(await create({ positions: [{ item: itemId, voucher: once.id }] }));
      res = await create({ positions: [{ item: itemId, voucher: once.id }] });
      expect([res.status, res.body]).toEqual([400, { positions: [{ voucher: [USED_UP] }] }]);
      await ok(await create({ force: true, positions: [{ item: itemId, voucher: once.id }] }));
      expect(await redeemed(once.id as number)).toMatchObject({ redeemed: 2 });

      const inCart = await voucher({ item: itemId, max_usages: 1 });
      await cart('held@api', itemId, { voucher: inCart.id });
      await cart('gone@api', itemId, { voucher: inCart.id, minutes: -5 });
      res = await create({ positions: [{ item: itemId, voucher: inCart.id }] });
      expect([res.status, res.body]).toEqual([400, { positions: [{ voucher: [USED_UP] }] }]);
      const body = await ok(
        await create({ consume_carts: ['held@api'], positions: [{ item: itemId, voucher: inCart.id }] }),
      );
      expect(body.positions[0].voucher).toBe(inCart.id);
      expect(await count('cart_position', "cart_id = 'held@api'")).toBe(0);
      expect(await count('cart_position', "cart_id = 'gone@api'")).toBe(1);
    });

    it('caps discounts by the budget: raises a computed price, refuses a sent one', async () => {
      const { item: itemId } = await product(null);
      const v = await voucher({
        item: itemId,
        price_mode: 'subtract',
        value: '4.00',
        budget: '6.00',
        max_usages: 10,
      });
      let body = await ok(await create({ positions: [{ item: itemId, voucher: v.id }] }));
      expect([body.positions[0].price, body.positions[0].voucher_budget_use]).toEqual(['6.00', '4.00']);
      body = await ok(await create({ positions: [{ item: itemId, voucher: v.id }] }));
      expect([body.positions[0].price, body.positions[0].voucher_budget_use]).toEqual(['8.00', '2.00']);
      expect(await redeemed(v.id as number)).toEqual({ redeemed: 2, budget_used: '6.00' });
      let res = await create({ positions: [{ item: itemId, voucher: v.id }] });
      expect([res.status, res.body]).toEqual([
        400,
        {
          positions: [
            {
              voucher: [
                'The voucher has a remaining budget of 0.00, therefore a discount of 4.00 can not be given.',
              ],
            },
          ],
        },
      ]);
      const fresh = await voucher({ item: itemId, budget: '6.00', max_usages: 10 });
      res = await create({ positions: [{ item: itemId, voucher: fresh.id, price: '2.00' }] });
      expect([res.status, res.body]).toEqual([
        400,
        {
          positions: [
            {
              voucher: [
                'The voucher has a remaining budget of 6.00, therefore a discount of 8.00 can not be given.',
              ],
            },
          ],
        },
      ]);
      expect(await redeemed(fresh.id as number)).toEqual({ redeemed: 0, budget_used: '0.00' });
    });

    it('lets a voucher that ignores or blocks quota skip the quota check, each place counted once', async () => {
      const full = await product(0);
      const ignore = await voucher({ item: full.item, allow_ignore_quota: true });
      await ok(await create({ positions: [{ item: full.item, voucher: ignore.id }] }));

      const { item: itemId, quota: quotaId } = await product(1);
      const blocking = await voucher({ item: itemId, block_quota: true });
      expect(await availability(quotaId)).toMatchObject({ blocking_vouchers: 1, available_number: 0 });
      const res = await create({ positions: [{ item: itemId }] });
      expect([res.status, res.body]).toEqual([
        400,
        {
          positions: [
            { item: ['There is not enough quota available on quota "Q" to perform the operation.'] },
          ],
        },
      ]);
      await ok(await create({ positions: [{ item: itemId, voucher: blocking.id }] }));
      expect(await availability(quotaId)).toMatchObject({
        blocking_vouchers: 0,
        pending_orders: 1,
        available_number: 0,
      });
    });
  });

  describe('quotas', () => {
    const EXCEEDED = (name: string) =>
      `There is not enough quota available on quota "${name}" to perform the operation.`;

    it('refuses a product without a quota, unless force', async () => {
      const itemId = await item({ name: 'Loose' });
      const res = await create({ positions: [{ item: itemId }] });
      expect([res.status, res.body]).toEqual([
        400,
        { positions: [{ item: ['The product "Loose" is not assigned to a quota.'] }] },
      ]);
      await ok(await create({ force: true, positions: [{ item: itemId }] }));
    });

    it('puts a quota shortage on every position drawing on it, writing nothing', async () => {
      const a = await item();
      const b = await item();
      const qa = await quota({ name: 'Small', size: 1, items: [a] });
      await quota({ name: 'Big', size: 5, items: [b] });
      const orders = await count('orders');
      const res = await create({ positions: [{ item: a }, { item: b }, { item: a }] });
      expect([res.status, res.body]).toEqual([
        400,
        { positions: [{ item: [EXCEEDED('Small')] }, {}, { item: [EXCEEDED('Small')] }] },
      ]);
      expect(await count('orders')).toBe(orders);
      expect(await availability(qa)).toMatchObject({ pending_orders: 0, available_number: 1 });
      await ok(await create({ force: true, positions: [{ item: a }, { item: a }] }));
      expect(await availability(qa)).toMatchObject({ pending_orders: 2, available_number: 0 });
    });

    it('counts pending and paid orders, live carts not consumed; closes a quota that sells out', async () => {
      const itemId = await item();
      const quotaId = await quota({ name: 'Closing', size: 3, items: [itemId], close_when_sold_out: true });
      await cart('c1@api', itemId);
      expect(await availability(quotaId)).toMatchObject({ cart_positions: 1, available_number: 2 });
      let res = await create({ positions: [{ item: itemId }, { item: itemId }, { item: itemId }] });
      expect([res.status, res.body[`positions`][0]]).toEqual([400, { item: [EXCEEDED('Closing')] }]);
      await ok(
        await create({
          consume_carts: ['c1@api'],
          positions: [{ item: itemId }, { item: itemId }, { item: itemId }],
        }),
      );
      expect(await availability(quotaId)).toMatchObject({
        pending_orders: 3,
        cart_positions: 0,
        available_number: 0,
        available: false,
      });
      expect((await get(`${E}/quotas/${quotaId}/`)).body.closed).toBe(true);
      res = await create({ force: false, positions: [{ item: itemId }] });
      expect(res.status).toBe(400);
    });
  });

  describe('simulate', () => {
    it('answers 201 with the order as it would be, code PREVIEW and ids 0, and writes nothing', async () => {
      const parent = await item({ name: 'Main' });
      const child = await item({ name: 'Extra', default_price: '3.00' });
      const quotaId = await quota({
        name: 'Sim',
        size: 2,
        items: [parent, child],
        close_when_sold_out: true,
      });
      const v = await voucher({ item: parent, price_mode: 'set', value: '8.00' });
      const question = await ok(
        await post(`${E}/questions/`, { question: 'Size', type: 'S', items: [parent] }),
      );
      const tables = [
        'orders',
        'order_position',
        'order_fee',
        'invoice_address',
        'question_answer',
        'log_entry',
      ];
      const before = await Promise.all(tables.map((x) => count(x)));
      const res = await create({
        simulate: true,
        code: 'SMUL8X',
        email: 'sim@example.org',
        invoice_address: { name: 'Sim' },
        fees: [{ fee_type: 'service', value: '1.00' }],
        send_email: true,
        positions: [
          { positionid: 1, item: parent, voucher: v.id, answers: [{ question: question.id, answer: 'XL' }] },
          { positionid: 2, item: child, addon_to: 1 },
        ],
      });
      const body = await ok(res);
      expect(body).toMatchObject({
        code: 'PREVIEW',
        event: 'sample',
        status: 'n',
        email: 'sim@example.org',
        total: '12.00',
        payments: [],
        fees: [{ id: 0, fee_type: 'service', value: '1.00' }],
        invoice_address: { name: 'Sim', name_parts: { _legacy: 'Sim' } },
      });
      expect(body.positions).toMatchObject([
        {
          id: 0,
          order: 'PREVIEW',
          positionid: 1,
          price: '8.00',
          voucher: v.id,
          addon_to: null,
          pseudonymization_id: 'PREVIEW',
          answers: [
            {
              question: question.id,
              answer: 'XL',
              question_identifier: question.identifier,
              options: [],
              option_identifiers: [],
            },
          ],
        },
        { id: 0, order: 'PREVIEW', positionid: 2, price: '3.00', addon_to: 1 },
      ]);
      expect(await Promise.all(tables.map((x) => count(x)))).toEqual(before);
      expect(await count('outgoing_mail')).toBe(0);
      expect(await redeemed(v.id as number)).toBe(0);
      expect(await availability(quotaId)).toMatchObject({ pending_orders: 0, available_number: 2 });
      expect((await get(`${E}/quotas/${quotaId}/`)).body.closed).toBe(false);

      const tooMany = await create({
        simulate: true,
        positions: [{ item: parent }, { item: parent }, { item: child }],
      });
      expect([tooMany.status, tooMany.body]).toEqual([
        400,
        {
          positions: [
            { item: ['There is not enough quota available on quota "Sim" to perform the operation.'] },
            { item: ['There is not enough quota available on quota "Sim" to perform the operation.'] },
            { item: ['There is not enough quota available on quota "Sim" to perform the operation.'] },
          ],
        },
      ]);
    });

    async function redeemed(id: number): Promise<number> {
      const rows: { redeemed: number }[] = await t.db.query('SELECT redeemed FROM voucher WHERE id = $1', [
        id,
      ]);
      return rows[0].redeemed;
    }
  });

  describe('send_email', () => {
    it('writes a confirmation to the outbox when asked and an e-mail is known', async () => {
      const { item: itemId } = await product();
      await t.db.query('DELETE FROM outgoing_mail');
      const body = await ok(
        await create({ email: 'mail@example.org', send_email: true, positions: [{ item: itemId }] }),
      );
      await ok(await create({ email: 'quiet@example.org', positions: [{ item: itemId }] }));
      await ok(await create({ email: 'null@example.org', send_email: null, positions: [{ item: itemId }] }));
      await ok(await create({ send_email: true, positions: [{ item: itemId }] }));
      const rows: { recipient: string; subject: string; body: string; event_id: number; status: string }[] =
        await t.db.query('SELECT recipient, subject, body, event_id, status FROM outgoing_mail');
      expect(rows).toEqual([
        {
          recipient: 'mail@example.org',
          subject: `Your order: ${body.code}`,
          body: expect.stringContaining(`Total: 10.00 EUR`),
          event_id: eventId,
          status: 'queued',
        },
      ]);
    });
  });

  describe('isolation between events', () => {
    it('never shows an order of one event under another', async () => {
      const { item: itemId } = await product();
      const body = await ok(await create({ positions: [{ item: itemId }] }));
      expect((await get(`${OTHER}/orders/${body.code}/`)).status).toBe(404);
      const rows: { event_id: number }[] = await t.db.query('SELECT event_id FROM orders WHERE code = $1', [
        body.code,
      ]);
      expect(rows).toEqual([{ event_id: eventId }]);
      expect(otherEventId).not.toBe(eventId);
    });
  });
});
