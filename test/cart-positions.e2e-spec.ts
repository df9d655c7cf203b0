import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { listStatements } from './sql-count';

/**
 * `E/cartpositions/` (spec "Cart position", "### Cart positions"; compat §3.2 and the cart bullets of §6):
 * list, detail, create, bulk_create, delete; only `@api` carts are visible; quota and voucher checks; answers
 * validated per question type; expired positions stop counting. Permissions per docs/permissions.md.
 */
describe('cart positions', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let itemsOnly: string;
  let otherOrgToken: string;
  const ORG = '/api/v1/organizers/org/events';
  const E = `${ORG}/sample`;
  const OTHER = `${ORG}/other`;
  const SERIES = `${ORG}/series`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const NOT_FOUND = { detail: 'Not found.' };
  const GENERATED_CART = /^[A-Za-z0-9]{48}@api$/;
  const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: unknown, tok = token) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(tok))
      .send(body as object);
  const del = (path: string, tok = token) => t.http().delete(path).set('Authorization', auth(tok));

  type Created = Record<string, unknown> & { id: number };
  async function created(path: string, body: object, tok = token): Promise<Created> {
    const res = await post(path, body, tok);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Created;
  }
  const createItem = async (body: object, base = E) =>
    (await created(`${base}/items/`, { name: 'Ticket', default_price: '23.00', ...body })).id;
  const createQuota = async (body: object, base = E) =>
    (await created(`${base}/quotas/`, { name: 'Quota', size: 100, ...body })).id;
  const createVoucher = async (body: object, base = E) => (await created(`${base}/vouchers/`, body)).id;
  const availability = async (quota: number) => (await get(`${E}/quotas/${quota}/availability/`)).body;
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await t.db.query(`SELECT count(*) AS n FROM cart_position WHERE ${sql}`, params))[0].n);

  let eventId: number;
  let otherEventId: number;
  /** Item with a quota of 1000 ("Budget Quota"). */
  let ticket: number;
  let ticketQuota: number;
  let shirt: number;
  let shirtS: number;
  let shirtM: number;
  let noQuota: number;
  let inactive: number;
  let otherEventItem: number;
  let otherOrgItem: number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    await createSeries(t, token, 'org', { slug: 'series' });
    reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    itemsOnly = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.items:write'] });
    ({ token: otherOrgToken } = await bootstrapOrganizer(t, 'org2'));
    await createEvent(t, otherOrgToken, 'org2', { slug: 'sample' });
    const ids: { id: number; slug: string; organizer_id: number }[] = await t.db.query(
      'SELECT e.id, e.slug, e.organizer_id FROM event e JOIN organizer o ON o.id = e.organizer_id WHERE o.slug = $1',
      ['org'],
    );
    eventId = ids.find((e) => e.slug === 'sample')!.id;
    otherEventId = ids.find((e) => e.slug === 'other')!.id;

    ticket = await createItem({ name: 'Ticket' });
    ticketQuota = await createQuota({ name: 'Budget Quota', size: 1000, items: [ticket] });
    const shirtRes = await created(`${E}/items/`, {
      name: 'Shirt',
      default_price: '15.00',
      variations: [{ value: 'S' }, { value: 'M' }],
    });
    shirt = shirtRes.id;
    [shirtS, shirtM] = (shirtRes.variations as { id: number }[]).map((v) => v.id);
    await createQuota({ name: 'Shirts', size: 1000, items: [shirt], variations: [shirtS, shirtM] });
    noQuota = await createItem({ name: 'No quota' });
    inactive = await createItem({ name: 'Inactive', active: false });
    await createQuota({ name: 'Inactive', items: [inactive] });
    otherEventItem = await createItem({ name: 'Elsewhere' }, OTHER);
    await createQuota({ name: 'Elsewhere', items: [otherEventItem] }, OTHER);
    otherOrgItem = (
      await created(
        `/api/v1/organizers/org2/events/sample/items/`,
        { name: 'Foreign', default_price: 1 },
        otherOrgToken,
      )
    ).id;
  });
  afterAll(() => t.close());

  /** A cart position written straight to the table (web shop carts cannot be made through the API). */
  async function insertCart(
    cartId: string,
    fields: { item?: number; event?: number; expires?: string; addonTo?: number } = {},
  ): Promise<number> {
    const rows: { id: number }[] = await t.db.query(
      `INSERT INTO cart_position (event_id, cart_id, expires, item_id, price, addon_to_id)
       VALUES ($1, $2, COALESCE($3::timestamptz, now() + interval '30 minutes'), $4, 23, $5) RETURNING id`,
      [
        fields.event ?? eventId,
        cartId,
        fields.expires ?? null,
        fields.item ?? ticket,
        fields.addonTo ?? null,
      ],
    );
    return rows[0].id;
  }

  describe('create', () => {
    it('creates a minimal position: generated @api cart id, expires in 30 minutes, defaults (201)', async () => {
      const before = Date.now();
      const res = await post(`${E}/cartpositions/`, { item: ticket, price: '23.00' });
      const after = Date.now();
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        cart_id: expect.stringMatching(GENERATED_CART),
        datetime: expect.stringMatching(ISO),
        expires: expect.stringMatching(ISO),
        item: ticket,
        variation: null,
        price: '23.00',
        attendee_name: null,
        attendee_name_parts: {},
        attendee_email: null,
        voucher: null,
        addon_to: null,
        subevent: null,
        includes_tax: true,
        is_bundled: false,
        answers: [],
        seat: null,
        addons: [],
        bundled: [],
      });
      const datetime = Date.parse(res.body.datetime);
      const expires = Date.parse(res.body.expires);
      expect(datetime).toBeGreaterThanOrEqual(before - 1000);
      expect(datetime).toBeLessThanOrEqual(after + 1000);
      expect(expires - datetime).toBe(30 * 60 * 1000);

      const { addons: _a, bundled: _b, ...position } = res.body;
      const again = await get(`${E}/cartpositions/${res.body.id}/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(position);
      const rows: { sales_channel: string }[] = await t.db.query(
        'SELECT sales_channel FROM cart_position WHERE id = $1',
        [res.body.id],
      );
      expect(rows[0].sales_channel).toBe('web');
      const logs: { action_type: string; content_type: string }[] = await t.db.query(
        'SELECT action_type, content_type FROM log_entry WHERE object_id = $1 AND content_type = $2',
        [res.body.id, 'cartposition'],
      );
      expect(logs).toEqual([
        { action_type: 'pretix.event.cartposition.added', content_type: 'cartposition' },
      ]);
    });

    it('stores every field: own cart id, legacy name, e-mail, expires, includes_tax, sales channel', async () => {
      const res = await post(`${E}/cartpositions/`, {
        cart_id: 'my-shop-cart-1@api',
        item: ticket,
        price: 12.5,
        attendee_name: 'Peter Miller',
        attendee_email: 'peter@example.org',
        expires: '2031-01-01T12:00:00+02:00',
        includes_tax: false,
        sales_channel: 'api',
        seat: null,
        voucher: null,
        variation: null,
        subevent: null,
        addons: [],
        bundled: [],
        answers: [],
        unknown_field: 'ignored',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        cart_id: 'my-shop-cart-1@api',
        price: '12.50',
        attendee_name: 'Peter Miller',
        attendee_name_parts: { _legacy: 'Peter Miller' },
        attendee_email: 'peter@example.org',
        expires: '2031-01-01T10:00:00Z',
        includes_tax: false,
      });
      const rows: { sales_channel: string; attendee_name_parts: object }[] = await t.db.query(
        'SELECT sales_channel, attendee_name_parts FROM cart_position WHERE id = $1',
        [res.body.id],
      );
      expect(rows[0]).toEqual({ sales_channel: 'api', attendee_name_parts: { _legacy: 'Peter Miller' } });
    });

    it('takes attendee_name_parts and derives the name', async () => {
      const res = await post(`${E}/cartpositions/`, {
        item: ticket,
        price: '1.00',
        attendee_name_parts: { given_name: 'Ada', family_name: 'Lovelace', _scheme: 'given_family' },
      });
      expect(res.status).toBe(201);
      expect(res.body.attendee_name).toBe('Ada Lovelace');
      expect(res.body.attendee_name_parts).toEqual({
        given_name: 'Ada',
        family_name: 'Lovelace',
        _scheme: 'given_family',
      });
    });

    it('treats a null or empty cart_id like an omitted one', async () => {
      for (const cart_id of [null, '']) {
        const res = await post(`${E}/cartpositions/`, { item: ticket, price: '1.00', cart_id });
        expect(res.status).toBe(201);
        expect(res.body.cart_id).toMatch(GENERATED_CART);
      }
    });

    it('refuses invalid fields with their messages and creates nothing', async () => {
      const cases: [object, object][] = [
        [
          { item: ticket, price: '1', cart_id: 'abc' },
          { cart_id: ['Cart ID should end in @api or be empty.'] },
        ],
        [
          { item: ticket, price: '1', cart_id: 'abc@api.x' },
          { cart_id: ['Cart ID should end in @api or be empty.'] },
        ],
        [{ price: '1' }, { item: ['This field is required.'] }],
        [{ item: null, price: '1' }, { item: ['This field may not be null.'] }],
        [{ item: 'x', price: '1' }, { item: ['A valid integer is required.'] }],
        [{ item: ticket }, { price: ['This field is required.'] }],
        [{ item: ticket, price: 'abc' }, { price: ['A valid number is required.'] }],
        [
          { item: ticket, price: '1.001' },
          { price: ['Ensure that there are no more than 2 decimal places.'] },
        ],
        [
          { item: ticket, price: '1', attendee_email: 'nope' },
          { attendee_email: ['Enter a valid email address.'] },
        ],
        [
          { item: ticket, price: '1', expires: 'tomorrow' },
          {
            expires: [
              'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
            ],
          },
        ],
        [{ item: ticket, price: '1', expires: null }, { expires: ['This field may not be null.'] }],
        [{ item: ticket, price: '1', includes_tax: 'yes' }, { includes_tax: ['Must be a valid boolean.'] }],
        [
          { item: ticket, price: '1', sales_channel: 'box_office' },
          { sales_channel: ['Object with identifier=box_office does not exist.'] },
        ],
        [
          { item: ticket, price: '1', attendee_name_parts: 'Ada' },
          { attendee_name_parts: ['Expected a dictionary of items but got type "str".'] },
        ],
        [
          { item: ticket, price: '1', attendee_name_parts: { given_name: 3 } },
          { attendee_name_parts: ['Every name part must be a string.'] },
        ],
        [
          { item: ticket, price: '1', answers: 'x' },
          { answers: ['Expected a list of items but got type "str".'] },
        ],
        [
          { item: ticket, price: '1', addons: [{ item: ticket, price: '1' }] },
          // Add-ons: cart-addons.e2e-spec.ts; an item without add-on configuration takes none.
          { addons: ['The product "Ticket" can not be used as an add-on product for "Ticket".'] },
        ],
        [
          { item: ticket, price: '1', bundled: [{ item: ticket, price: '1' }] },
          {
            bundled: [
              'Bundled products are not supported when creating cart positions through the API; leave "bundled" empty.',
            ],
          },
        ],
        [
          { item: ticket, price: '1', addons: {} },
          { addons: ['Expected a list of items but got type "dict".'] },
        ],
      ];
      const before = await count('event_id = $1', [eventId]);
      for (const [body, errors] of cases) {
        const res = await post(`${E}/cartpositions/`, body);
        expect({ body, status: res.status, errors: res.body }).toEqual({ body, status: 400, errors });
      }
      const list = await post(`${E}/cartpositions/`, [{ item: ticket, price: '1' }]);
      expect(list.status).toBe(400);
      expect(list.body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
      expect(await count('event_id = $1', [eventId])).toBe(before);
    });

    it('refuses attendee_name together with attendee_name_parts', async () => {
      const res = await post(`${E}/cartpositions/`, {
        item: ticket,
        price: '1',
        attendee_name: 'Peter',
        attendee_name_parts: { given_name: 'Peter' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        attendee_name: ['Do not specify attendee_name if you specified attendee_name_parts.'],
      });
    });

    it('checks the item: unknown, of another event, of another organizer, inactive', async () => {
      const cases: [number, string][] = [
        [999999, 'Invalid pk "999999" - object does not exist.'],
        [otherEventItem, 'The specified item does not belong to this event.'],
        [otherOrgItem, `Invalid pk "${otherOrgItem}" - object does not exist.`],
        [inactive, 'The specified item is not active.'],
      ];
      for (const [item, message] of cases) {
        const res = await post(`${E}/cartpositions/`, { item, price: '1' });
        expect({ item, status: res.status, body: res.body }).toEqual({
          item,
          status: 400,
          body: { item: [message] },
        });
      }
    });

    it('checks variations (non_field_errors) and counts a variation on its own quota', async () => {
      const nonField = async (body: object, message: string) => {
        const res = await post(`${E}/cartpositions/`, { price: '1', ...body });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ non_field_errors: [message] });
      };
      await nonField({ item: shirt }, 'You should specify a variation for this item.');
      await nonField({ item: ticket, variation: shirtS }, 'You cannot specify a variation for this item.');
      const other = await created(`${E}/items/`, {
        name: 'Hoodie',
        default_price: '30.00',
        variations: [{ value: 'XL' }],
      });
      await nonField(
        { item: other.id, variation: shirtS },
        'The specified variation does not belong to the specified item.',
      );
      const unknown = await post(`${E}/cartpositions/`, { item: shirt, variation: 999999, price: '1' });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ variation: ['Invalid pk "999999" - object does not exist.'] });

      const small = await createQuota({ name: 'Only M', size: 5, items: [shirt], variations: [shirtM] });
      const ok = await post(`${E}/cartpositions/`, { item: shirt, variation: shirtM, price: '15.00' });
      expect(ok.status).toBe(201);
      expect(ok.body.variation).toBe(shirtM);
      expect(await availability(small)).toMatchObject({ cart_positions: 1, available_number: 4 });
    });

    it('checks the sub-event against the kind of event', async () => {
      const onSimple = await post(`${E}/cartpositions/`, { item: ticket, price: '1', subevent: 5 });
      expect(onSimple.status).toBe(400);
      expect(onSimple.body).toEqual({ subevent: ['You cannot set a subevent for this event.'] });
      const seriesItem = await createItem({ name: 'Day ticket' }, SERIES);
      const missing = await post(`${SERIES}/cartpositions/`, { item: seriesItem, price: '1' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ subevent: ['You need to set a subevent.'] });
      const unknown = await post(`${SERIES}/cartpositions/`, { item: seriesItem, price: '1', subevent: 5 });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ subevent: ['Invalid pk "5" - object does not exist.'] });
    });

    it('reports every field error of an entry together', async () => {
      const res = await post(`${E}/cartpositions/`, {
        item: otherEventItem,
        price: '1',
        variation: 999999,
        subevent: 1,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        item: ['The specified item does not belong to this event.'],
        variation: ['Invalid pk "999999" - object does not exist.'],
        subevent: ['You cannot set a subevent for this event.'],
      });
    });

    it('refuses a seat for an unseated product (seated sales: test/seated-sales.e2e-spec.ts)', async () => {
      const res = await post(`${E}/cartpositions/`, { item: ticket, price: '1', seat: 'seat-guid-1' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ seat: ['The specified product does not allow to choose a seat.'] });
    });

    it('refuses a product without quota, but not with a voucher that ignores or blocks quota', async () => {
      const res = await post(`${E}/cartpositions/`, { item: noQuota, price: '1' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: ['The product "No quota" is not assigned to a quota.'] });
      await createVoucher({ code: 'IGNORE-QUOTA', item: noQuota, allow_ignore_quota: true, max_usages: 5 });
      const ok = await post(`${E}/cartpositions/`, { item: noQuota, price: '1', voucher: 'ignore-quota' });
      expect(ok.status).toBe(201);
    });

    it('answers 400 with a bare list when the quota is full, and counts only live positions', async () => {
      const item = await createItem({ name: 'Workshop' });
      const quota = await createQuota({ name: 'Workshop seats', size: 2, items: [item] });
      expect((await post(`${E}/cartpositions/`, { item, price: '1' })).status).toBe(201);
      expect((await post(`${E}/cartpositions/`, { item, price: '1' })).status).toBe(201);
      const full = await post(`${E}/cartpositions/`, { item, price: '1' });
      expect(full.status).toBe(400);
      expect(full.body).toEqual([
        'There is not enough quota available on quota "Workshop seats" to perform the operation.',
      ]);
      expect(await count('item_id = $1', [item])).toBe(2);
      expect(await availability(quota)).toMatchObject({
        cart_positions: 2,
        available_number: 0,
        available: false,
      });
    });

    it('refuses a closed quota and closes a close_when_sold_out quota when it sells out', async () => {
      const item = await createItem({ name: 'Closing' });
      const quota = await createQuota({ name: 'Closing', size: 1, items: [item], close_when_sold_out: true });
      expect((await post(`${E}/cartpositions/`, { item, price: '1' })).status).toBe(201);
      expect((await get(`${E}/quotas/${quota}/`)).body.closed).toBe(true);
      const closed = await createItem({ name: 'Closed' });
      await createQuota({ name: 'Closed quota', size: 10, items: [closed], closed: true });
      const res = await post(`${E}/cartpositions/`, { item: closed, price: '1' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual([
        'There is not enough quota available on quota "Closed quota" to perform the operation.',
      ]);
    });

    it('lets an expired position stop blocking quota while it is still listed', async () => {
      const item = await createItem({ name: 'One place' });
      const quota = await createQuota({ name: 'One place', size: 1, items: [item] });
      const past = await post(`${E}/cartpositions/`, {
        item,
        price: '1',
        expires: new Date(Date.now() - 60_000).toISOString(),
      });
      expect(past.status).toBe(201);
      expect(await availability(quota)).toMatchObject({ cart_positions: 0, available_number: 1 });
      const live = await post(`${E}/cartpositions/`, { item, price: '1' });
      expect(live.status).toBe(201);
      expect(await availability(quota)).toMatchObject({ cart_positions: 1, available_number: 0 });
      expect((await get(`${E}/cartpositions/${past.body.id}/`)).status).toBe(200);
    });

    it('counts a blocking voucher next to carts; its holder uses the held places without a quota check', async () => {
      const item = await createItem({ name: 'Shared' });
      const quota = await createQuota({ name: 'Shared', size: 3, items: [item] });
      await createVoucher({ code: 'BLOCK-TWO', item, block_quota: true, max_usages: 2 });
      expect((await post(`${E}/cartpositions/`, { item, price: '1' })).status).toBe(201);
      expect(await availability(quota)).toMatchObject({
        blocking_vouchers: 2,
        cart_positions: 1,
        available_number: 0,
      });
      const full = await post(`${E}/cartpositions/`, { item, price: '1' });
      expect(full.status).toBe(400);
      // The blocking voucher's own places are usable with the voucher, which skips the quota check.
      const withVoucher = await post(`${E}/cartpositions/`, { item, price: '1', voucher: 'BLOCK-TWO' });
      expect(withVoucher.status).toBe(201);
    });
  });

  describe('vouchers', () => {
    it('takes a voucher by code, case-insensitively, and shows its id', async () => {
      const voucher = await createVoucher({ code: 'Welcome-2030', item: ticket, max_usages: 10 });
      const res = await post(`${E}/cartpositions/`, { item: ticket, price: '0.00', voucher: 'WELCOME-2030' });
      expect(res.status).toBe(201);
      expect(res.body.voucher).toBe(voucher);
      const voucherAfter = await get(`${E}/vouchers/${voucher}/`);
      expect(voucherAfter.body.redeemed).toBe(0);
    });

    it('refuses unknown, foreign, inapplicable and expired vouchers', async () => {
      await createVoucher({ code: 'ELSEWHERE', max_usages: 10 }, OTHER);
      await createVoucher({ code: 'SHIRTS-ONLY', item: shirt, max_usages: 10 });
      await createVoucher({ code: 'SIZE-S', item: shirt, variation: shirtS, max_usages: 10 });
      const other = await createItem({ name: 'Quota voucher target' });
      const otherQuota = await createQuota({ name: 'Other', items: [other] });
      await createVoucher({ code: 'QUOTA-OTHER', quota: otherQuota, max_usages: 10 });
      await createVoucher({ code: 'QUOTA-TICKET', quota: ticketQuota, max_usages: 10 });
      await createVoucher({ code: 'TOO-LATE', valid_until: '2020-01-01T00:00:00Z', max_usages: 10 });
      const cases: [object, string][] = [
        [{ item: ticket, voucher: 'NOPE' }, 'The specified voucher does not exist.'],
        [{ item: ticket, voucher: 'ELSEWHERE' }, 'The specified voucher does not exist.'],
        [
          { item: ticket, voucher: 'SHIRTS-ONLY' },
          'The specified voucher is not valid for the given item and variation.',
        ],
        [
          { item: shirt, variation: shirtM, voucher: 'size-s' },
          'The specified voucher is not valid for the given item and variation.',
        ],
        [
          { item: ticket, voucher: 'QUOTA-OTHER' },
          'The specified voucher is not valid for the given item and variation.',
        ],
        [{ item: ticket, voucher: 'TOO-LATE' }, 'The specified voucher is expired.'],
      ];
      for (const [body, message] of cases) {
        const res = await post(`${E}/cartpositions/`, { price: '1', ...body });
        expect({ body, status: res.status, errors: res.body }).toEqual({
          body,
          status: 400,
          errors: { voucher: [message] },
        });
      }
      expect(
        (await post(`${E}/cartpositions/`, { item: ticket, price: '1', voucher: 'QUOTA-TICKET' })).status,
      ).toBe(201);
      expect(
        (await post(`${E}/cartpositions/`, { item: shirt, variation: shirtS, price: '1', voucher: 'SIZE-S' }))
          .status,
      ).toBe(201);
    });

    it('counts live carts and redemptions against max_usages; an expired cart frees its use', async () => {
      const voucher = await createVoucher({ code: 'ONLY-ONCE', item: ticket, max_usages: 1 });
      const USED = { voucher: ['The specified voucher has already been used the maximum number of times.'] };
      const first = await post(`${E}/cartpositions/`, { item: ticket, price: '1', voucher: 'only-once' });
      expect(first.status).toBe(201);
      const second = await post(`${E}/cartpositions/`, { item: ticket, price: '1', voucher: 'ONLY-ONCE' });
      expect(second.status).toBe(400);
      expect(second.body).toEqual(USED);
      // A web shop cart holding the voucher counts too.
      await t.db.query("UPDATE cart_position SET expires = now() - interval '1 minute' WHERE id = $1", [
        first.body.id,
      ]);
      const webCart = await insertCart('web-session-voucher');
      await t.db.query('UPDATE cart_position SET voucher_id = $1 WHERE id = $2', [voucher, webCart]);
      expect(
        (await post(`${E}/cartpositions/`, { item: ticket, price: '1', voucher: 'ONLY-ONCE' })).body,
      ).toEqual(USED);
      await t.db.query('DELETE FROM cart_position WHERE id = $1', [webCart]);
      expect(
        (await post(`${E}/cartpositions/`, { item: ticket, price: '1', voucher: 'ONLY-ONCE' })).status,
      ).toBe(201);

      await createVoucher({ code: 'REDEEMED', item: ticket, max_usages: 2 });
      await t.db.query("UPDATE voucher SET redeemed = 2 WHERE code = 'REDEEMED'");
      const redeemed = await post(`${E}/cartpositions/`, { item: ticket, price: '1', voucher: 'REDEEMED' });
      expect(redeemed.status).toBe(400);
      expect(redeemed.body).toEqual(USED);
    });
  });

  describe('answers', () => {
    let questions: Record<string, number>;
    let choice: { id: number; options: { id: number; identifier: string }[] };
    let multi: { id: number; options: { id: number; identifier: string }[] };
    let foreignQuestion: number;

    const question = async (type: string, extra: object = {}, base = E) =>
      created(`${base}/questions/`, { question: `Q ${type}`, type, items: [], ...extra });

    beforeAll(async () => {
      questions = {};
      for (const type of ['N', 'S', 'B', 'D', 'H', 'W', 'F']) questions[type] = (await question(type)).id;
      choice = (await question('C', { options: [{ answer: 'Red' }, { answer: 'Blue' }] })) as typeof choice;
      multi = (await question('M', { options: [{ answer: 'Tea' }, { answer: 'Cake' }] })) as typeof multi;
      foreignQuestion = (await question('S', {}, OTHER)).id;
    });

    const withAnswers = (answers: unknown[]) =>
      post(`${E}/cartpositions/`, { item: ticket, price: '1', answers });

    it('stores answers normalised per type and shows them on detail', async () => {
      const res = await withAnswers([
        { question: questions.N, answer: '3.50' },
        { question: questions.S, answer: 'Hello' },
        { question: questions.B, answer: 'True' },
        { question: questions.D, answer: '2030-05-01' },
        { question: questions.H, answer: '10:30' },
        { question: questions.W, answer: '2030-05-01T10:00:00+02:00' },
        { question: choice.id, options: [choice.options[1].id] },
        { question: multi.id, options: [multi.options[0].id, multi.options[1].id] },
      ]);
      expect(res.status).toBe(201);
      const expected = [
        { question: questions.N, answer: '3.50' },
        { question: questions.S, answer: 'Hello' },
        { question: questions.B, answer: 'True' },
        { question: questions.D, answer: '2030-05-01' },
        { question: questions.H, answer: '10:30:00' },
        { question: questions.W, answer: '2030-05-01T08:00:00Z' },
        {
          question: choice.id,
          answer: 'Blue',
          options: [choice.options[1].id],
          option_identifiers: [choice.options[1].identifier],
        },
        {
          question: multi.id,
          answer: 'Tea, Cake',
          options: multi.options.map((o) => o.id),
          option_identifiers: multi.options.map((o) => o.identifier),
        },
      ].map((a) => ({ options: [], option_identifiers: [], question_identifier: expect.any(String), ...a }));
      expect(res.body.answers).toEqual(expected);
      expect((await get(`${E}/cartpositions/${res.body.id}/`)).body.answers).toEqual(expected);
    });

    it('normalises boolean answers "0"/"1"/"false" to True/False', async () => {
      for (const [input, stored] of [
        ['0', 'False'],
        ['1', 'True'],
        ['false', 'False'],
        ['true', 'True'],
      ]) {
        const res = await withAnswers([{ question: questions.B, answer: input }]);
        expect(res.status).toBe(201);
        expect(res.body.answers[0].answer).toBe(stored);
      }
    });

    it('refuses invalid answers with aligned per-answer errors', async () => {
      const nonField = (message: string) => ({ non_field_errors: [message] });
      const cases: [object, object][] = [
        [{ question: questions.N, answer: 'foo' }, nonField('A valid number is required.')],
        [
          { question: questions.B, answer: 'bla' },
          nonField('Please specify "true" or "false" for boolean questions.'),
        ],
        [
          { question: questions.D, answer: '01.05.2030' },
          nonField('Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'),
        ],
        [
          { question: questions.H, answer: '25:00' },
          nonField('Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].'),
        ],
        [
          { question: questions.W, answer: 'soon' },
          nonField(
            'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
          ),
        ],
        [
          { question: questions.F, answer: 'file:abc' },
          nonField('File answers are not supported through this API.'),
        ],
        [
          { question: choice.id },
          nonField('You need to specify options if the question is of a choice type.'),
        ],
        [
          { question: choice.id, options: choice.options.map((o) => o.id) },
          nonField('You can specify at most one option for this question.'),
        ],
        [
          { question: choice.id, options: [multi.options[0].id] },
          nonField('The specified option does not belong to this question.'),
        ],
        [
          { question: choice.id, options: [999999] },
          { options: ['Invalid pk "999999" - object does not exist.'] },
        ],
        [
          { question: questions.S, answer: 'x', options: [choice.options[0].id] },
          nonField('You should not specify options if the question is not of a choice type.'),
        ],
        [
          { question: foreignQuestion, answer: 'x' },
          { question: ['The specified question does not belong to this event.'] },
        ],
        [{ question: 999999, answer: 'x' }, { question: ['Invalid pk "999999" - object does not exist.'] }],
        [{ answer: 'x' }, { question: ['This field is required.'] }],
      ];
      for (const [answer, errors] of cases) {
        const res = await withAnswers([{ question: questions.S, answer: 'fine' }, answer]);
        expect({ answer, status: res.status, body: res.body }).toEqual({
          answer,
          status: 400,
          body: { answers: [{}, errors] },
        });
      }
    });
  });

  describe('list and detail', () => {
    const L = `${OTHER}/cartpositions/`;
    let apiIds: number[];
    let webId: number;
    let questionId: number;

    beforeAll(async () => {
      questionId = (await created(`${OTHER}/questions/`, { question: 'Company?', type: 'S', items: [] })).id;
      apiIds = [];
      for (let i = 0; i < 3; i++) {
        apiIds.push(
          (await created(L, { item: otherEventItem, price: `${i}.00`, cart_id: `list-${2 - i}@api` })).id,
        );
      }
      webId = await insertCart('web-session-abc', { event: otherEventId, item: otherEventItem });
      await insertCart('api-looking@api.example', { event: otherEventId, item: otherEventItem });
    });

    it('lists only @api carts, ordered by id, with X-Page-Generated', async () => {
      const before = Date.now();
      const res = await get(L);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(3);
      expect(res.body.next).toBeNull();
      expect(res.body.previous).toBeNull();
      expect(res.body.results.map((r: { id: number }) => r.id)).toEqual(apiIds);
      expect(res.body.results[0]).toEqual((await get(`${L}${apiIds[0]}/`)).body);
      const generated = res.headers['x-page-generated'];
      expect(generated).toMatch(ISO);
      expect(Date.parse(generated)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(generated)).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it('orders by cart_id, datetime and -id; ignores unknown fields; pages', async () => {
      const ids = async (query: string) =>
        ((await get(`${L}?${query}`)).body.results as { id: number }[]).map((r) => r.id);
      expect(await ids('ordering=cart_id')).toEqual([...apiIds].reverse());
      expect(await ids('ordering=-id')).toEqual([...apiIds].reverse());
      expect(await ids('ordering=datetime')).toEqual(apiIds);
      expect(await ids('ordering=bogus')).toEqual(apiIds);
      const page2 = await get(`${L}?page=2&page_size=2`);
      expect(page2.body.results.map((r: { id: number }) => r.id)).toEqual([apiIds[2]]);
      expect(page2.body.previous).toMatch(/cartpositions\/\?page_size=2$/);
      expect((await get(`${L}?page=3&page_size=2`)).status).toBe(404);
    });

    it('runs the same number of SQL statements whatever the page size', async () => {
      for (const id of apiIds) {
        await t.db.query(
          "INSERT INTO question_answer (cart_position_id, question_id, answer) VALUES ($1, $2, 'x')",
          [id, questionId],
        );
      }
      const page = await get(`${L}?page_size=3`);
      expect(page.body.results.map((r: { answers: unknown[] }) => r.answers.length)).toEqual([1, 1, 1]);
      const one = await listStatements(() => get(`${L}?page_size=1`));
      const three = await listStatements(() => get(`${L}?page_size=3`));
      expect(one.rows).toBe(1);
      expect(three.rows).toBe(3);
      expect(three.statements).toBe(one.statements);
    });

    it('answers 404 for web shop carts, other events, unknown and malformed ids', async () => {
      expect((await get(`${L}${webId}/`)).body).toEqual(NOT_FOUND);
      expect((await get(`${L}${webId}/`)).status).toBe(404);
      expect((await get(`${E}/cartpositions/${apiIds[0]}/`)).status).toBe(404);
      expect((await get(`${L}999999/`)).status).toBe(404);
      expect((await get(`${L}abc/`)).status).toBe(404);
    });
  });

  describe('delete', () => {
    it('deletes an @api position with its add-ons and answers (204), freeing its place', async () => {
      const item = await createItem({ name: 'Delete me' });
      const quota = await createQuota({ name: 'Delete me', size: 5, items: [item] });
      const res = await created(`${E}/cartpositions/`, {
        item,
        price: '1',
        answers: [
          {
            question: (await created(`${E}/questions/`, { question: 'Q', type: 'S', items: [] })).id,
            answer: 'a',
          },
        ],
      });
      const addon = await insertCart(res.cart_id as string, { item, addonTo: res.id });
      expect(await availability(quota)).toMatchObject({ cart_positions: 2 });
      const gone = await del(`${E}/cartpositions/${res.id}/`);
      expect(gone.status).toBe(204);
      expect(gone.text).toBe('');
      expect((await get(`${E}/cartpositions/${res.id}/`)).status).toBe(404);
      expect(await count('id = ANY($1)', [[res.id, addon]])).toBe(0);
      const answers: unknown[] = await t.db.query(
        'SELECT 1 FROM question_answer WHERE cart_position_id = $1',
        [res.id],
      );
      expect(answers).toEqual([]);
      expect(await availability(quota)).toMatchObject({ cart_positions: 0, available_number: 5 });
      const logs: unknown[] = await t.db.query(
        "SELECT 1 FROM log_entry WHERE content_type = 'cartposition' AND object_id = $1 AND action_type = 'pretix.event.cartposition.deleted'",
        [res.id],
      );
      expect(logs).toHaveLength(1);
      expect((await del(`${E}/cartpositions/${res.id}/`)).status).toBe(404);
    });

    it('answers 404 for web shop carts and positions of other events, and keeps them', async () => {
      const web = await insertCart('web-session-del');
      const res = await del(`${E}/cartpositions/${web}/`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      const elsewhere = await created(`${OTHER}/cartpositions/`, { item: otherEventItem, price: '1' });
      expect((await del(`${E}/cartpositions/${elsewhere.id}/`)).status).toBe(404);
      expect(await count('id = ANY($1)', [[web, elsewhere.id]])).toBe(2);
    });

    it('has no PUT or PATCH (405)', async () => {
      const res = await created(`${E}/cartpositions/`, { item: ticket, price: '1' });
      for (const method of ['put', 'patch'] as const) {
        const r = await t
          .http()
          [method](`${E}/cartpositions/${res.id}/`)
          .set('Authorization', auth(token))
          .send({});
        expect(r.status).toBe(405);
      }
    });
  });

  describe('bulk_create', () => {
    const B = `${E}/cartpositions/bulk_create/`;

    it('needs a JSON list', async () => {
      for (const body of [{ item: ticket, price: '1' }, {}]) {
        const res = await post(B, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Please supply a list' });
      }
      const empty = await post(B, []);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ results: [] });
    });

    it('creates the valid entries and reports the others, aligned with the input (200)', async () => {
      const before = await count('event_id = $1', [eventId]);
      const res = await post(B, [
        { item: ticket, price: '1.00', attendee_name: 'One' },
        { item: 999999, price: '1' },
        'not an object',
        7,
        { item: ticket, price: '2.00' },
        { item: ticket, price: '3.00', cart_id: 'own@api' },
        { item: ticket, price: '1', cart_id: 'bad' },
        { item: noQuota, price: '1' },
        { item: ticket, price: '1', answers: [{ question: 999999, answer: 'x' }] },
      ]);
      expect(res.status).toBe(200);
      const results = res.body.results as {
        success: boolean;
        data: Record<string, unknown> | null;
        errors: unknown;
      }[];
      expect(results.map((r) => r.success)).toEqual([
        true,
        false,
        false,
        false,
        true,
        true,
        false,
        false,
        false,
      ]);
      expect(results.map((r) => r.errors)).toEqual([
        null,
        { item: ['Invalid pk "999999" - object does not exist.'] },
        { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] },
        { non_field_errors: ['Invalid data. Expected a dictionary, but got int.'] },
        null,
        null,
        { cart_id: ['Cart ID should end in @api or be empty.'] },
        { non_field_errors: ['The product "No quota" is not assigned to a quota.'] },
        { answers: [{ question: ['Invalid pk "999999" - object does not exist.'] }] },
      ]);
      const [a, , , , b, c] = results.map((r) => r.data);
      expect(a).toMatchObject({ item: ticket, price: '1.00', attendee_name: 'One', addons: [], bundled: [] });
      expect(a!.cart_id).toMatch(GENERATED_CART);
      expect(b!.cart_id).toBe(a!.cart_id);
      expect(c!.cart_id).toBe('own@api');
      expect(results.filter((r) => !r.success).every((r) => r.data === null)).toBe(true);
      expect(await count('event_id = $1', [eventId])).toBe(before + 3);
      const { addons: _x, bundled: _y, ...shown } = b!;
      expect((await get(`${E}/cartpositions/${b!.id as number}/`)).body).toEqual(shown);
    });

    it('logs each created position once, with its own id and data, by the credential (one statement each)', async () => {
      const voucher = await createVoucher({ code: 'BULK-LOG', item: shirt });
      const res = await post(B, [
        { item: ticket, price: '4.00' },
        { item: shirt, variation: shirtM, price: '5.00', cart_id: 'log-own@api' },
        { item: shirt, variation: shirtS, price: '6.00', voucher: 'BULK-LOG' },
      ]);
      expect(res.status).toBe(200);
      const data = (res.body.results as { data: Record<string, unknown> }[]).map((r) => r.data);
      expect(data.map((d) => [d.item, d.variation, d.price, d.voucher])).toEqual([
        [ticket, null, '4.00', null],
        [shirt, shirtM, '5.00', null],
        [shirt, shirtS, '6.00', voucher],
      ]);
      // The ids answered are the rows written with those values.
      const rows: { id: number; item_id: number; variation_id: number | null; price: string }[] =
        await t.db.query(
          'SELECT id, item_id, variation_id, price FROM cart_position WHERE id = ANY($1) ORDER BY id',
          [data.map((d) => d.id)],
        );
      expect(rows).toEqual(
        data.map((d) => ({ id: d.id, item_id: d.item, variation_id: d.variation, price: d.price })),
      );
      const logs: { object_id: number; data: object; api_token_id: number | null; n: number }[] =
        await t.db.query(
          `SELECT object_id, data, api_token_id, count(*) OVER (PARTITION BY object_id)::int AS n
             FROM log_entry WHERE content_type = 'cartposition' AND object_id = ANY($1) ORDER BY object_id`,
          [data.map((d) => d.id)],
        );
      // The credential as the voucher's creation (written by another path) recorded it.
      const [{ id: tokenId }]: { id: number }[] = await t.db.query(
        "SELECT api_token_id AS id FROM log_entry WHERE object_id = $1 AND content_type = 'voucher'",
        [voucher],
      );
      expect(tokenId).toEqual(expect.any(Number));
      expect(logs).toEqual(
        data.map((d) => ({
          object_id: d.id,
          data: { cart_id: d.cart_id, item: d.item, variation: d.variation, voucher: d.voucher },
          api_token_id: tokenId,
          n: 1,
        })),
      );
    });

    it('hands out the last places in input order and refuses the rest per entry', async () => {
      const item = await createItem({ name: 'Bulk' });
      const other = await createItem({ name: 'Bulk other' });
      const quota = await createQuota({ name: 'Bulk quota', size: 2, items: [item] });
      await createQuota({ name: 'Bulk other', size: 10, items: [other] });
      const NO_QUOTA = {
        non_field_errors: [
          'There is not enough quota available on quota "Bulk quota" to perform the operation.',
        ],
      };
      const res = await post(B, [
        { item, price: '1' },
        { item: other, price: '1' },
        { item, price: '1' },
        { item, price: '1' },
        { item: other, price: '1' },
      ]);
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: { success: boolean }) => r.success)).toEqual([
        true,
        true,
        true,
        false,
        true,
      ]);
      expect(res.body.results[3]).toEqual({ success: false, data: null, errors: NO_QUOTA });
      expect(await availability(quota)).toMatchObject({ cart_positions: 2, available_number: 0 });
      const again = await post(B, [{ item, price: '1' }]);
      expect(again.body.results).toEqual([{ success: false, data: null, errors: NO_QUOTA }]);
    });

    it('counts voucher uses within the request', async () => {
      await createVoucher({ code: 'BULK-TWICE', item: ticket, max_usages: 2 });
      const res = await post(B, [
        { item: ticket, price: '1', voucher: 'BULK-TWICE' },
        { item: ticket, price: '1', voucher: 'bulk-twice' },
        { item: ticket, price: '1', voucher: 'BULK-TWICE' },
      ]);
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: { success: boolean }) => r.success)).toEqual([true, true, false]);
      expect(res.body.results[2].errors).toEqual({
        voucher: ['The specified voucher has already been used the maximum number of times.'],
      });
    });
  });

  describe('permissions', () => {
    it('needs credentials (401)', async () => {
      const calls = [
        t.http().get(`${E}/cartpositions/`),
        t.http().get(`${E}/cartpositions/1/`),
        t.http().post(`${E}/cartpositions/`).send({ item: ticket, price: '1' }),
        t.http().post(`${E}/cartpositions/bulk_create/`).send([]),
        t.http().delete(`${E}/cartpositions/1/`),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      }
    });

    it('reads with event.orders:read, writes only with event.orders:write (403)', async () => {
      const mine = await created(`${E}/cartpositions/`, { item: ticket, price: '1' });
      expect((await get(`${E}/cartpositions/`, reader)).status).toBe(200);
      expect((await get(`${E}/cartpositions/${mine.id}/`, reader)).status).toBe(200);
      for (const res of [
        await post(`${E}/cartpositions/`, { item: ticket, price: '1' }, reader),
        await post(`${E}/cartpositions/bulk_create/`, [{ item: ticket, price: '1' }], reader),
        await del(`${E}/cartpositions/${mine.id}/`, reader),
        await get(`${E}/cartpositions/`, itemsOnly),
        await get(`${E}/cartpositions/${mine.id}/`, itemsOnly),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect(await count('id = $1', [mine.id])).toBe(1);
    });

    it('answers 403 for an unknown event or another organizer', async () => {
      expect((await get(`${ORG}/nope/cartpositions/`)).status).toBe(403);
      expect((await get('/api/v1/organizers/org2/events/sample/cartpositions/')).status).toBe(403);
      const res = await post('/api/v1/organizers/org2/events/sample/cartpositions/', {
        item: otherOrgItem,
        price: '1',
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(DENIED);
    });
  });
});
