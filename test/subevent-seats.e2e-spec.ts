import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { sampleLayout } from './seating-fixtures';
import { countStatements } from './sql-count';

interface SeatJson {
  id: number;
  subevent: number | null;
  seat_guid: string;
  product: number | null;
  blocked: boolean;
}

/**
 * Seats of the dates of a series (compat §3.17, §3.18): a date's plan generates its own seats, the
 * `E/subevents/{id}/seats/` routes (filters, PATCH of `blocked`, bulk block and unblock with POST and PATCH, all or
 * nothing, at most 10,000, a fixed number of statements), `expand` permissions, and the wrong URL forms (404).
 */
describe('seats of sub-events', () => {
  let t: TestApp;
  let token: string;
  let plan: number;
  let stalls: number;
  let balcony: number;
  let day1: number;
  let day2: number;
  let foreignDate: number;
  const S = '/api/v1/organizers/org/events/series';
  const call = (method: 'get' | 'post' | 'patch', path: string, body?: object, tok = token) => {
    const req = t.http()[method](path).set('Authorization', auth(tok));
    return body ? req.send(body) : req;
  };
  const seats = async (date: number, query = ''): Promise<SeatJson[]> => {
    const res = await call('get', `${S}/subevents/${date}/seats/?page_size=100${query}`);
    if (res.status !== 200) throw new Error(`seat list: ${res.status} ${res.text}`);
    return res.body.results as SeatJson[];
  };
  const dbBlocked = async (date: number): Promise<string[]> =>
    (
      await t.db.query<{ seat_guid: string }[]>(
        'SELECT seat_guid FROM seat WHERE subevent_id = $1 AND blocked ORDER BY id',
        [date],
      )
    ).map((r) => r.seat_guid);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createSeries(t, token, 'org', { slug: 'series' });
    await createSeries(t, token, 'org', { slug: 'other' });
    await createEvent(t, token, 'org', { slug: 'single' });
    plan = (
      await call('post', '/api/v1/organizers/org/seatingplans/', { name: 'Hall', layout: sampleLayout(2, 3) })
    ).body.id;
    stalls = (await call('post', `${S}/items/`, { name: { en: 'Stalls' }, default_price: '30.00' })).body.id;
    balcony = (await call('post', `${S}/items/`, { name: { en: 'Balcony' }, default_price: '20.00' })).body
      .id;
    const date = async (event: string, body: object) => {
      const res = await call('post', `/api/v1/organizers/org/events/${event}/subevents/`, {
        name: { en: 'Day' },
        date_from: '2030-01-01T19:00:00Z',
        ...body,
      });
      if (res.status !== 201) throw new Error(`sub-event: ${res.status} ${res.text}`);
      return res.body.id as number;
    };
    day1 = await date('series', {
      seating_plan: plan,
      seat_category_mapping: { Stalls: stalls, Balcony: balcony },
    });
    day2 = await date('series', {});
    foreignDate = await date('other', { seating_plan: plan });
  });
  afterAll(() => t.close());

  it('a date with a plan has its own seats, mapped by category; a date without a plan has none', async () => {
    const all = await seats(day1);
    expect(all.map((s) => s.seat_guid)).toEqual(['r1-s1', 'r1-s2', 'r1-s3', 'r2-s1', 'r2-s2', 'r2-s3']);
    expect(all.map((s) => s.product)).toEqual([stalls, stalls, stalls, balcony, balcony, balcony]);
    expect(all[0]).toEqual({
      id: expect.any(Number),
      subevent: day1,
      zone_name: 'Main',
      row_name: '1',
      row_label: 'Front',
      seat_number: '1',
      seat_label: null,
      seat_guid: 'r1-s1',
      product: stalls,
      blocked: false,
      orderposition: null,
      cartposition: null,
      voucher: null,
    });
    expect(await seats(day2)).toEqual([]);
    // Assigning the plan to the second date by PATCH generates its seats, separate from the first date's.
    const patched = await call('patch', `${S}/subevents/${day2}/`, {
      seating_plan: plan,
      seat_category_mapping: { Stalls: stalls },
    });
    expect(patched.status).toBe(200);
    const second = await seats(day2);
    expect(second.map((s) => s.product)).toEqual([stalls, stalls, stalls, null, null, null]);
    expect(second.every((s) => s.subevent === day2)).toBe(true);
    expect(new Set([...all, ...second].map((s) => s.id)).size).toBe(12);
    const rows: { n: number }[] = await t.db.query(
      'SELECT count(*)::int AS n FROM seat WHERE subevent_id = ANY($1)',
      [[day1, day2]],
    );
    expect(rows[0].n).toBe(12);
  });

  it('filters by place, blocked and availability; detail and PATCH of blocked', async () => {
    expect((await seats(day1, '&row_name=2')).map((s) => s.seat_guid)).toEqual(['r2-s1', 'r2-s2', 'r2-s3']);
    expect((await seats(day1, '&row_label=Front')).length).toBe(3);
    expect((await seats(day1, '&seat_number=2')).map((s) => s.seat_guid)).toEqual(['r1-s2', 'r2-s2']);
    expect((await seats(day1, '&zone_name=Main&seat_guid=r2-s3')).map((s) => s.seat_guid)).toEqual(['r2-s3']);
    expect((await seats(day1, '&seat_label=x')).length).toBe(0);
    const [first] = await seats(day1, '&seat_guid=r1-s1');
    const patched = await call('patch', `${S}/subevents/${day1}/seats/${first.id}/`, {
      blocked: true,
      seat_guid: 'ignored',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: first.id, blocked: true, seat_guid: 'r1-s1', subevent: day1 });
    expect((await call('get', `${S}/subevents/${day1}/seats/${first.id}/`)).body.blocked).toBe(true);
    expect(await dbBlocked(day1)).toEqual(['r1-s1']);
    expect(await dbBlocked(day2)).toEqual([]);
    expect((await seats(day1, '&blocked=true')).map((s) => s.id)).toEqual([first.id]);
    expect((await seats(day1, '&blocked=false')).length).toBe(5);
    expect((await seats(day1, '&is_available=true')).length).toBe(5);
    expect((await seats(day1, '&is_available=false')).map((s) => s.id)).toEqual([first.id]);
    const bad = await call('patch', `${S}/subevents/${day1}/seats/${first.id}/`, { blocked: 'perhaps' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['blocked']);
    // The seat of the other date is not found under this date.
    const [other] = await seats(day2, '&seat_guid=r1-s1');
    expect((await call('get', `${S}/subevents/${day1}/seats/${other.id}/`)).status).toBe(404);
    expect((await call('patch', `${S}/subevents/${day1}/seats/${other.id}/`, { blocked: true })).status).toBe(
      404,
    );
    expect(await dbBlocked(day2)).toEqual([]);
    await call('patch', `${S}/subevents/${day1}/seats/${first.id}/`, { blocked: false });
    expect(await dbBlocked(day1)).toEqual([]);
  });

  it('bulk blocks and unblocks by ids or guids with POST and PATCH, all or nothing, in this date only', async () => {
    const all = await seats(day1);
    const ids = all.slice(0, 2).map((s) => s.id);
    const blocked = await call('post', `${S}/subevents/${day1}/seats/bulk_block/`, { ids });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toEqual({});
    expect(await dbBlocked(day1)).toEqual(['r1-s1', 'r1-s2']);
    // Already blocked is no error; an unknown id (or one of the other date) fails the whole call.
    const [otherDate] = await seats(day2);
    for (const id of [987654, otherDate.id]) {
      const res = await call('post', `${S}/subevents/${day1}/seats/bulk_block/`, {
        ids: [...ids, all[2].id, id],
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ ids: [`The seat '${id}' does not exist.`] });
    }
    expect(await dbBlocked(day1)).toEqual(['r1-s1', 'r1-s2']);
    const patchBlock = await call('patch', `${S}/subevents/${day1}/seats/bulk_block/`, {
      seat_guids: ['r2-s3', 'r1-s1'],
    });
    expect(patchBlock.status).toBe(200);
    expect(await dbBlocked(day1)).toEqual(['r1-s1', 'r1-s2', 'r2-s3']);
    expect(await dbBlocked(day2)).toEqual([]);
    const unknownGuid = await call('post', `${S}/subevents/${day1}/seats/bulk_unblock/`, {
      seat_guids: ['r1-s1', 'nope'],
    });
    expect(unknownGuid.status).toBe(400);
    expect(unknownGuid.body).toEqual({ seat_guids: ["The seat 'nope' does not exist."] });
    expect(await dbBlocked(day1)).toEqual(['r1-s1', 'r1-s2', 'r2-s3']);
    const unblocked = await call('post', `${S}/subevents/${day1}/seats/bulk_unblock/`, {
      seat_guids: ['r1-s1', 'r1-s2', 'r2-s1'],
    });
    expect(unblocked.status).toBe(200);
    expect(await dbBlocked(day1)).toEqual(['r2-s3']);
    const patchUnblock = await call('patch', `${S}/subevents/${day1}/seats/bulk_unblock/`, {
      ids: [all[5].id],
    });
    expect(patchUnblock.status).toBe(200);
    expect(await dbBlocked(day1)).toEqual([]);
    for (const body of [{}, { ids, seat_guids: ['r1-s1'] }]) {
      const res = await call('post', `${S}/subevents/${day1}/seats/bulk_block/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: ['Please pass either seat_guids or ids.'] });
    }
    const tooMany = await call('post', `${S}/subevents/${day1}/seats/bulk_block/`, {
      seat_guids: Array.from({ length: 10001 }, (_, i) => `g${i}`),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ seat_guids: ['Please do not pass over 10000 seats.'] });
    expect(await dbBlocked(day1)).toEqual([]);
  });

  it('bulk_block runs the same number of statements for 2 seats and for 10,000', async () => {
    const big = (
      await call('post', '/api/v1/organizers/org/seatingplans/', {
        name: 'Arena',
        layout: sampleLayout(100, 100),
      })
    ).body.id as number;
    const res = await call('post', `${S}/subevents/`, {
      name: { en: 'Arena day' },
      date_from: '2030-02-01T19:00:00Z',
      seating_plan: big,
    });
    expect(res.status).toBe(201);
    const arena = res.body.id as number;
    const guids = Array.from({ length: 100 }, (_, r) =>
      Array.from({ length: 100 }, (_, s) => `r${r + 1}-s${s + 1}`),
    ).flat();
    const small = await countStatements(() =>
      call('post', `${S}/subevents/${arena}/seats/bulk_block/`, { seat_guids: guids.slice(0, 2) }),
    );
    const large = await countStatements(() =>
      call('post', `${S}/subevents/${arena}/seats/bulk_block/`, { seat_guids: guids }),
    );
    expect(large.statements).toBe(small.statements);
    const rows: { n: number }[] = await t.db.query(
      'SELECT count(*)::int AS n FROM seat WHERE subevent_id = $1 AND blocked',
      [arena],
    );
    expect(rows[0].n).toBe(10000);
    const list = await countStatements(() => call('get', `${S}/subevents/${arena}/seats/?page_size=50`));
    const one = await countStatements(() => call('get', `${S}/subevents/${arena}/seats/?page_size=1`));
    expect(list.statements).toBe(one.statements);
  });

  it('expand needs the permission of what it expands; writes need the event settings permission', async () => {
    const viewer = await teamToken(t, 'org', {
      allEvents: true,
      eventPermissions: ['event.settings.general:read'],
    });
    const base = `${S}/subevents/${day1}/seats/`;
    expect((await call('get', base, undefined, viewer)).status).toBe(200);
    for (const expand of ['orderposition', 'cartposition', 'voucher']) {
      expect((await call('get', `${base}?expand=${expand}`, undefined, viewer)).status).toBe(403);
    }
    expect((await call('get', `${base}?expand=orderposition&expand=voucher`)).status).toBe(200);
    const [first] = await seats(day1);
    expect((await call('get', `${base}${first.id}/?expand=voucher`, undefined, viewer)).status).toBe(403);
    expect((await call('patch', `${base}${first.id}/`, { blocked: true }, viewer)).status).toBe(403);
    expect((await call('post', `${base}bulk_block/`, { ids: [first.id] }, viewer)).status).toBe(403);
    expect(await dbBlocked(day1)).toEqual([]);
  });

  it('the wrong URL form answers 404 with pretix messages', async () => {
    const series = await call('get', `${S}/seats/`);
    expect(series.status).toBe(404);
    expect(series.body).toEqual({ detail: 'Please use the subevent-specific endpoint' });
    expect((await call('post', `${S}/seats/bulk_block/`, { seat_guids: ['r1-s1'] })).status).toBe(404);
    const single = await call('get', `/api/v1/organizers/org/events/single/subevents/${day1}/seats/`);
    expect(single.status).toBe(404);
    expect(single.body).toEqual({ detail: 'This event has no subevents' });
    const foreign = await call('get', `${S}/subevents/${foreignDate}/seats/`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: 'Subevent not found' });
    const blockForeign = await call('post', `${S}/subevents/${foreignDate}/seats/bulk_block/`, {
      seat_guids: ['r1-s1'],
    });
    expect(blockForeign.status).toBe(404);
    expect(await dbBlocked(foreignDate)).toEqual([]);
    expect((await call('get', `${S}/subevents/987654/seats/`)).status).toBe(404);
    expect((await call('get', `${S}/subevents/${day1}/seats/987654/`)).status).toBe(404);
  });

  it('removing the plan of a date removes its seats only', async () => {
    expect((await call('patch', `${S}/subevents/${day2}/`, { seating_plan: null })).status).toBe(200);
    expect(await seats(day2)).toEqual([]);
    expect((await seats(day1)).length).toBe(6);
  });
});
