import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Quota availability (spec "Quota availability object"; compat §3.14): `GET E/quotas/{id}/availability/` and
 * `with_availability=true`, with blocking vouchers written straight to the table (item-, variation- and
 * quota-level; expired and used-up ones do not count). Orders and carts join with the orders issue.
 */
describe('quota availability', () => {
  let t: TestApp;
  let token: string;
  const ORG = '/api/v1/organizers/org/events';
  const E = `${ORG}/sample`;
  const OTHER = `${ORG}/other`;
  const ZERO_COUNTS = {
    paid_orders: 0,
    pending_orders: 0,
    exited_orders: 0,
    cart_positions: 0,
    waiting_list: 0,
  };

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));

  async function createItem(body: object, base = E): Promise<number> {
    const res = await t
      .http()
      .post(`${base}/items/`)
      .set('Authorization', auth(token))
      .send({ name: 'Ticket', default_price: '10.00', ...body });
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as number;
  }

  async function createQuota(body: object, base = E): Promise<number> {
    const res = await t.http().post(`${base}/quotas/`).set('Authorization', auth(token)).send(body);
    if (res.status !== 201) throw new Error(`createQuota: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as number;
  }

  async function addVariation(itemId: number, name: string): Promise<number> {
    const rows: { id: number }[] = await t.db.query(
      'INSERT INTO item_variation (item_id, value) VALUES ($1, $2::jsonb) RETURNING id',
      [itemId, JSON.stringify({ en: name })],
    );
    return rows[0].id;
  }

  let codes = 0;
  /** A voucher row; blocking unless told otherwise, valid forever, unused. */
  async function voucher(
    eventSlug: string,
    fields: {
      item?: number;
      variation?: number;
      quota?: number;
      maxUsages?: number;
      redeemed?: number;
      validUntil?: string;
      blockQuota?: boolean;
    },
  ): Promise<void> {
    await t.db.query(
      `INSERT INTO voucher (event_id, code, max_usages, redeemed, valid_until, block_quota, item_id, variation_id, quota_id)
       SELECT e.id, $2, $3, $4, $5, $6, $7, $8, $9 FROM event e WHERE e.slug = $1`,
      [
        eventSlug,
        `CODE${++codes}`,
        fields.maxUsages ?? 1,
        fields.redeemed ?? 0,
        fields.validUntil ?? null,
        fields.blockQuota ?? true,
        fields.item ?? null,
        fields.variation ?? null,
        fields.quota ?? null,
      ],
    );
  }

  let ticket: number;
  let shirt: number;
  let small: number;
  let large: number;
  let quotas: {
    ticket: number;
    small: number;
    large: number;
    mixed: number;
    unlimited: number;
    closed: number;
    overbooked: number;
    untouched: number;
  };

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    ticket = await createItem({ name: 'Ticket' });
    shirt = await createItem({ name: 'Shirt', has_variations: true });
    small = await addVariation(shirt, 'S');
    large = await addVariation(shirt, 'L');
    const spare = await createItem({ name: 'Spare' });
    quotas = {
      ticket: await createQuota({ name: 'Tickets', size: 100, items: [ticket] }),
      small: await createQuota({ name: 'Small', size: 10, items: [shirt], variations: [small] }),
      large: await createQuota({ name: 'Large', size: 10, items: [shirt], variations: [large] }),
      mixed: await createQuota({
        name: 'Mixed',
        size: 50,
        items: [ticket, shirt],
        variations: [small, large],
      }),
      unlimited: await createQuota({ name: 'Unlimited', size: null, items: [ticket] }),
      closed: await createQuota({ name: 'Closed', size: 100, items: [ticket], closed: true }),
      overbooked: await createQuota({ name: 'Overbooked', size: 2 }),
      untouched: await createQuota({ name: 'Untouched', size: 7, items: [spare] }),
    };

    const past = new Date(Date.now() - 3600_000).toISOString();
    const future = new Date(Date.now() + 86400_000).toISOString();
    // Item level, on `ticket`: 3 + (5 - 2) + 1 (valid until tomorrow) = 7 places.
    await voucher('sample', { item: ticket, maxUsages: 3 });
    await voucher('sample', { item: ticket, maxUsages: 5, redeemed: 2 });
    await voucher('sample', { item: ticket, validUntil: future });
    // Not counted: not blocking, expired, used up.
    await voucher('sample', { item: ticket, maxUsages: 4, blockQuota: false });
    await voucher('sample', { item: ticket, maxUsages: 9, validUntil: past });
    await voucher('sample', { item: ticket, maxUsages: 2, redeemed: 2 });
    // Variation level: 2 on `small` (its quotas only).
    await voucher('sample', { item: shirt, variation: small, maxUsages: 2 });
    await voucher('sample', { item: shirt, variation: large, maxUsages: 6, validUntil: past });
    // Item level on an item with variations: counts in every quota listing the item.
    await voucher('sample', { item: shirt });
    // Quota level: only that quota.
    await voucher('sample', { quota: quotas.large, maxUsages: 4 });
    await voucher('sample', { quota: quotas.closed, maxUsages: 2 });
    await voucher('sample', { quota: quotas.overbooked, maxUsages: 5 });
    await voucher('sample', { quota: quotas.untouched, maxUsages: 3, redeemed: 3 });
    // Another event: never counted here.
    const foreign = await createItem({ name: 'Elsewhere' }, OTHER);
    await createQuota({ name: 'Elsewhere', size: 3, items: [foreign] }, OTHER);
    await voucher('other', { item: foreign, maxUsages: 3 });
  });
  afterAll(() => t.close());

  /** Expected availability objects (every key of the spec). */
  const expected = () => ({
    ticket: { ...ZERO_COUNTS, blocking_vouchers: 7, available: true, available_number: 93, total_size: 100 },
    small: { ...ZERO_COUNTS, blocking_vouchers: 3, available: true, available_number: 7, total_size: 10 },
    large: { ...ZERO_COUNTS, blocking_vouchers: 5, available: true, available_number: 5, total_size: 10 },
    mixed: { ...ZERO_COUNTS, blocking_vouchers: 10, available: true, available_number: 40, total_size: 50 },
    unlimited: {
      ...ZERO_COUNTS,
      blocking_vouchers: 7,
      available: true,
      available_number: null,
      total_size: null,
    },
    closed: { ...ZERO_COUNTS, blocking_vouchers: 9, available: false, available_number: 0, total_size: 100 },
    overbooked: {
      ...ZERO_COUNTS,
      blocking_vouchers: 5,
      available: false,
      available_number: 0,
      total_size: 2,
    },
    untouched: { ...ZERO_COUNTS, blocking_vouchers: 0, available: true, available_number: 7, total_size: 7 },
  });

  it.each([
    ['an item-level-voucher quota', 'ticket'],
    ['a quota of one variation (variation- and item-level vouchers)', 'small'],
    ['a quota of one variation with a quota-level voucher', 'large'],
    ['a quota of an item and all variations of another', 'mixed'],
    ['an unlimited quota (nulls)', 'unlimited'],
    ['a closed quota (nothing available)', 'closed'],
    ['a quota blocked beyond its size (never negative)', 'overbooked'],
    ['a quota whose only voucher is used up', 'untouched'],
  ] as const)('GET availability/ of %s has every key of the spec', async (_label, key) => {
    const res = await get(`${E}/quotas/${quotas[key]}/availability/`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expected()[key]);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'available',
        'available_number',
        'total_size',
        'pending_orders',
        'paid_orders',
        'exited_orders',
        'cart_positions',
        'blocking_vouchers',
        'waiting_list',
      ].sort(),
    );
  });

  it('gives the same available/available_number in the list and on detail with with_availability=true', async () => {
    const list = await get(`${E}/quotas/?with_availability=true`);
    expect(list.status).toBe(200);
    const want = expected();
    const byId = new Map(Object.entries(quotas).map(([k, id]) => [id, k as keyof typeof want]));
    expect(list.body.count).toBe(8);
    for (const row of list.body.results as { id: number; available: boolean; available_number: number }[]) {
      const key = byId.get(row.id)!;
      expect([key, row.available, row.available_number]).toEqual([
        key,
        want[key].available,
        want[key].available_number,
      ]);
      const detail = await get(`${E}/quotas/${row.id}/?with_availability=true`);
      expect(detail.body).toEqual(row);
    }
  });

  it('counts a voucher again when it is extended, and stops counting it when it is used up', async () => {
    const id = await createQuota({ name: 'Moving', size: 10, items: [ticket] });
    expect((await get(`${E}/quotas/${id}/availability/`)).body.blocking_vouchers).toBe(7);
    await t.db.query(
      "UPDATE voucher SET valid_until = now() + interval '1 day' WHERE item_id = $1 AND max_usages = 9",
      [ticket],
    );
    expect((await get(`${E}/quotas/${id}/availability/`)).body).toMatchObject({
      blocking_vouchers: 16,
      available: false,
      available_number: 0,
    });
    await t.db.query('UPDATE voucher SET redeemed = max_usages WHERE item_id = $1 AND max_usages = 9', [
      ticket,
    ]);
    expect((await get(`${E}/quotas/${id}/availability/`)).body).toMatchObject({
      blocking_vouchers: 7,
      available: true,
      available_number: 3,
    });
  });

  it('counts no exits while nothing was scanned, also with release_after_exit', async () => {
    const id = await createQuota({ name: 'Exits', size: 10, items: [ticket], release_after_exit: true });
    expect((await get(`${E}/quotas/${id}/availability/`)).body).toEqual({
      ...ZERO_COUNTS,
      blocking_vouchers: 7,
      available: true,
      available_number: 3,
      total_size: 10,
    });
  });

  it('answers 401 without credentials, 403 outside the event, and lets any event access read', async () => {
    const path = `${E}/quotas/${quotas.ticket}/availability/`;
    const anonymous = await t.http().get(path);
    expect(anonymous.status).toBe(401);
    const noPermissions = await teamToken(t, 'org', { allEvents: true, eventPermissions: [] });
    expect((await get(path, noPermissions)).body).toEqual(expected().ticket);
    const elsewhere = await teamToken(t, 'org', { limitEvents: ['other'], allEventPermissions: true });
    const denied = await get(path, elsewhere);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ detail: 'You do not have permission to perform this action.' });
  });

  it('answers 404 for a quota of another event and for unknown ids', async () => {
    const foreign = (await get(`${OTHER}/quotas/`)).body.results[0].id as number;
    expect((await get(`${OTHER}/quotas/${foreign}/availability/`)).body).toMatchObject({
      blocking_vouchers: 3,
      available_number: 0,
    });
    for (const id of [foreign, 999999, 'abc']) {
      const res = await get(`${E}/quotas/${id}/availability/`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
    }
  });
});
