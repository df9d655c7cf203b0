import { retryingBusy } from './client-retry';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Check-in positions and redeeming (compat §3.21): which positions a list shows (paid, pending with
 * `include_pending`, its products), the scanner-only search rule, and every redeem rule with the rows it stores:
 * `ok`, `already_redeemed`, entry after exit, multiple entries, `unpaid` (and `ignore_unpaid`), `canceled`,
 * `product`, `invalid_time`, `invalid` (nothing stored), forced scans, nonces, add-on match (and `ambiguous`),
 * untrusted input; 20 scanners redeeming one ticket at once get exactly one `ok`.
 */
describe('check-in positions and redeem', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  let ticket: number;
  let parking: number;

  const list = async (body: object): Promise<number> => {
    const res = await post(`${E}/checkinlists/`, { name: 'L', ...body });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const order = async (body: object) => {
    const res = await post(`${E}/orders/`, body);
    expect(res.status).toBe(201);
    return res.body as { code: string; positions: { id: number; secret: string }[] };
  };
  const redeem = (l: number, position: string | number, body: object = {}, query = '') =>
    post(`${E}/checkinlists/${l}/positions/${encodeURIComponent(String(position))}/redeem/${query}`, body);
  const scans = async (position: number): Promise<{ successful: boolean; error_reason: string | null }[]> =>
    t.db.query('SELECT successful, error_reason FROM checkin WHERE position_id = $1 ORDER BY id', [position]);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    ticket = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00', admission: true })).body.id;
    parking = (await post(`${E}/items/`, { name: 'Parking', default_price: '5.00' })).body.id;
    await post(`${E}/quotas/`, { name: 'Q', size: 1000, items: [ticket, parking] });
  });
  afterAll(() => t.close());

  it('redeems once; a second entry is already_redeemed; an exit then allows entry again; all scans stored', async () => {
    const l = await list({ all_products: true });
    const o = await order({
      status: 'p',
      positions: [{ item: ticket, attendee_name_parts: { given_name: 'Ada' } }],
    });
    const { id, secret } = o.positions[0];
    const ok = await redeem(l, secret);
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      status: 'ok',
      require_attention: false,
      position: { id, order: o.code, secret, checkins: [{ list: l, type: 'entry' }] },
      list: { id: l, name: 'L', event: 'sample', subevent: null, include_pending: false },
    });
    const again = await redeem(l, secret);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      status: 'error',
      reason: 'already_redeemed',
      reason_explanation: expect.any(String),
      position: { id },
      list: { id: l },
    });
    expect((await redeem(l, secret, { type: 'exit' })).status).toBe(201);
    expect((await redeem(l, secret)).status).toBe(201); // entry after exit (default true)
    expect((await redeem(l, secret, { force: true })).status).toBe(201); // forced: admitted anyway
    expect(await scans(id)).toEqual([
      { successful: true, error_reason: null },
      { successful: false, error_reason: 'already_redeemed' },
      { successful: true, error_reason: null },
      { successful: true, error_reason: null },
      { successful: true, error_reason: null },
    ]);
    const forced: { forced: boolean }[] = await t.db.query(
      'SELECT forced FROM checkin WHERE position_id = $1 AND successful ORDER BY id DESC LIMIT 1',
      [id],
    );
    expect(forced).toEqual([{ forced: true }]);
    const denied: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM log_entry WHERE action_type = 'pretix.event.checkin.denied'`,
    );
    expect(denied[0].n).toBeGreaterThan(0);
  });

  it('list settings: no entry after exit, multiple entries; lists are independent', async () => {
    const strict = await list({ all_products: true, allow_entry_after_exit: false });
    const multi = await list({ all_products: true, allow_multiple_entries: true });
    const { secret } = (await order({ status: 'p', positions: [{ item: ticket }] })).positions[0];
    expect((await redeem(strict, secret)).status).toBe(201);
    expect((await redeem(strict, secret, { type: 'exit' })).status).toBe(201);
    expect((await redeem(strict, secret)).body.reason).toBe('already_redeemed');
    expect((await redeem(multi, secret)).status).toBe(201);
    expect((await redeem(multi, secret)).status).toBe(201);
  });

  it('unpaid, ignore_unpaid with include_pending, canceled (or unpaid for old scanners), product, invalid_time', async () => {
    const plain = await list({ limit_products: [ticket] });
    const pendingList = await list({ limit_products: [ticket], include_pending: true });
    const pending = (await order({ positions: [{ item: ticket }] })).positions[0];
    expect((await redeem(plain, pending.secret)).body.reason).toBe('unpaid');
    expect((await redeem(pendingList, pending.secret)).body.reason).toBe('unpaid');
    expect((await redeem(pendingList, pending.secret, { ignore_unpaid: true })).status).toBe(201);

    const canceled = await order({ status: 'p', positions: [{ item: ticket }] });
    await post(`${E}/orders/${canceled.code}/mark_canceled/`);
    const c = canceled.positions[0].secret;
    expect((await redeem(plain, c, { canceled_supported: true })).body.reason).toBe('canceled');
    expect((await redeem(plain, c)).body.reason).toBe('unpaid');
    expect((await redeem(plain, c, { force: true, canceled_supported: true })).body.reason).toBe('canceled');

    const park = (await order({ status: 'p', positions: [{ item: parking }] })).positions[0];
    expect((await redeem(plain, park.secret)).body.reason).toBe('product');

    const timed = (await order({ status: 'p', positions: [{ item: ticket }] })).positions[0];
    await t.db.query(`UPDATE order_position SET valid_from = now() + interval '1 day' WHERE id = $1`, [
      timed.id,
    ]);
    expect((await redeem(plain, timed.secret)).body.reason).toBe('invalid_time');
    expect((await redeem(plain, timed.secret, { force: true })).status).toBe(201);
  });

  it('an unknown secret is 404 invalid and stores nothing; ids only unless untrusted_input', async () => {
    const l = await list({ all_products: true });
    const before = await t.db.query('SELECT count(*)::int AS n FROM checkin');
    const unknown = await redeem(l, 'NO-SUCH-SECRET');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: 'error', reason: 'invalid', list: { id: l } });
    expect(await t.db.query('SELECT count(*)::int AS n FROM checkin')).toEqual(before);
    const { id } = (await order({ status: 'p', positions: [{ item: ticket }] })).positions[0];
    expect((await redeem(l, id, {}, '?untrusted_input=true')).status).toBe(404);
    expect((await redeem(l, id)).status).toBe(201);
    // An unknown list is a missing parent: 403 (spec "Status codes that apply everywhere").
    expect((await redeem(9_999_999, id)).status).toBe(403);
  });

  it('the same nonce twice stores one check-in; a failed attempt with a nonce does not block it', async () => {
    const l = await list({ limit_products: [ticket], include_pending: true });
    const o = await order({ positions: [{ item: ticket }] });
    const { id, secret } = o.positions[0];
    expect((await redeem(l, secret, { nonce: 'abc' })).body.reason).toBe('unpaid');
    expect((await redeem(l, secret, { nonce: 'abc', ignore_unpaid: true })).status).toBe(201);
    expect((await redeem(l, secret, { nonce: 'abc', ignore_unpaid: true })).status).toBe(201);
    expect(await scans(id)).toEqual([
      { successful: false, error_reason: 'unpaid' },
      { successful: true, error_reason: null },
    ]);
  });

  it('add-on match redeems the one add-on of a listed product; two such add-ons are ambiguous', async () => {
    const l = await list({ limit_products: [parking], addon_match: true });
    const raw = await order({ status: 'p', positions: [{ item: ticket }] });
    const parent = raw.positions[0];
    // Add-ons written as rows of the order (the add-on configuration is not what this test is about).
    const addonOf = (positionid: number) =>
      t.db.query<{ id: number }[]>(
        `INSERT INTO order_position (order_id, event_id, positionid, item_id, price, secret, pseudonymization_id, addon_to_id)
         SELECT order_id, event_id, $2, $3, 0, md5(random()::text), substr(md5(random()::text), 1, 10), id
           FROM order_position WHERE id = $1 RETURNING id`,
        [parent.id, positionid, parking],
      );
    const [addon] = await addonOf(2);
    const ok = await redeem(l, parent.secret);
    expect(ok.status).toBe(201);
    expect(ok.body.position.id).toBe(addon.id);
    await addonOf(3);
    expect((await redeem(l, parent.secret, { force: true })).body.reason).toBe('ambiguous');
  });

  it('20 scanners redeeming one ticket at once: exactly one ok, the rest already_redeemed', async () => {
    const l = await list({ all_products: true });
    const { id, secret } = (await order({ status: 'p', positions: [{ item: ticket }] })).positions[0];
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => retryingBusy(() => redeem(l, secret))),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400).map((a) => a.body.reason)).toEqual(
      Array.from({ length: 19 }, () => 'already_redeemed'),
    );
    expect((await scans(id)).filter((s) => s.successful)).toHaveLength(1);
  });

  it('positions/: the list shows what it admits; scanners see nothing without a 3-character search', async () => {
    const l = await list({ limit_products: [ticket] });
    const paid = await order({
      status: 'p',
      email: 'zed@example.org',
      positions: [{ item: ticket, attendee_name_parts: { given_name: 'Zed' } }],
    });
    await order({ positions: [{ item: ticket }] }); // pending: not on the list
    await order({ status: 'p', positions: [{ item: parking }] }); // other product
    const page = (await get(`${E}/checkinlists/${l}/positions/?order=${paid.code}`)).body;
    expect(page.count).toBe(1);
    expect(page.results[0]).toMatchObject({
      id: paid.positions[0].id,
      require_attention: false,
      attendee_name: 'Zed',
    });
    const all = (await get(`${E}/checkinlists/${l}/positions/`)).body;
    expect(all.results.every((p: { item: number }) => p.item === ticket)).toBe(true);
    await redeem(l, paid.positions[0].secret);
    const checked = (await get(`${E}/checkinlists/${l}/positions/?has_checkin=true`)).body;
    expect(checked.results.map((p: { id: number }) => p.id)).toContain(paid.positions[0].id);
    expect(
      (await get(`${E}/checkinlists/${l}/positions/?has_checkin=false`)).body.results.map(
        (p: { id: number }) => p.id,
      ),
    ).not.toContain(paid.positions[0].id);

    const scanner = await teamToken(t, 'org', {
      allEvents: true,
      eventPermissions: ['event.orders:checkin'],
    });
    expect((await get(`${E}/checkinlists/${l}/positions/`, scanner)).body).toMatchObject({
      count: 0,
      results: [],
    });
    expect((await get(`${E}/checkinlists/${l}/positions/?search=Ze`, scanner)).body.count).toBe(0);
    const found = (await get(`${E}/checkinlists/${l}/positions/?search=Zed`, scanner)).body;
    expect(found.results.map((p: { id: number }) => p.id)).toEqual([paid.positions[0].id]);
    const reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    expect((await redeem(l, paid.positions[0].secret)).status).toBe(400);
    expect(
      (await post(`${E}/checkinlists/${l}/positions/${paid.positions[0].secret}/redeem/`, {}, reader)).status,
    ).toBe(403);
  });

  it('positions/ ordering: attendee_name (parent fallback, nameless first), last_checked_in (never scanned first), order__datetime', async () => {
    const l = await list({ all_products: true });
    const bea = await order({
      status: 'p',
      positions: [{ item: ticket, attendee_name_parts: { given_name: 'Bea' } }],
    });
    const nameless = await order({ status: 'p', positions: [{ item: ticket }] });
    const withAddon = await order({
      status: 'p',
      positions: [{ item: ticket, attendee_name_parts: { given_name: 'Abe' } }],
    });
    // An add-on without a name of its own, written as a row of the order (as in the add-on match test).
    const [addonRow] = await t.db.query<{ id: number; secret: string }[]>(
      `INSERT INTO order_position (order_id, event_id, positionid, item_id, price, secret, pseudonymization_id, addon_to_id)
       SELECT order_id, event_id, 2, $2, 0, md5(random()::text), substr(md5(random()::text), 1, 10), id
         FROM order_position WHERE id = $1 RETURNING id, secret`,
      [withAddon.positions[0].id, parking],
    );
    withAddon.positions.push(addonRow);
    const mine = new Set([bea, nameless, withAddon].flatMap((o) => o.positions.map((p) => p.id)));
    const ids = async (ordering: string) =>
      (await get(`${E}/checkinlists/${l}/positions/?ordering=${ordering}&page_size=200`)).body.results
        .map((p: { id: number }) => p.id)
        .filter((id: number) => mine.has(id));
    const [abe, addon] = withAddon.positions.map((p) => p.id);
    // The add-on has no name of its own: it sorts under its parent's name "Abe".
    expect(await ids('attendee_name,positionid')).toEqual([
      nameless.positions[0].id,
      abe,
      addon,
      bea.positions[0].id,
    ]);
    expect(await ids('-attendee_name,positionid')).toEqual([
      bea.positions[0].id,
      abe,
      addon,
      nameless.positions[0].id,
    ]);
    expect(await ids('order__datetime,positionid')).toEqual([
      bea.positions[0].id,
      nameless.positions[0].id,
      abe,
      addon,
    ]);

    // Pages of 3 put together give the whole ordered list, and the count is the whole list's.
    const whole = (await get(`${E}/checkinlists/${l}/positions/?ordering=attendee_name&page_size=200`)).body;
    const pages: number[] = [];
    for (let n = 1; (n - 1) * 3 < whole.count; n++) {
      const part = (
        await get(`${E}/checkinlists/${l}/positions/?ordering=attendee_name&page_size=3&page=${n}`)
      ).body;
      expect(part.count).toBe(whole.count);
      pages.push(...part.results.map((p: { id: number }) => p.id));
    }
    expect(pages).toEqual(whole.results.map((p: { id: number }) => p.id));
    expect((await get(`${E}/checkinlists/${l}/positions/?page_size=3&page=999`)).status).toBe(404);

    await redeem(l, bea.positions[0].secret, { datetime: '2030-01-01T10:00:00Z' });
    await redeem(l, abe, { datetime: '2030-01-01T09:00:00Z' });
    const byScan = await ids('last_checked_in,positionid');
    expect(byScan.slice(0, 2)).toEqual([nameless.positions[0].id, addon]);
    expect(byScan.slice(2)).toEqual([abe, bea.positions[0].id]);
    expect((await ids('-last_checked_in,positionid')).slice(0, 2)).toEqual([bea.positions[0].id, abe]);
  });
});
