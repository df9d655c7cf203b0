import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { sampleLayout } from './seating-fixtures';

interface SeatJson {
  id: number;
  seat_guid: string;
  row_name: string;
  product: number | null;
  blocked: boolean;
}

/**
 * Seats of an event (compat §3.18): assigning a plan generates them (mapped to items by category),
 * changing the plan keeps the seats that stay (id and `blocked`), the list's filters, PATCH of `blocked`, bulk
 * block and unblock (all or nothing), `expand` permissions, and the series form.
 */
describe('seats', () => {
  let t: TestApp;
  let token: string;
  let plan: number;
  let small: number;
  let stalls: number;
  let balcony: number;
  const E = '/api/v1/organizers/org/events/sample';
  const call = (method: 'get' | 'post' | 'patch', path: string, body?: object, tok = token) => {
    const req = t.http()[method](path).set('Authorization', auth(tok));
    return body ? req.send(body) : req;
  };
  const seats = async (query = ''): Promise<SeatJson[]> => {
    const res = await call('get', `${E}/seats/?page_size=100${query}`);
    expect(res.status).toBe(200);
    return res.body.results as SeatJson[];
  };

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    plan = (
      await call('post', '/api/v1/organizers/org/seatingplans/', { name: 'Hall', layout: sampleLayout(2, 3) })
    ).body.id;
    small = (
      await call('post', '/api/v1/organizers/org/seatingplans/', {
        name: 'Small',
        layout: sampleLayout(1, 2),
      })
    ).body.id;
    stalls = (await call('post', `${E}/items/`, { name: { en: 'Stalls' }, default_price: '30.00' })).body.id;
    balcony = (await call('post', `${E}/items/`, { name: { en: 'Balcony' }, default_price: '20.00' })).body
      .id;
  });
  afterAll(() => t.close());

  it('assigning a plan generates one seat per seat of the plan, mapped to items by category, in plan order', async () => {
    const res = await call('patch', `${E}/`, {
      seating_plan: plan,
      seat_category_mapping: { Stalls: stalls, Balcony: balcony },
    });
    expect(res.status).toBe(200);
    expect(res.body.seating_plan).toBe(plan);
    const all = await seats();
    expect(all.map((s) => s.seat_guid)).toEqual(['r1-s1', 'r1-s2', 'r1-s3', 'r2-s1', 'r2-s2', 'r2-s3']);
    expect(all.map((s) => s.product)).toEqual([stalls, stalls, stalls, balcony, balcony, balcony]);
    expect(all[0]).toEqual({
      id: expect.any(Number),
      subevent: null,
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
  });

  it('refuses a plan of another organizer, a mapping to an unknown item, and a plan on a series', async () => {
    const other = await bootstrapOrganizer(t, 'other');
    const foreign = (
      await call(
        'post',
        '/api/v1/organizers/other/seatingplans/',
        { name: 'F', layout: sampleLayout() },
        other.token,
      )
    ).body.id as number;
    const bad = await call('patch', `${E}/`, { seating_plan: foreign });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ seating_plan: [`Invalid pk "${foreign}" - object does not exist.`] });
    const unknown = await call('patch', `${E}/`, { seat_category_mapping: { Stalls: 987654 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ seat_category_mapping: ["Item '987654' does not exist."] });
    await createSeries(t, token, 'org', { slug: 'series' });
    const series = await call('patch', '/api/v1/organizers/org/events/series/', { seating_plan: plan });
    expect(series.status).toBe(400);
    expect(Object.keys(series.body)).toEqual(['seating_plan']);
    expect((await seats()).length).toBe(6);
  });

  it('filters by place, blocked and availability', async () => {
    expect((await seats('&row_name=2')).map((s) => s.seat_guid)).toEqual(['r2-s1', 'r2-s2', 'r2-s3']);
    expect((await seats('&seat_guid=r1-s2')).map((s) => s.seat_guid)).toEqual(['r1-s2']);
    expect((await seats('&zone_name=Nowhere')).length).toBe(0);
    const [first] = await seats('&seat_guid=r1-s1');
    const patched = await call('patch', `${E}/seats/${first.id}/`, { blocked: true });
    expect(patched.status).toBe(200);
    expect(patched.body.blocked).toBe(true);
    expect((await call('get', `${E}/seats/${first.id}/`)).body.blocked).toBe(true);
    expect((await seats('&blocked=true')).map((s) => s.id)).toEqual([first.id]);
    expect((await seats('&is_available=true')).length).toBe(5);
    expect((await seats('&is_available=false')).map((s) => s.id)).toEqual([first.id]);
    expect((await call('get', `${E}/seats/?blocked=maybe`)).status).toBe(400);
    await call('patch', `${E}/seats/${first.id}/`, { blocked: false });
  });

  it('bulk blocks and unblocks by ids or guids, all or nothing, with POST and PATCH', async () => {
    const all = await seats();
    const ids = all.slice(0, 2).map((s) => s.id);
    const blocked = await call('post', `${E}/seats/bulk_block/`, { ids });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toEqual({});
    expect((await seats('&blocked=true')).map((s) => s.id)).toEqual(ids);
    // Already blocked seats are no error; an unknown one fails the whole call.
    const unknown = await call('post', `${E}/seats/bulk_block/`, { ids: [...ids, all[2].id, 987654] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ ids: ["The seat '987654' does not exist."] });
    expect((await seats('&blocked=true')).map((s) => s.id)).toEqual(ids);
    const byGuid = await call('patch', `${E}/seats/bulk_unblock/`, {
      seat_guids: ['r1-s1', 'r1-s2', 'r2-s3'],
    });
    expect(byGuid.status).toBe(200);
    expect((await seats('&blocked=true')).length).toBe(0);
    const badGuid = await call('post', `${E}/seats/bulk_block/`, { seat_guids: ['r1-s1', 'nope'] });
    expect(badGuid.body).toEqual({ seat_guids: ["The seat 'nope' does not exist."] });
    expect((await seats('&blocked=true')).length).toBe(0);
    for (const body of [{}, { ids, seat_guids: ['r1-s1'] }]) {
      const res = await call('post', `${E}/seats/bulk_block/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: ['Please pass either seat_guids or ids.'] });
    }
    const tooMany = await call('post', `${E}/seats/bulk_block/`, {
      ids: Array.from({ length: 10001 }, (_, i) => i + 1),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ ids: ['Please do not pass over 10000 seats.'] });
  });

  it('changing the plan keeps the seats that stay (id and blocked), removes the others; no plan, no seats', async () => {
    const before = await seats();
    await call('post', `${E}/seats/bulk_block/`, { seat_guids: ['r1-s2'] });
    const res = await call('patch', `${E}/`, { seating_plan: small });
    expect(res.status).toBe(200);
    const after = await seats();
    expect(after.map((s) => s.seat_guid)).toEqual(['r1-s1', 'r1-s2']);
    expect(after.map((s) => s.id)).toEqual(before.slice(0, 2).map((s) => s.id));
    expect(after.map((s) => s.blocked)).toEqual([false, true]);
    expect((await call('patch', `${E}/`, { seating_plan: null, seat_category_mapping: {} })).status).toBe(
      200,
    );
    expect(await seats()).toEqual([]);
    await call('patch', `${E}/`, { seating_plan: plan, seat_category_mapping: { Stalls: stalls } });
    expect((await seats()).map((s) => s.product)).toEqual([stalls, stalls, stalls, null, null, null]);
  });

  it('expand needs the permission of what it expands; writes need the event settings permission', async () => {
    const viewer = await teamToken(t, 'org', {
      allEvents: true,
      eventPermissions: ['event.settings.general:read'],
    });
    expect((await call('get', `${E}/seats/`, undefined, viewer)).status).toBe(200);
    expect((await call('get', `${E}/seats/?expand=orderposition`, undefined, viewer)).status).toBe(403);
    expect((await call('get', `${E}/seats/?expand=voucher`, undefined, viewer)).status).toBe(403);
    expect((await call('get', `${E}/seats/?expand=orderposition&expand=voucher`)).status).toBe(200);
    const [first] = await seats();
    expect((await call('patch', `${E}/seats/${first.id}/`, { blocked: true }, viewer)).status).toBe(403);
    expect((await call('post', `${E}/seats/bulk_block/`, { ids: [first.id] }, viewer)).status).toBe(403);
    expect((await seats('&blocked=true')).length).toBe(0);
  });

  it('a series event answers 404 on the event form; unknown seats 404', async () => {
    const res = await call('get', '/api/v1/organizers/org/events/series/seats/');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Please use the subevent-specific endpoint' });
    expect((await call('get', `${E}/seats/987654/`)).status).toBe(404);
  });
});
