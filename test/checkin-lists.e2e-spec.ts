import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Check-in lists (spec "Check-in list", "Check-in lists"; compat §3.20): CRUD with validation and permissions,
 * both DELETE paths (the list's check-ins go with it), counts and `status/`, `exclude`, failed scans with their
 * nonce, and the history `E/checkins/` (compat §3.22).
 */
describe('check-in lists', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const as = (tok: string) => ({
    get: (path: string) => t.http().get(path).set('Authorization', auth(tok)),
    post: (path: string, body: object = {}) => t.http().post(path).set('Authorization', auth(tok)).send(body),
    patch: (path: string, body: object) => t.http().patch(path).set('Authorization', auth(tok)).send(body),
    put: (path: string, body: object) => t.http().put(path).set('Authorization', auth(tok)).send(body),
    delete: (path: string) => t.http().delete(path).set('Authorization', auth(tok)),
  });
  let admin: ReturnType<typeof as>;
  let ticket: number;
  let parking: number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    admin = as(token);
    await createEvent(t, token, 'org');
    ticket = (await admin.post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' })).body.id;
    parking = (await admin.post(`${E}/items/`, { name: 'Parking', default_price: '5.00', admission: false }))
      .body.id;
    await admin.post(`${E}/quotas/`, { name: 'Q', size: 100, items: [ticket, parking] });
  });
  afterAll(() => t.close());

  it('creates a list with defaults, reads, patches, puts and deletes it; logs each change', async () => {
    const created = await admin.post(`${E}/checkinlists/`, {
      name: 'Main entrance',
      limit_products: [ticket],
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Main entrance',
      all_products: false,
      limit_products: [ticket],
      subevent: null,
      position_count: 0,
      checkin_count: 0,
      include_pending: false,
      allow_multiple_entries: false,
      allow_entry_after_exit: true,
      addon_match: false,
      exit_all_at: null,
      rules: {},
      ignore_in_statistics: false,
      consider_tickets_used: true,
    });
    const id = created.body.id as number;
    expect((await admin.get(`${E}/checkinlists/${id}/`)).body).toEqual(created.body);
    const patched = await admin.patch(`${E}/checkinlists/${id}/`, {
      all_products: true,
      exit_all_at: '2030-01-01T03:00:00+01:00',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      all_products: true,
      limit_products: [ticket],
      exit_all_at: '2030-01-01T02:00:00Z',
    });
    const put = await admin.put(`${E}/checkinlists/${id}/`, { name: 'Side door' });
    expect(put.body).toMatchObject({
      name: 'Side door',
      all_products: false,
      limit_products: [],
      exit_all_at: null,
    });
    const logs: { action_type: string }[] = await t.db.query(
      `SELECT action_type FROM log_entry WHERE content_type = 'checkinlist' AND object_id = $1 ORDER BY id`,
      [id],
    );
    expect(logs.map((l) => l.action_type)).toEqual([
      'pretix.event.checkinlist.added',
      'pretix.event.checkinlist.changed',
      'pretix.event.checkinlist.changed',
    ]);
    expect((await admin.delete(`${E}/checkinlists/${id}/`)).status).toBe(204);
    expect((await admin.get(`${E}/checkinlists/${id}/`)).status).toBe(404);
  });

  it('refuses items of another event, any sub-event on a single event, bad fields', async () => {
    await createEvent(t, token, 'org', { slug: 'other' });
    const foreign = (
      await admin.post('/api/v1/organizers/org/events/other/items/', { name: 'X', default_price: '1.00' })
    ).body.id;
    const res = await admin.post(`${E}/checkinlists/`, { name: 'L', limit_products: [foreign] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ non_field_errors: ['One or more items do not belong to this event.'] });
    const sub = await admin.post(`${E}/checkinlists/`, { name: 'L', subevent: 5 });
    expect(sub.body).toEqual({ non_field_errors: ['The subevent does not belong to this event.'] });
    const bad = await admin.post(`${E}/checkinlists/`, { all_products: 'maybe', exit_all_at: 'soon' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(['all_products', 'exit_all_at', 'name']);
    expect(await t.db.query('SELECT count(*)::int AS n FROM checkin_list WHERE name = $1', ['L'])).toEqual([
      { n: 0 },
    ]);
  });

  it("on a series: ordering by the real date, subevent_match, ends_after by the date's end", async () => {
    await createSeries(t, token, 'org', { slug: 'series' });
    const S = '/api/v1/organizers/org/events/series';
    const date = async (from: string, to: string | null) => {
      const res = await admin.post(`${S}/subevents/`, {
        name: { en: from },
        date_from: from,
        date_to: to,
        active: true,
      });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    // Created late-first, so that ids and dates disagree.
    const late = await date('2030-03-01T18:00:00Z', null);
    const early = await date('2030-01-01T18:00:00Z', '2030-01-05T18:00:00Z');
    const mk = async (name: string, subevent: number | null) => {
      const res = await admin.post(`${S}/checkinlists/`, { name, all_products: true, subevent });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    const lateList = await mk('A late', late);
    const earlyList = await mk('B early', early);
    const allDates = await mk('C all', null);
    const ids = async (query: string) =>
      (await admin.get(`${S}/checkinlists/${query}`)).body.results.map((l: { id: number }) => l.id);
    expect(await ids('')).toEqual([earlyList, lateList, allDates]);
    expect(await ids('?ordering=-subevent__date_from')).toEqual([allDates, lateList, earlyList]);
    expect(await ids('?ordering=name')).toEqual([lateList, earlyList, allDates]);
    expect(await ids(`?subevent_match=${early}`)).toEqual([earlyList, allDates]);
    expect(await ids('?ends_after=2030-01-04T00:00:00Z')).toEqual([earlyList, lateList, allDates]);
    expect(await ids('?ends_after=2030-01-06T00:00:00Z')).toEqual([lateList, allDates]);
    expect(await ids('?ends_after=2030-03-02T00:00:00Z')).toEqual([allDates]);
    expect((await admin.get(`${S}/checkinlists/?ends_after=soon`)).status).toBe(400);
  });

  it('the singular DELETE path deletes the list with its check-ins', async () => {
    const list = (await admin.post(`${E}/checkinlists/`, { name: 'Gone', all_products: true })).body.id;
    const order = await admin.post(`${E}/orders/`, { status: 'p', positions: [{ item: ticket }] });
    const position = order.body.positions[0].id;
    expect((await admin.post(`${E}/checkinlists/${list}/positions/${position}/redeem/`, {})).status).toBe(
      201,
    );
    expect((await admin.delete(`${E}/checkinlist/${list}/`)).status).toBe(204);
    expect(await t.db.query('SELECT count(*)::int AS n FROM checkin WHERE list_id = $1', [list])).toEqual([
      { n: 0 },
    ]);
    expect((await admin.delete(`${E}/checkinlist/${list}/`)).status).toBe(404);
  });

  it('counts positions and check-ins; status/ per product; exclude drops fields', async () => {
    const entry = (await admin.post(`${E}/items/`, { name: 'Entry', default_price: '10.00' })).body.id;
    await admin.post(`${E}/quotas/`, { name: 'QE', size: 100, items: [entry] });
    const list = (
      await admin.post(`${E}/checkinlists/`, { name: 'Counted', limit_products: [entry, parking] })
    ).body.id;
    const paid = await admin.post(`${E}/orders/`, {
      status: 'p',
      positions: [{ item: entry }, { item: parking }],
    });
    await admin.post(`${E}/orders/`, { positions: [{ item: entry }] }); // pending: not on the list
    const [first] = paid.body.positions.map((p: { id: number }) => p.id);
    await admin.post(`${E}/checkinlists/${list}/positions/${first}/redeem/`, {});
    const got = (await admin.get(`${E}/checkinlists/${list}/`)).body;
    expect(got).toMatchObject({ position_count: 2, checkin_count: 1 });
    const status = (await admin.get(`${E}/checkinlists/${list}/status/`)).body;
    expect(status).toMatchObject({
      checkin_count: 1,
      position_count: 2,
      inside_count: 1,
      event: { name: 'Sample Conference' },
    });
    expect(status.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: entry,
          admission: false,
          checkin_count: 1,
          position_count: 1,
          variations: [],
        }),
        expect.objectContaining({ id: parking, checkin_count: 0, position_count: 1 }),
      ]),
    );
    const page = (await admin.get(`${E}/checkinlists/?exclude=checkin_count&exclude=position_count`)).body;
    expect(page.results.length).toBeGreaterThan(0);
    for (const l of page.results) {
      expect(l).not.toHaveProperty('checkin_count');
      expect(l).not.toHaveProperty('position_count');
    }
  });

  it('permissions: readers and scanners read, only settings writers write; failed_checkins needs check-in', async () => {
    const reader = as(
      await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] }),
    );
    const scanner = as(
      await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:checkin'] }),
    );
    const nothing = as(await teamToken(t, 'org', { allEvents: true, eventPermissions: [] }));
    const list = (await admin.post(`${E}/checkinlists/`, { name: 'Perm', all_products: true })).body.id;
    expect((await reader.get(`${E}/checkinlists/`)).status).toBe(200);
    expect((await scanner.get(`${E}/checkinlists/${list}/`)).status).toBe(200);
    expect((await nothing.get(`${E}/checkinlists/`)).status).toBe(403);
    expect((await scanner.post(`${E}/checkinlists/`, { name: 'No' })).status).toBe(403);
    expect((await scanner.delete(`${E}/checkinlists/${list}/`)).status).toBe(403);
    const failed = { raw_barcode: 'NOPE', error_reason: 'invalid' };
    expect((await reader.post(`${E}/checkinlists/${list}/failed_checkins/`, failed)).status).toBe(403);
    expect((await scanner.post(`${E}/checkinlists/${list}/failed_checkins/`, failed)).status).toBe(201);
  });

  it('failed_checkins: 201, a repeated nonce stored once, bad reason 400; all show in E/checkins/', async () => {
    const list = (await admin.post(`${E}/checkinlists/`, { name: 'Failed', all_products: true })).body.id;
    const body = {
      raw_barcode: 'ABCDEF',
      error_reason: 'unpaid',
      nonce: 'n-1',
      datetime: '2030-01-01T10:00:00Z',
      type: 'exit',
    };
    const first = await admin.post(`${E}/checkinlists/${list}/failed_checkins/`, body);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      successful: false,
      error_reason: 'unpaid',
      position: null,
      list,
      type: 'exit',
    });
    const again = await admin.post(`${E}/checkinlists/${list}/failed_checkins/`, body);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await t.db.query('SELECT count(*)::int AS n FROM checkin WHERE list_id = $1', [list])).toEqual([
      { n: 1 },
    ]);
    expect(
      (
        await admin.post(`${E}/checkinlists/${list}/failed_checkins/`, {
          raw_barcode: 'X',
          error_reason: 'bored',
        })
      ).body,
    ).toEqual({ error_reason: [expect.stringContaining('bored')] });
    expect(
      (await admin.post(`${E}/checkinlists/${list}/failed_checkins/`, { error_reason: 'invalid' })).body,
    ).toEqual({ raw_barcode: ['This field is required.'] });
    const history = (await admin.get(`${E}/checkins/?list=${list}`)).body;
    expect(history.results).toEqual([
      {
        id: first.body.id,
        successful: false,
        error_reason: 'unpaid',
        error_explanation: null,
        position: null,
        datetime: '2030-01-01T10:00:00Z',
        created: expect.any(String),
        list,
        auto_checked_in: false,
        gate: null,
        device: null,
        device_id: null,
        type: 'exit',
        conflict: null,
      },
    ]);
    expect((await admin.get(`${E}/checkins/${first.body.id}/`)).body.id).toBe(first.body.id);
    expect((await admin.get(`${E}/checkins/?successful=false&type=exit`)).body.count).toBeGreaterThan(0);
    expect((await admin.get(`/api/v1/organizers/org/events/other/checkins/${first.body.id}/`)).status).toBe(
      404,
    );
  });
});
