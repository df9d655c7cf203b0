import { QuotaLookup } from '../src/catalogue/quotas/quota-lookup.service';
import { QuotaEngine } from '../src/orders/quota-engine/quota-engine.service';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Voucher writes under concurrency (spec "Voucher"; architecture.md "Concurrency"): requests fired truly in
 * parallel never create two vouchers with one code and never block more places than a quota has.
 */
describe('vouchers under concurrency', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const BUSY = { detail: 'The server was too busy to process your request. Please try again.' };
  const CODE_EXISTS = { code: ['A voucher with this code already exists.'] };
  const SOLD_OUT = {
    non_field_errors: [
      'You cannot create a voucher that blocks quota as the selected product or quota is currently sold out or completely reserved.',
    ],
  };

  const post = (path: string, body: unknown) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(token))
      .send(body as object);

  let eventId: number;

  async function createItem(): Promise<number> {
    const res = await post(`${E}/items/`, { name: { en: 'Ticket' }, default_price: '10.00' });
    if (res.status !== 201) throw new Error(`createItem: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as number;
  }

  /** A quota written straight to the tables (the quota endpoints are another resource). */
  async function createQuota(size: number, itemId: number, closeWhenSoldOut = false): Promise<number> {
    const rows: { id: number }[] = await t.db.query(
      `INSERT INTO quota (event_id, name, size, close_when_sold_out) VALUES ($1, 'Q', $2, $3) RETURNING id`,
      [eventId, size, closeWhenSoldOut],
    );
    await t.db.query('INSERT INTO quota_item (quota_id, item_id) VALUES ($1, $2)', [rows[0].id, itemId]);
    return rows[0].id;
  }

  async function availability(quotaId: number) {
    const [quota] = await t.app.get(QuotaLookup).load(t.db.manager, [quotaId], false);
    return (await t.app.get(QuotaEngine).compute(t.db.manager, [quota])).get(quotaId)!;
  }

  async function countWhere(sql: string, params: unknown[]): Promise<number> {
    const rows: { n: string }[] = await t.db.query(`SELECT count(*) AS n FROM voucher WHERE ${sql}`, params);
    return Number(rows[0].n);
  }

  const statuses = (responses: { status: number }[]) =>
    responses.reduce<Record<number, number>>(
      (acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }),
      {},
    );

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    const event = await createEvent(t, token, 'org', { slug: 'sample' });
    const rows: { id: number }[] = await t.db.query('SELECT id FROM event WHERE slug = $1', [event.slug]);
    eventId = rows[0].id;
  });
  afterAll(() => t.close());

  it('30 parallel creations with one code give exactly one 201 and one row', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_v, i) =>
        post(`${E}/vouchers/`, { code: i % 2 ? 'RACE-CODE' : 'race-code' }),
      ),
    );
    const created = responses.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    for (const r of responses.filter((x) => x.status !== 201)) {
      expect([400, 409]).toContain(r.status);
      expect(r.body).toEqual(r.status === 400 ? CODE_EXISTS : BUSY);
    }
    expect(await countWhere('event_id = $1 AND upper(code) = $2', [eventId, 'RACE-CODE'])).toBe(1);
    expect(created[0].body.code).toMatch(/^race-code$/i);
  });

  it('20 parallel blocking vouchers on a quota of 10 give exactly 10 × 201 and 10 × 400', async () => {
    const item = await createItem();
    const quota = await createQuota(10, item);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => post(`${E}/vouchers/`, { item, block_quota: true, max_usages: 1 })),
    );
    expect(statuses(responses)).toEqual({ 201: 10, 400: 10 });
    for (const r of responses.filter((x) => x.status === 400)) expect(r.body).toEqual(SOLD_OUT);
    expect(await countWhere('item_id = $1 AND block_quota', [item])).toBe(10);
    expect(await availability(quota)).toMatchObject({
      blocking_vouchers: 10,
      available_number: 0,
      available: false,
    });
  });

  it('with close_when_sold_out the quota ends closed, closed once', async () => {
    const item = await createItem();
    const quota = await createQuota(10, item, true);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => post(`${E}/vouchers/`, { item, block_quota: true, max_usages: 1 })),
    );
    expect(statuses(responses)).toEqual({ 201: 10, 400: 10 });
    expect(await countWhere('item_id = $1 AND block_quota', [item])).toBe(10);
    const rows: { closed: boolean }[] = await t.db.query('SELECT closed FROM quota WHERE id = $1', [quota]);
    expect(rows[0].closed).toBe(true);
    const logs: { n: string }[] = await t.db.query(
      "SELECT count(*) AS n FROM log_entry WHERE content_type = 'quota' AND object_id = $1 AND action_type = 'pretix.event.quota.closed'",
      [quota],
    );
    expect(Number(logs[0].n)).toBe(1);
    expect(await availability(quota)).toMatchObject({ available_number: 0, available: false });
  });

  it('10 parallel blocking batches of 3 on a quota of 10 create exactly 3 batches, all or nothing', async () => {
    const item = await createItem();
    const quota = await createQuota(10, item);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(`${E}/vouchers/batch_create/`, [
          { item, block_quota: true },
          { item, block_quota: true },
          { item, block_quota: true },
        ]),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 3, 400: 7 });
    for (const r of responses.filter((x) => x.status === 400)) {
      expect(r.body).toEqual([SOLD_OUT, SOLD_OUT, SOLD_OUT]);
    }
    expect(await countWhere('item_id = $1', [item])).toBe(9);
    expect(await availability(quota)).toMatchObject({ blocking_vouchers: 9, available_number: 1 });
  });

  it('parallel batches sharing one code create exactly one of them, the others nothing', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_v, i) =>
        post(`${E}/vouchers/batch_create/`, [{ code: 'SHARED-BATCH' }, { code: `OWN-CODE-${i}` }]),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of responses.filter((x) => x.status !== 201)) {
      expect([400, 409]).toContain(r.status);
      expect(r.body).toEqual(r.status === 400 ? [CODE_EXISTS, {}] : BUSY);
    }
    expect(await countWhere('event_id = $1 AND code = $2', [eventId, 'SHARED-BATCH'])).toBe(1);
    expect(await countWhere("event_id = $1 AND code LIKE 'OWN-CODE-%'", [eventId])).toBe(1);
  });
});
