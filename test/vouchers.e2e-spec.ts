import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { QuotaLookup } from '../src/catalogue/quotas/quota-lookup.service';
import { AppConfig } from '../src/config/app-config';
import { QuotaEngine } from '../src/orders/quota-engine/quota-engine.service';
import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { listStatements } from './sql-count';
import { startTestApp, TestApp } from './harness';

/** `E/vouchers/` (spec "Voucher", "### Vouchers"; compat §3.23, §6; permissions per docs/permissions.md). */
describe('vouchers', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let itemsWriter: string;
  let voucherWriter: string;
  let outsider: string;
  const E = '/api/v1/organizers/org/events/sample';
  const OTHER = '/api/v1/organizers/org/events/other';
  const SERIES = '/api/v1/organizers/org/events/series';
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const NOT_FOUND = { detail: 'Not found.' };
  const SOLD_OUT = {
    non_field_errors: [
      'You cannot create a voucher that blocks quota as the selected product or quota is currently sold out or completely reserved.',
    ],
  };
  const CODE_EXISTS = { code: ['A voucher with this code already exists.'] };
  const GENERATED_CODE = /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{16}$/;

  /** The representation of `{}` (compat §3.23 defaults); `code` and `created` are generated. */
  const DEFAULT_VOUCHER = {
    code: expect.stringMatching(GENERATED_CODE) as unknown,
    max_usages: 1,
    redeemed: 0,
    min_usages: 1,
    valid_until: null,
    block_quota: false,
    allow_ignore_quota: false,
    price_mode: 'none',
    value: '0.00',
    item: null,
    variation: null,
    quota: null,
    tag: '',
    comment: '',
    seat: null,
    subevent: null,
    show_hidden_items: true,
    all_addons_included: false,
    all_bundles_included: false,
    budget: null,
    budget_used: '0.00',
    created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/) as unknown,
  };

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: unknown, tok = token) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(tok))
      .send(body as object);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const put = (path: string, body: object, tok = token) =>
    t.http().put(path).set('Authorization', auth(tok)).send(body);
  const del = (path: string, tok = token) => t.http().delete(path).set('Authorization', auth(tok));

  type Json = { id: number } & Record<string, unknown>;

  async function createVoucher(body: object, base = E): Promise<Json> {
    const res = await post(`${base}/vouchers/`, body);
    if (res.status !== 201) throw new Error(`createVoucher: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Json;
  }

  async function createItem(body: object = {}, base = E): Promise<Json> {
    const res = await post(`${base}/items/`, { name: { en: 'Ticket' }, default_price: '23.00', ...body });
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Json;
  }

  async function eventId(slug: string): Promise<number> {
    const rows: { id: number }[] = await t.db.query(
      `SELECT e.id FROM event e JOIN organizer o ON o.id = e.organizer_id WHERE o.slug = 'org' AND e.slug = $1`,
      [slug],
    );
    return rows[0].id;
  }

  /** A variation written straight to the table (the variation endpoints are another resource). */
  async function createVariation(itemId: number, value = 'S'): Promise<number> {
    const rows: { id: number }[] = await t.db.query(
      'INSERT INTO item_variation (item_id, value) VALUES ($1, $2::jsonb) RETURNING id',
      [itemId, JSON.stringify({ en: value })],
    );
    return rows[0].id;
  }

  /** A quota written straight to the tables (the quota endpoints are another resource). */
  async function createQuota(
    spec: {
      size: number | null;
      items?: number[];
      variations?: number[];
      closeWhenSoldOut?: boolean;
      closed?: boolean;
    },
    slug = 'sample',
  ): Promise<number> {
    const rows: { id: number }[] = await t.db.query(
      `INSERT INTO quota (event_id, name, size, close_when_sold_out, closed) VALUES ($1, 'Q', $2, $3, $4) RETURNING id`,
      [await eventId(slug), spec.size, spec.closeWhenSoldOut ?? false, spec.closed ?? false],
    );
    const id = rows[0].id;
    for (const item of spec.items ?? [])
      await t.db.query('INSERT INTO quota_item (quota_id, item_id) VALUES ($1, $2)', [id, item]);
    for (const variation of spec.variations ?? [])
      await t.db.query('INSERT INTO quota_variation (quota_id, variation_id) VALUES ($1, $2)', [
        id,
        variation,
      ]);
    return id;
  }

  /** The engine's view of a quota (src/orders/quota-engine/quota-engine.service.ts). */
  async function availability(quotaId: number) {
    const [quota] = await t.app.get(QuotaLookup).load(t.db.manager, [quotaId], false);
    return (await t.app.get(QuotaEngine).compute(t.db.manager, [quota])).get(quotaId)!;
  }

  async function logActions(objectId: number): Promise<string[]> {
    const rows: { action_type: string }[] = await t.db.query(
      "SELECT action_type FROM log_entry WHERE content_type = 'voucher' AND object_id = $1 ORDER BY id",
      [objectId],
    );
    return rows.map((r) => r.action_type);
  }

  async function voucherCount(): Promise<number> {
    const rows: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM voucher');
    return Number(rows[0].n);
  }

  async function setRedeemed(id: number, redeemed: number): Promise<void> {
    await t.db.query('UPDATE voucher SET redeemed = $2 WHERE id = $1', [id, redeemed]);
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    await createSeries(t, token, 'org', { slug: 'series' });
    reader = await teamToken(t, 'org', {
      limitEvents: ['sample'],
      eventPermissions: ['event.vouchers:read'],
    });
    itemsWriter = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.items:write'] });
    voucherWriter = await teamToken(t, 'org', {
      allEvents: true,
      eventPermissions: ['event.vouchers:write'],
    });
    outsider = await teamToken(t, 'org', {
      limitEvents: ['other'],
      eventPermissions: ['event.vouchers:read', 'event.vouchers:write'],
    });
  });
  afterAll(() => t.close());

  describe('create and detail', () => {
    it('creates a voucher from {} with the default representation and a generated code', async () => {
      const before = Date.now();
      const res = await post(`${E}/vouchers/`, {});
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.any(Number), ...DEFAULT_VOUCHER });
      const created = Date.parse(res.body.created as string);
      expect(created).toBeGreaterThanOrEqual(before - 1000);
      expect(created).toBeLessThanOrEqual(Date.now() + 1000);
      const again = await get(`${E}/vouchers/${res.body.id}/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
      expect(await logActions(res.body.id as number)).toEqual(['pretix.voucher.added']);
    });

    it('generates different codes', async () => {
      const a = await createVoucher({});
      const b = await createVoucher({});
      expect(a.code).not.toEqual(b.code);
    });

    it('stores every writable field and shows it on detail', async () => {
      const item = await createItem();
      const res = await post(`${E}/vouchers/`, {
        code: 'FULL-VOUCHER',
        max_usages: 5,
        min_usages: 2,
        valid_until: '2031-01-01T10:00:00+01:00',
        allow_ignore_quota: true,
        price_mode: 'set',
        value: 12.5,
        item: item.id,
        tag: 'press',
        comment: 'for the press',
        show_hidden_items: false,
        all_addons_included: true,
        all_bundles_included: true,
        budget: '100',
        seat: null,
        subevent: null,
      });
      expect(res.status).toBe(201);
      const expected = {
        ...DEFAULT_VOUCHER,
        id: res.body.id,
        code: 'FULL-VOUCHER',
        max_usages: 5,
        min_usages: 2,
        valid_until: '2031-01-01T09:00:00Z',
        allow_ignore_quota: true,
        price_mode: 'set',
        value: '12.50',
        item: item.id,
        tag: 'press',
        comment: 'for the press',
        show_hidden_items: false,
        all_addons_included: true,
        all_bundles_included: true,
        budget: '100.00',
      };
      expect(res.body).toEqual(expected);
      expect((await get(`${E}/vouchers/${res.body.id}/`)).body).toEqual(expected);
    });

    it('ignores read-only fields (redeemed, budget_used, id, created)', async () => {
      const res = await post(`${E}/vouchers/`, {
        code: 'READONLY1',
        redeemed: 5,
        budget_used: '9.00',
        id: 999999,
        created: '2000-01-01T00:00:00Z',
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ ...DEFAULT_VOUCHER, id: res.body.id, code: 'READONLY1' });
      expect(res.body.id).not.toBe(999999);
      const rows: { redeemed: number }[] = await t.db.query('SELECT redeemed FROM voucher WHERE id = $1', [
        res.body.id,
      ]);
      expect(rows[0].redeemed).toBe(0);
    });

    it.each([
      [{ code: 'ABCD' }, { code: ['Ensure this field has at least 5 characters.'] }],
      [{ code: '' }, { code: ['This field may not be blank.'] }],
      [{ code: null }, { code: ['This field may not be null.'] }],
      [{ code: 'X'.repeat(256) }, { code: ['Ensure this field has no more than 255 characters.'] }],
      [{ code: 12345 }, { code: ['Not a valid string.'] }],
      [{ max_usages: 0 }, { max_usages: ['Ensure this value is greater than or equal to 1.'] }],
      [{ max_usages: 'many' }, { max_usages: ['A valid integer is required.'] }],
      [{ max_usages: null }, { max_usages: ['This field may not be null.'] }],
      [{ min_usages: 0 }, { min_usages: ['Ensure this value is greater than or equal to 1.'] }],
      [
        { min_usages: 3, max_usages: 2 },
        { min_usages: ['The minimum number of usages may not be higher than the maximum number of usages.'] },
      ],
      [
        { valid_until: 'soon' },
        {
          valid_until: [
            'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
          ],
        },
      ],
      [{ block_quota: 'yes' }, { block_quota: ['Must be a valid boolean.'] }],
      [{ allow_ignore_quota: null }, { allow_ignore_quota: ['This field may not be null.'] }],
      [{ price_mode: 'half' }, { price_mode: ['"half" is not a valid choice.'] }],
      [{ value: '1.001' }, { value: ['Ensure that there are no more than 2 decimal places.'] }],
      [{ value: 'free' }, { value: ['A valid number is required.'] }],
      [{ value: null }, { value: ['This field may not be null.'] }],
      [{ budget: -1 }, { budget: ['Ensure this value is greater than or equal to 0.'] }],
      [{ budget: '1.234' }, { budget: ['Ensure that there are no more than 2 decimal places.'] }],
      [{ tag: 'T'.repeat(256) }, { tag: ['Ensure this field has no more than 255 characters.'] }],
      [{ comment: null }, { comment: ['This field may not be null.'] }],
      [{ show_hidden_items: 1 }, { show_hidden_items: ['Must be a valid boolean.'] }],
      [{ item: 'one' }, { item: ['A valid integer is required.'] }],
      [{ item: 987654 }, { item: ['Invalid pk "987654" - object does not exist.'] }],
      [{ quota: 987654 }, { quota: ['Invalid pk "987654" - object does not exist.'] }],
      [{ variation: 987654 }, { variation: ['Invalid pk "987654" - object does not exist.'] }],
      [{ subevent: 3 }, { subevent: ['Invalid pk "3" - object does not exist.'] }],
      [{ seat: 'abc-123' }, { seat: ['The specified seat ID "abc-123" does not exist.'] }],
      [
        { block_quota: true },
        {
          block_quota: [
            'You need to select a specific product or quota if this voucher should reserve tickets.',
          ],
        },
      ],
    ])('answers 400 for %j and creates nothing', async (body, errors) => {
      const before = await voucherCount();
      const res = await post(`${E}/vouchers/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await voucherCount()).toBe(before);
    });

    it('refuses a quota and a product together', async () => {
      const item = await createItem();
      const quota = await createQuota({ size: 10, items: [item.id] });
      const res = await post(`${E}/vouchers/`, { item: item.id, quota });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        non_field_errors: ['You cannot select a quota and a specific product at the same time.'],
      });
    });

    it('checks that the variation belongs to the item and needs an item', async () => {
      const shirt = await createItem({ name: 'Shirt', has_variations: true });
      const cap = await createItem({ name: 'Cap', has_variations: true });
      const small = await createVariation(shirt.id, 'S');
      const before = await voucherCount();
      const wrong = await post(`${E}/vouchers/`, { item: cap.id, variation: small });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ variation: ['This variation does not belong to this product.'] });
      const plain = await createItem({ name: 'Plain' });
      const notVaried = await post(`${E}/vouchers/`, { item: plain.id, variation: small });
      expect(notVaried.body).toEqual({ variation: ['This variation does not belong to this product.'] });
      const alone = await post(`${E}/vouchers/`, { variation: small });
      expect(alone.status).toBe(400);
      expect(alone.body).toEqual({
        variation: [
          'You cannot select a variation without having selected a product that provides variations.',
        ],
      });
      expect(await voucherCount()).toBe(before);
      const ok = await post(`${E}/vouchers/`, { item: shirt.id, variation: small });
      expect(ok.status).toBe(201);
      expect([ok.body.item, ok.body.variation]).toEqual([shirt.id, small]);
    });

    it('needs a variation to block quota or ignore quota of a product with variations', async () => {
      const shirt = await createItem({ name: 'Shirt', has_variations: true });
      const block = await post(`${E}/vouchers/`, { item: shirt.id, block_quota: true });
      expect(block.status).toBe(400);
      expect(block.body).toEqual({
        variation: [
          'You can only block quota if you specify a specific product variation. Otherwise it might be unclear which quotas to block.',
        ],
      });
      const ignore = await post(`${E}/vouchers/`, { item: shirt.id, allow_ignore_quota: true });
      expect(ignore.status).toBe(400);
      expect(ignore.body).toEqual({
        variation: [
          'You can only use a voucher to ignore the quota of a product with variations if you select a specific variation.',
        ],
      });
      expect((await post(`${E}/vouchers/`, { item: shirt.id })).status).toBe(201);
    });

    it('refuses vouchers for add-on products', async () => {
      const category = await post(`${E}/categories/`, { name: 'Add-ons', is_addon: true });
      expect(category.status).toBe(201);
      const addon = await createItem({ name: 'Parking', category: category.body.id });
      const res = await post(`${E}/vouchers/`, { item: addon.id });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        item: ['It is currently not possible to create vouchers for add-on products.'],
      });
    });

    it('refuses item, quota and variation of another event', async () => {
      const foreignItem = await createItem({ name: 'Foreign', has_variations: true }, OTHER);
      const foreignVariation = await createVariation(foreignItem.id);
      const foreignQuota = await createQuota({ size: 5 }, 'other');
      const res = await post(`${E}/vouchers/`, { item: foreignItem.id, variation: foreignVariation });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        item: [`Invalid pk "${foreignItem.id}" - object does not exist.`],
        variation: [`Invalid pk "${foreignVariation}" - object does not exist.`],
      });
      const quota = await post(`${E}/vouchers/`, { quota: foreignQuota });
      expect(quota.status).toBe(400);
      expect(quota.body).toEqual({ quota: [`Invalid pk "${foreignQuota}" - object does not exist.`] });
    });

    it('needs a date to block quota in an event series', async () => {
      const item = await createItem({}, SERIES);
      await createQuota({ size: 10, items: [item.id] }, 'series');
      const res = await post(`${SERIES}/vouchers/`, { item: item.id, block_quota: true });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        subevent: ['If you want this voucher to block quota, you need to select a specific date.'],
      });
      const notBlocking = await post(`${SERIES}/vouchers/`, { item: item.id });
      expect(notBlocking.status).toBe(201);
    });

    it('refuses a duplicate code, case-insensitively, and allows it in another event', async () => {
      await createVoucher({ code: 'SUMMER2030' });
      const before = await voucherCount();
      for (const code of ['SUMMER2030', 'summer2030', 'Summer2030']) {
        const res = await post(`${E}/vouchers/`, { code });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(CODE_EXISTS);
      }
      expect(await voucherCount()).toBe(before);
      expect((await post(`${OTHER}/vouchers/`, { code: 'summer2030' })).status).toBe(201);
    });

    it('collects field and cross-field errors together', async () => {
      await createVoucher({ code: 'TAKEN-CODE' });
      const res = await post(`${E}/vouchers/`, {
        code: 'taken-code',
        item: 987654,
        quota: 987655,
        min_usages: 2,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        item: ['Invalid pk "987654" - object does not exist.'],
        quota: ['Invalid pk "987655" - object does not exist.'],
        non_field_errors: ['You cannot select a quota and a specific product at the same time.'],
        min_usages: ['The minimum number of usages may not be higher than the maximum number of usages.'],
        code: ['A voucher with this code already exists.'],
      });
    });

    it('answers 400 for a body that is not an object', async () => {
      const res = await post(`${E}/vouchers/`, [{}]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
    });
  });

  describe('blocking quota', () => {
    it('reserves max_usages places on the quotas of the item', async () => {
      const item = await createItem();
      const quota = await createQuota({ size: 5, items: [item.id] });
      const res = await post(`${E}/vouchers/`, { item: item.id, block_quota: true, max_usages: 3 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        ...DEFAULT_VOUCHER,
        id: res.body.id,
        item: item.id,
        block_quota: true,
        max_usages: 3,
      });
      const rows: { block_quota: boolean; max_usages: number }[] = await t.db.query(
        'SELECT block_quota, max_usages FROM voucher WHERE id = $1',
        [res.body.id],
      );
      expect(rows).toEqual([{ block_quota: true, max_usages: 3 }]);
      expect(await availability(quota)).toMatchObject({
        blocking_vouchers: 3,
        available_number: 2,
        available: true,
      });
    });

    it('refuses a blocking voucher that needs more than is free, creating nothing', async () => {
      const item = await createItem();
      const quota = await createQuota({ size: 2, items: [item.id] });
      await createVoucher({ item: item.id, block_quota: true });
      const before = await voucherCount();
      const res = await post(`${E}/vouchers/`, { item: item.id, block_quota: true, max_usages: 2 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(SOLD_OUT);
      expect(await voucherCount()).toBe(before);
      expect((await availability(quota)).available_number).toBe(1);
      expect((await post(`${E}/vouchers/`, { item: item.id, block_quota: true })).status).toBe(201);
      expect((await availability(quota)).available_number).toBe(0);
      const full = await post(`${E}/vouchers/`, { item: item.id, block_quota: true });
      expect(full.status).toBe(400);
      expect(full.body).toEqual(SOLD_OUT);
    });

    it('checks every quota of the item', async () => {
      const item = await createItem();
      const roomy = await createQuota({ size: 100, items: [item.id] });
      const tight = await createQuota({ size: 1, items: [item.id] });
      const res = await post(`${E}/vouchers/`, { item: item.id, block_quota: true, max_usages: 2 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(SOLD_OUT);
      expect((await availability(roomy)).blocking_vouchers).toBe(0);
      expect((await availability(tight)).blocking_vouchers).toBe(0);
    });

    it('blocks a quota named directly', async () => {
      const quota = await createQuota({ size: 1 });
      const res = await post(`${E}/vouchers/`, { quota, block_quota: true });
      expect(res.status).toBe(201);
      expect(res.body.quota).toBe(quota);
      expect(await availability(quota)).toMatchObject({ blocking_vouchers: 1, available_number: 0 });
      expect((await post(`${E}/vouchers/`, { quota, block_quota: true })).body).toEqual(SOLD_OUT);
    });

    it('blocks the quotas of a variation', async () => {
      const shirt = await createItem({ name: 'Shirt', has_variations: true });
      const small = await createVariation(shirt.id, 'S');
      const large = await createVariation(shirt.id, 'L');
      const smallQuota = await createQuota({ size: 1, variations: [small] });
      const largeQuota = await createQuota({ size: 1, variations: [large] });
      const res = await post(`${E}/vouchers/`, { item: shirt.id, variation: small, block_quota: true });
      expect(res.status).toBe(201);
      expect((await availability(smallQuota)).available_number).toBe(0);
      expect((await availability(largeQuota)).available_number).toBe(1);
      const again = await post(`${E}/vouchers/`, { item: shirt.id, variation: small, block_quota: true });
      expect(again.body).toEqual(SOLD_OUT);
    });

    it('refuses to block a product without quota, and any closed quota', async () => {
      const item = await createItem({ name: 'No quota' });
      const res = await post(`${E}/vouchers/`, { item: item.id, block_quota: true });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(SOLD_OUT);
      const closed = await createQuota({ size: 10, closed: true });
      const onClosed = await post(`${E}/vouchers/`, { quota: closed, block_quota: true });
      expect(onClosed.status).toBe(400);
      expect(onClosed.body).toEqual(SOLD_OUT);
    });

    it('lets an unlimited quota take any blocking voucher', async () => {
      const quota = await createQuota({ size: null });
      const res = await post(`${E}/vouchers/`, { quota, block_quota: true, max_usages: 1000 });
      expect(res.status).toBe(201);
      expect(await availability(quota)).toMatchObject({ blocking_vouchers: 1000, available_number: null });
    });

    it('creates an expired blocking voucher on a full quota without blocking anything', async () => {
      const quota = await createQuota({ size: 1 });
      await createVoucher({ quota, block_quota: true });
      const res = await post(`${E}/vouchers/`, {
        quota,
        block_quota: true,
        valid_until: '2020-01-01T00:00:00Z',
      });
      expect(res.status).toBe(201);
      expect(await availability(quota)).toMatchObject({ blocking_vouchers: 1, available_number: 0 });
    });

    it('closes a quota with close_when_sold_out that the voucher sells out', async () => {
      const item = await createItem();
      const quota = await createQuota({ size: 2, items: [item.id], closeWhenSoldOut: true });
      await createVoucher({ item: item.id, block_quota: true });
      const open: { closed: boolean }[] = await t.db.query('SELECT closed FROM quota WHERE id = $1', [quota]);
      expect(open[0].closed).toBe(false);
      await createVoucher({ item: item.id, block_quota: true });
      const closed: { closed: boolean }[] = await t.db.query('SELECT closed FROM quota WHERE id = $1', [
        quota,
      ]);
      expect(closed[0].closed).toBe(true);
      const logs: { action_type: string }[] = await t.db.query(
        "SELECT action_type FROM log_entry WHERE content_type = 'quota' AND object_id = $1",
        [quota],
      );
      expect(logs.map((l) => l.action_type)).toEqual(['pretix.event.quota.closed']);
    });

    describe('on update', () => {
      it('checks quota when switching to blocking', async () => {
        const quota = await createQuota({ size: 1 });
        await createVoucher({ quota, block_quota: true });
        const voucher = await createVoucher({ quota });
        const url = `${E}/vouchers/${voucher.id}/`;
        const res = await patch(url, { block_quota: true });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(SOLD_OUT);
        expect((await get(url)).body).toEqual(voucher);
        await t.db.query('UPDATE quota SET size = 2 WHERE id = $1', [quota]);
        const ok = await patch(url, { block_quota: true });
        expect(ok.status).toBe(200);
        expect(ok.body).toEqual({ ...voucher, block_quota: true });
        expect((await availability(quota)).available_number).toBe(0);
      });

      it('lets an unchanged blocking voucher be edited when its quota is now full or closed', async () => {
        const quota = await createQuota({ size: 2 });
        const voucher = await createVoucher({ quota, block_quota: true, max_usages: 2 });
        await t.db.query('UPDATE quota SET size = 1, closed = true WHERE id = $1', [quota]);
        const url = `${E}/vouchers/${voucher.id}/`;
        const res = await patch(url, { comment: 'still fine', tag: 'vip', block_quota: true, quota });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ ...voucher, comment: 'still fine', tag: 'vip' });
        const lower = await patch(url, { max_usages: 1 });
        expect(lower.status).toBe(200);
        expect(lower.body.max_usages).toBe(1);
      });

      it('checks quota when max_usages of a blocking voucher grows', async () => {
        const quota = await createQuota({ size: 3 });
        const voucher = await createVoucher({ quota, block_quota: true, max_usages: 2 });
        const url = `${E}/vouchers/${voucher.id}/`;
        const tooMany = await patch(url, { max_usages: 4 });
        expect(tooMany.status).toBe(400);
        expect(tooMany.body).toEqual(SOLD_OUT);
        const fits = await patch(url, { max_usages: 3 });
        expect(fits.status).toBe(200);
        expect(await availability(quota)).toMatchObject({ blocking_vouchers: 3, available_number: 0 });
      });

      it('counts only the unredeemed places of a partly redeemed voucher', async () => {
        const quota = await createQuota({ size: 3 });
        const voucher = await createVoucher({ quota, block_quota: true, max_usages: 3 });
        await setRedeemed(voucher.id, 2);
        await t.db.query('UPDATE quota SET size = 2 WHERE id = $1', [quota]);
        const url = `${E}/vouchers/${voucher.id}/`;
        // Holds 1 place; 4 usages would hold 2, which the quota of 2 still has.
        const res = await patch(url, { max_usages: 4 });
        expect(res.status).toBe(200);
        expect(await availability(quota)).toMatchObject({ blocking_vouchers: 2, available_number: 0 });
        expect((await patch(url, { max_usages: 5 })).body).toEqual(SOLD_OUT);
      });

      it('checks quota when the item of a blocking voucher changes', async () => {
        const roomy = await createItem({ name: 'Roomy' });
        const full = await createItem({ name: 'Full' });
        await createQuota({ size: 10, items: [roomy.id] });
        const fullQuota = await createQuota({ size: 1, items: [full.id] });
        await createVoucher({ item: full.id, block_quota: true });
        const voucher = await createVoucher({ item: roomy.id, block_quota: true });
        const url = `${E}/vouchers/${voucher.id}/`;
        const res = await patch(url, { item: full.id });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(SOLD_OUT);
        await t.db.query('UPDATE quota SET size = 2 WHERE id = $1', [fullQuota]);
        expect((await patch(url, { item: full.id })).status).toBe(200);
      });

      it('checks quota when the variation of a blocking voucher changes, and when it moves to a quota', async () => {
        const shirt = await createItem({ name: 'Shirt', has_variations: true });
        const small = await createVariation(shirt.id, 'S');
        const large = await createVariation(shirt.id, 'L');
        await createQuota({ size: 5, variations: [small] });
        await createQuota({ size: 0, variations: [large] });
        const voucher = await createVoucher({ item: shirt.id, variation: small, block_quota: true });
        const url = `${E}/vouchers/${voucher.id}/`;
        const res = await patch(url, { variation: large });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(SOLD_OUT);
        const emptyQuota = await createQuota({ size: 0 });
        const moved = await patch(url, { item: null, variation: null, quota: emptyQuota });
        expect(moved.status).toBe(400);
        expect(moved.body).toEqual(SOLD_OUT);
        expect((await get(url)).body).toEqual(voucher);
      });

      it('checks quota when an expired blocking voucher is reactivated', async () => {
        const quota = await createQuota({ size: 1 });
        const expired = await createVoucher({
          quota,
          block_quota: true,
          valid_until: '2020-01-01T00:00:00Z',
        });
        const blocker = await createVoucher({ quota, block_quota: true });
        const url = `${E}/vouchers/${expired.id}/`;
        const comment = await patch(url, { comment: 'edited while expired' });
        expect(comment.status).toBe(200);
        const res = await patch(url, { valid_until: '2040-01-01T00:00:00Z' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(SOLD_OUT);
        expect((await del(`${E}/vouchers/${blocker.id}/`)).status).toBe(204);
        const ok = await patch(url, { valid_until: '2040-01-01T00:00:00Z' });
        expect(ok.status).toBe(200);
        expect(ok.body.valid_until).toBe('2040-01-01T00:00:00Z');
        expect((await availability(quota)).available_number).toBe(0);
      });

      it('stops blocking when block_quota is switched off', async () => {
        const quota = await createQuota({ size: 1 });
        const voucher = await createVoucher({ quota, block_quota: true });
        expect((await availability(quota)).available_number).toBe(0);
        const res = await patch(`${E}/vouchers/${voucher.id}/`, { block_quota: false });
        expect(res.status).toBe(200);
        expect((await availability(quota)).available_number).toBe(1);
      });
    });
  });

  describe('update', () => {
    it('PATCH changes only the sent fields, and a second GET shows the change', async () => {
      const voucher = await createVoucher({ code: 'PATCHME1', tag: 'a', value: '5.00', price_mode: 'set' });
      const url = `${E}/vouchers/${voucher.id}/`;
      const res = await patch(url, { comment: 'changed', max_usages: 3 });
      expect(res.status).toBe(200);
      const expected = { ...voucher, comment: 'changed', max_usages: 3 };
      expect(res.body).toEqual(expected);
      expect((await get(url)).body).toEqual(expected);
      expect(await logActions(voucher.id)).toEqual(['pretix.voucher.added', 'pretix.voucher.changed']);
    });

    it('PATCH that changes nothing logs nothing', async () => {
      const voucher = await createVoucher({ code: 'SAME-SAME', value: '5.00' });
      const res = await patch(`${E}/vouchers/${voucher.id}/`, { code: 'SAME-SAME', value: 5 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(voucher);
      expect(await logActions(voucher.id)).toEqual(['pretix.voucher.added']);
    });

    it('PUT resets omitted fields to their defaults and keeps an omitted code', async () => {
      const item = await createItem();
      const voucher = await createVoucher({
        code: 'PUTKEEP1',
        item: item.id,
        max_usages: 4,
        tag: 't',
        comment: 'c',
        price_mode: 'percent',
        value: '10.00',
        budget: '50.00',
      });
      const url = `${E}/vouchers/${voucher.id}/`;
      const res = await put(url, { max_usages: 2 });
      expect(res.status).toBe(200);
      const expected = {
        ...DEFAULT_VOUCHER,
        id: voucher.id,
        code: 'PUTKEEP1',
        created: voucher.created,
        max_usages: 2,
      };
      expect(res.body).toEqual(expected);
      expect((await get(url)).body).toEqual(expected);
      const renamed = await put(url, { code: 'PUTNEW01' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.code).toBe('PUTNEW01');
    });

    it('changes the code, refusing one of another voucher and accepting its own in another case', async () => {
      await createVoucher({ code: 'OCCUPIED1' });
      const voucher = await createVoucher({ code: 'MINE00001' });
      const url = `${E}/vouchers/${voucher.id}/`;
      const taken = await patch(url, { code: 'occupied1' });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual(CODE_EXISTS);
      const own = await patch(url, { code: 'mine00001' });
      expect(own.status).toBe(200);
      expect(own.body.code).toBe('mine00001');
      const short = await patch(url, { code: 'abc' });
      expect(short.body).toEqual({ code: ['Ensure this field has at least 5 characters.'] });
    });

    it('refuses max_usages below redeemed, and ignores redeemed in the body', async () => {
      const voucher = await createVoucher({ max_usages: 5 });
      await setRedeemed(voucher.id, 3);
      const url = `${E}/vouchers/${voucher.id}/`;
      const res = await patch(url, { max_usages: 2 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        max_usages: [
          'This voucher has already been redeemed 3 times. You cannot reduce the maximum number of usages below this number.',
        ],
      });
      const ignored = await patch(url, { redeemed: 0, max_usages: 3 });
      expect(ignored.status).toBe(200);
      expect([ignored.body.redeemed, ignored.body.max_usages]).toEqual([3, 3]);
      const putLow = await put(url, {});
      expect(putLow.status).toBe(400);
      expect(putLow.body).toEqual({
        max_usages: [
          'This voucher has already been redeemed 3 times. You cannot reduce the maximum number of usages below this number.',
        ],
      });
    });

    it('checks cross-field rules on the merged data', async () => {
      const item = await createItem();
      const quota = await createQuota({ size: 10 });
      const voucher = await createVoucher({ item: item.id, max_usages: 3, min_usages: 2 });
      const url = `${E}/vouchers/${voucher.id}/`;
      const both = await patch(url, { quota });
      expect(both.status).toBe(400);
      expect(both.body).toEqual({
        non_field_errors: ['You cannot select a quota and a specific product at the same time.'],
      });
      const lowMax = await patch(url, { max_usages: 1 });
      expect(lowMax.body).toEqual({
        min_usages: ['The minimum number of usages may not be higher than the maximum number of usages.'],
      });
      const bare = await createVoucher({});
      const blocking = await patch(`${E}/vouchers/${bare.id}/`, { block_quota: true });
      expect(blocking.body).toEqual({
        block_quota: [
          'You need to select a specific product or quota if this voucher should reserve tickets.',
        ],
      });
      expect((await get(url)).body).toEqual(voucher);
    });

    it('PATCH refuses null for non-nullable fields and accepts it for nullable ones', async () => {
      const item = await createItem();
      const voucher = await createVoucher({
        item: item.id,
        budget: '3.00',
        valid_until: '2040-01-01T00:00:00Z',
      });
      const url = `${E}/vouchers/${voucher.id}/`;
      const bad = await patch(url, { code: null, max_usages: null });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        code: ['This field may not be null.'],
        max_usages: ['This field may not be null.'],
      });
      const ok = await patch(url, { item: null, budget: null, valid_until: null });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ ...voucher, item: null, budget: null, valid_until: null });
    });
  });

  describe('delete', () => {
    it('deletes an unused voucher and logs it', async () => {
      const voucher = await createVoucher({});
      const url = `${E}/vouchers/${voucher.id}/`;
      const res = await del(url);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const gone = await get(url);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual(NOT_FOUND);
      expect(await logActions(voucher.id)).toEqual(['pretix.voucher.added', 'pretix.voucher.deleted']);
      expect((await del(url)).status).toBe(404);
    });

    it('refuses to delete a redeemed voucher with 403', async () => {
      const voucher = await createVoucher({ max_usages: 2 });
      await setRedeemed(voucher.id, 1);
      const url = `${E}/vouchers/${voucher.id}/`;
      const res = await del(url);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'This voucher can not be deleted as it has already been used.' });
      expect((await get(url)).status).toBe(200);
      expect(await logActions(voucher.id)).toEqual(['pretix.voucher.added']);
    });

    it('frees the places of a deleted blocking voucher', async () => {
      const quota = await createQuota({ size: 1 });
      const voucher = await createVoucher({ quota, block_quota: true });
      expect((await availability(quota)).available_number).toBe(0);
      expect((await del(`${E}/vouchers/${voucher.id}/`)).status).toBe(204);
      expect((await availability(quota)).available_number).toBe(1);
    });
  });

  describe('batch_create', () => {
    const batch = (body: unknown, tok = token) => post(`${E}/vouchers/batch_create/`, body, tok);

    it('creates every voucher and answers 201 with the list', async () => {
      const item = await createItem();
      const res = await batch([{ code: 'BATCH-0001' }, { item: item.id, tag: 'b' }, {}]);
      expect(res.status).toBe(201);
      expect(res.body).toEqual([
        { ...DEFAULT_VOUCHER, id: expect.any(Number), code: 'BATCH-0001' },
        { ...DEFAULT_VOUCHER, id: expect.any(Number), item: item.id, tag: 'b' },
        { ...DEFAULT_VOUCHER, id: expect.any(Number) },
      ]);
      const ids = (res.body as Json[]).map((v) => v.id);
      expect(new Set(ids).size).toBe(3);
      for (const [i, id] of ids.entries()) {
        expect((await get(`${E}/vouchers/${id}/`)).body).toEqual(res.body[i]);
        expect(await logActions(id)).toEqual(['pretix.voucher.added']);
      }
    });

    it('answers 201 with [] for an empty list', async () => {
      const res = await batch([]);
      expect(res.status).toBe(201);
      expect(res.body).toEqual([]);
    });

    it.each([
      [{ code: 'NOTALIST' }, 'dict'],
      [undefined, 'dict'],
    ])('answers 400 for the body %j', async (body, type) => {
      const before = await voucherCount();
      const res = await batch(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: [`Expected a list of items but got type "${type}".`] });
      expect(await voucherCount()).toBe(before);
    });

    it.each([
      [
        [{ code: 'VALID-0001' }, { code: 'ABC' }],
        [{}, { code: ['Ensure this field has at least 5 characters.'] }],
      ],
      [
        [{ code: 'DUPE-00001' }, { code: 'dupe-00001' }],
        [{}, { code: ['Duplicate voucher code in request.'] }],
      ],
      [
        [{}, { block_quota: true }, { min_usages: 2 }],
        [
          {},
          {
            block_quota: [
              'You need to select a specific product or quota if this voucher should reserve tickets.',
            ],
          },
          {
            min_usages: ['The minimum number of usages may not be higher than the maximum number of usages.'],
          },
        ],
      ],
      // Field types and formats are checked first (as for a single voucher), then the rules between fields.
      [
        [{}, { block_quota: true }, { max_usages: 0 }],
        [{}, {}, { max_usages: ['Ensure this value is greater than or equal to 1.'] }],
      ],
      [
        [{}, 5, null],
        [
          {},
          { non_field_errors: ['Invalid data. Expected a dictionary, but got int.'] },
          { non_field_errors: ['Invalid data. Expected a dictionary, but got null.'] },
        ],
      ],
      [
        [{ item: 987654 }, { seat: 'x1' }],
        [
          { item: ['Invalid pk "987654" - object does not exist.'] },
          { seat: ['The specified seat ID "x1" does not exist.'] },
        ],
      ],
    ])('answers 400 with errors aligned with %j and creates nothing', async (body, errors) => {
      const before = await voucherCount();
      const res = await batch(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
      expect(await voucherCount()).toBe(before);
    });

    it('refuses codes that exist already', async () => {
      await createVoucher({ code: 'EXISTING-1' });
      const before = await voucherCount();
      const res = await batch([{ code: 'FRESH-0001' }, { code: 'existing-1' }]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual([{}, CODE_EXISTS]);
      expect(await voucherCount()).toBe(before);
    });

    it('reserves the summed places of blocking vouchers per quota', async () => {
      const item = await createItem();
      const quota = await createQuota({ size: 3, items: [item.id] });
      const before = await voucherCount();
      const tooMany = await batch([
        { item: item.id, block_quota: true, max_usages: 2 },
        { comment: 'not blocking' },
        { item: item.id, block_quota: true, max_usages: 2 },
      ]);
      expect(tooMany.status).toBe(400);
      expect(tooMany.body).toEqual([SOLD_OUT, {}, SOLD_OUT]);
      expect(await voucherCount()).toBe(before);
      expect((await availability(quota)).available_number).toBe(3);
      const fits = await batch([
        { item: item.id, block_quota: true, max_usages: 2 },
        { quota, block_quota: true },
      ]);
      expect(fits.status).toBe(201);
      expect(await availability(quota)).toMatchObject({ blocking_vouchers: 3, available_number: 0 });
    });

    it('refuses a blocking entry for a product without quota', async () => {
      const item = await createItem({ name: 'No quota' });
      const res = await batch([{}, { item: item.id, block_quota: true }]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual([{}, SOLD_OUT]);
    });

    it('answers 403 without event.vouchers:write', async () => {
      const before = await voucherCount();
      for (const tok of [reader, itemsWriter]) {
        const res = await batch([{}], tok);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect(await voucherCount()).toBe(before);
      expect((await t.http().post(`${E}/vouchers/batch_create/`).send([{}])).status).toBe(401);
    });
  });

  describe('list', () => {
    let base: string;
    let ids: Record<string, number>;
    let itemId: number;
    let quotaId: number;

    beforeAll(async () => {
      await createEvent(t, token, 'org', { slug: 'listing' });
      base = '/api/v1/organizers/org/events/listing';
      itemId = (await createItem({}, base)).id;
      quotaId = await createQuota({ size: 100 }, 'listing');
      ids = {};
      const specs: [string, object][] = [
        ['alpha', { code: 'MIKE-0001', max_usages: 3, tag: 'press', value: '10.00', price_mode: 'set' }],
        [
          'bravo',
          { code: 'ZULU-0002', item: itemId, comment: 'Speaker pass', valid_until: '2040-01-01T00:00:00Z' },
        ],
        [
          'charlie',
          {
            code: 'ALPHA-003',
            quota: quotaId,
            block_quota: true,
            max_usages: 2,
            valid_until: '2035-01-01T00:00:00Z',
          },
        ],
        [
          'delta',
          { code: 'DELTA_100%', allow_ignore_quota: true, valid_until: '2020-01-01T00:00:00Z', tag: 'staff' },
        ],
      ];
      for (const [key, body] of specs) ids[key] = (await createVoucher(body, base)).id;
      await setRedeemed(ids.alpha, 1);
      await setRedeemed(ids.charlie, 2);
    });

    const keysOf = (res: { body: { results: { id: number }[] } }) =>
      res.body.results.map((r) => Object.keys(ids).find((k) => ids[k] === r.id));

    it('lists in the envelope ordered by id by default', async () => {
      const res = await get(`${base}/vouchers/`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(4);
      expect(res.body.next).toBeNull();
      expect(res.body.previous).toBeNull();
      expect(keysOf(res)).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
      expect(res.body.results[0]).toEqual({
        ...DEFAULT_VOUCHER,
        id: ids.alpha,
        code: 'MIKE-0001',
        max_usages: 3,
        redeemed: 1,
        tag: 'press',
        value: '10.00',
        price_mode: 'set',
      });
    });

    it.each([
      ['ordering=-id', ['delta', 'charlie', 'bravo', 'alpha']],
      ['ordering=code', ['charlie', 'delta', 'alpha', 'bravo']],
      ['ordering=-max_usages', ['alpha', 'charlie', 'bravo', 'delta']],
      ['ordering=valid_until', ['delta', 'charlie', 'bravo', 'alpha']],
      ['ordering=-value', ['alpha', 'bravo', 'charlie', 'delta']],
      ['ordering=comment', ['alpha', 'bravo', 'charlie', 'delta']],
    ])('orders by %s', async (query, expected) => {
      const res = await get(`${base}/vouchers/?${query}`);
      expect(res.status).toBe(200);
      expect(keysOf(res)).toEqual(expected);
    });

    it.each([
      ['code=MIKE-0001', ['alpha']],
      ['code=mike-0001', ['alpha']],
      ['code=MIKE', []],
      ['max_usages=2', ['charlie']],
      ['redeemed=0', ['bravo', 'delta']],
      ['block_quota=true', ['charlie']],
      ['block_quota=false', ['alpha', 'bravo', 'delta']],
      ['allow_ignore_quota=true', ['delta']],
      ['price_mode=set', ['alpha']],
      ['price_mode=none', ['bravo', 'charlie', 'delta']],
      ['value=10', ['alpha']],
      ['value=10.00', ['alpha']],
      ['value=0', ['bravo', 'charlie', 'delta']],
      ['tag=press', ['alpha']],
      ['tag=pre', []],
      ['active=true', ['alpha', 'bravo']],
      ['active=false', ['charlie', 'delta']],
      ['search=speaker', ['bravo']],
      ['search=zulu', ['bravo']],
      ['search=staff', ['delta']],
      ['search=100%25', ['delta']],
      ['search=_', ['delta']],
      ['search=nothing', []],
      ['subevent=1', []],
      ['block_quota=false&tag=staff', ['delta']],
    ])('filters by %s', async (query, expected) => {
      const res = await get(`${base}/vouchers/?${query}`);
      expect(res.status).toBe(200);
      expect(keysOf(res)).toEqual(expected);
      expect(res.body.count).toBe(expected.length);
    });

    it('filters by item, quota and variation ids', async () => {
      expect(keysOf(await get(`${base}/vouchers/?item=${itemId}`))).toEqual(['bravo']);
      expect(keysOf(await get(`${base}/vouchers/?quota=${quotaId}`))).toEqual(['charlie']);
      expect(keysOf(await get(`${base}/vouchers/?variation=987654`))).toEqual([]);
    });

    it.each([
      ['block_quota=maybe', { block_quota: ['Must be a valid boolean.'] }],
      ['active=yes', { active: ['Must be a valid boolean.'] }],
      ['max_usages=abc', { max_usages: ['Enter a whole number.'] }],
      ['item=x', { item: ['Enter a whole number.'] }],
      ['value=cheap', { value: ['Enter a number.'] }],
    ])('answers 400 for %s', async (query, errors) => {
      const res = await get(`${base}/vouchers/?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
    });

    it('paginates', async () => {
      const res = await get(`${base}/vouchers/?page_size=3&page=2`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(4);
      expect(keysOf(res)).toEqual(['delta']);
      expect(res.body.next).toBeNull();
      expect(res.body.previous).toMatch(/\/vouchers\/\?page_size=3$/);
      expect((await get(`${base}/vouchers/?page=3&page_size=3`)).status).toBe(404);
    });

    it('shows only vouchers of the event in the URL', async () => {
      const res = await get(`${E}/vouchers/?page_size=50`);
      const listed = (res.body.results as { id: number }[]).map((r) => r.id);
      for (const id of Object.values(ids)) expect(listed).not.toContain(id);
    });

    it('runs the same number of SQL statements whatever the page size', async () => {
      const count = (query: string) => listStatements(() => get(`${base}/vouchers/?${query}`));
      const one = await count('page_size=1');
      const three = await count('page_size=3');
      expect(one.rows).toBe(1);
      expect(three.rows).toBe(3);
      expect(three.statements).toBe(one.statements);
    });
  });

  describe('locks', () => {
    // The 409 answers to locks held too long: test/order-and-voucher-locks.e2e-spec.ts (an app configured with
    // short waits).
    it('bounds lock waits of every voucher write to 3 seconds by default (VOUCHER_LOCK_TIMEOUT_MS)', async () => {
      expect(t.app.get(AppConfig).voucherLockTimeoutMs).toBe(3000);
      const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      try {
        const res = await post(`${E}/vouchers/`, {});
        expect(res.status).toBe(201);
        const statements = spy.mock.calls.map((c) => String(c[0]));
        const begin = statements.findIndex((s) => /^START TRANSACTION/i.test(s));
        expect(begin).toBeGreaterThanOrEqual(0);
        expect(statements[begin + 1]).toBe("SET LOCAL lock_timeout = '3000ms'");
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('scoping', () => {
    let foreign: Json;

    beforeAll(async () => {
      foreign = await createVoucher({ code: 'FOREIGN-1' }, OTHER);
    });

    it.each(['get', 'patch', 'put', 'delete'] as const)(
      '%s of a voucher of another event answers 404',
      async (method) => {
        const url = `${E}/vouchers/${foreign.id}/`;
        const res =
          method === 'get'
            ? await get(url)
            : method === 'delete'
              ? await del(url)
              : method === 'patch'
                ? await patch(url, { comment: 'hijack' })
                : await put(url, { comment: 'hijack' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
        expect((await get(`${OTHER}/vouchers/${foreign.id}/`)).body).toEqual(foreign);
      },
    );

    it.each(['abc', '1.5', '0', '-1', '99999999999'])('answers 404 for the id %s', async (id) => {
      const res = await get(`${E}/vouchers/${id}/`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect((await patch(`${E}/vouchers/${id}/`, { comment: 'x' })).status).toBe(404);
      expect((await put(`${E}/vouchers/${id}/`, {})).status).toBe(404);
      expect((await del(`${E}/vouchers/${id}/`)).status).toBe(404);
    });
  });

  describe('permissions', () => {
    let voucher: Json;

    beforeAll(async () => {
      voucher = await createVoucher({ code: 'PERM-0001' });
    });

    it('answers 401 without credentials', async () => {
      const res = await t.http().get(`${E}/vouchers/`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect((await t.http().get(`${E}/vouchers/${voucher.id}/`)).status).toBe(401);
      expect((await t.http().post(`${E}/vouchers/`).send({})).status).toBe(401);
      expect((await t.http().patch(`${E}/vouchers/${voucher.id}/`).send({})).status).toBe(401);
      expect((await t.http().delete(`${E}/vouchers/${voucher.id}/`)).status).toBe(401);
    });

    it('lets a team with event.vouchers:read read', async () => {
      const list = await get(`${E}/vouchers/`, reader);
      expect(list.status).toBe(200);
      expect((list.body.results as { id: number }[]).map((r) => r.id)).toContain(voucher.id);
      const detail = await get(`${E}/vouchers/${voucher.id}/`, reader);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(voucher);
    });

    it('answers 403 to reads without event.vouchers:read (event.items:write or even event.vouchers:write)', async () => {
      for (const tok of [itemsWriter, voucherWriter]) {
        for (const res of [
          await get(`${E}/vouchers/`, tok),
          await get(`${E}/vouchers/${voucher.id}/`, tok),
        ]) {
          expect(res.status).toBe(403);
          expect(res.body).toEqual(DENIED);
        }
      }
    });

    it('lets a team with event.vouchers:write write', async () => {
      const res = await post(`${E}/vouchers/`, { code: 'WRITER-01' }, voucherWriter);
      expect(res.status).toBe(201);
      expect((await patch(`${E}/vouchers/${res.body.id}/`, { tag: 'w' }, voucherWriter)).status).toBe(200);
      expect((await del(`${E}/vouchers/${res.body.id}/`, voucherWriter)).status).toBe(204);
    });

    it('answers 403 to every write without event.vouchers:write, changing nothing', async () => {
      const before = await voucherCount();
      const url = `${E}/vouchers/${voucher.id}/`;
      for (const tok of [reader, itemsWriter]) {
        for (const res of [
          await post(`${E}/vouchers/`, {}, tok),
          await patch(url, { comment: 'x' }, tok),
          await put(url, {}, tok),
          await del(url, tok),
        ]) {
          expect(res.status).toBe(403);
          expect(res.body).toEqual(DENIED);
        }
      }
      expect((await get(url)).body).toEqual(voucher);
      expect(await voucherCount()).toBe(before);
    });

    it('answers 403 for an event outside the team limit, and for unknown organizer or event', async () => {
      for (const res of [
        await get(`${E}/vouchers/`, outsider),
        await get(`${E}/vouchers/${voucher.id}/`, outsider),
        await post(`${E}/vouchers/`, {}, outsider),
        await post(`${E}/vouchers/batch_create/`, [{}], outsider),
        await patch(`${E}/vouchers/${voucher.id}/`, { comment: 'x' }, outsider),
        await del(`${E}/vouchers/${voucher.id}/`, outsider),
        await get('/api/v1/organizers/nope/events/sample/vouchers/'),
        await get('/api/v1/organizers/org/events/nope/vouchers/'),
        await post('/api/v1/organizers/org/events/nope/vouchers/', {}),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(`${E}/vouchers/${voucher.id}/`)).body).toEqual(voucher);
    });
  });
});
