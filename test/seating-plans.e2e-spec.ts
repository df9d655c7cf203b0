import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { sampleLayout } from './seating-fixtures';

type SeatJson = Record<string, unknown>;
interface LayoutJson {
  size?: unknown;
  zones: { rows: { seats: SeatJson[] }[] | object }[];
}
const seatOf = (l: LayoutJson, r: number, s: number): SeatJson =>
  (l.zones[0].rows as { seats: SeatJson[] }[])[r].seats[s];

/** `O/seatingplans/` (compat §3.5): CRUD, layout validation naming the place, permission, plans in use. */
describe('seating plans', () => {
  let t: TestApp;
  let token: string;
  const P = '/api/v1/organizers/org/seatingplans/';
  const call = (
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    body?: object,
    tok = token,
  ) => {
    const req = t.http()[method](path).set('Authorization', auth(tok));
    return body ? req.send(body) : req;
  };

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
  });
  afterAll(() => t.close());

  it('creates, lists by name, reads, updates and deletes a plan; each change is logged', async () => {
    const created = await call('post', P, { name: 'B plan', layout: sampleLayout() });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: 'B plan', layout: sampleLayout() });
    await call('post', P, { name: 'A plan', layout: sampleLayout(1, 1) });
    const list = await call('get', P);
    expect(list.status).toBe(200);
    expect(list.body.results.map((p: { name: string }) => p.name)).toEqual(['A plan', 'B plan']);
    const id = created.body.id as number;
    expect((await call('get', `${P}${id}/`)).body.name).toBe('B plan');
    const patched = await call('patch', `${P}${id}/`, { name: 'Renamed' });
    expect(patched.status).toBe(200);
    expect(patched.body.layout).toEqual(sampleLayout());
    const put = await call('put', `${P}${id}/`, { name: 'Put', layout: sampleLayout(1, 2) });
    expect(put.status).toBe(200);
    expect(put.body.layout).toEqual(sampleLayout(1, 2));
    expect((await call('delete', `${P}${id}/`)).status).toBe(204);
    expect((await call('get', `${P}${id}/`)).status).toBe(404);
    const actions: { action_type: string }[] = await t.db.query(
      "SELECT action_type FROM log_entry WHERE content_type = 'seatingplan' AND object_id = $1 ORDER BY id",
      [id],
    );
    expect(actions.map((a) => a.action_type)).toEqual([
      'pretix.seatingplan.added',
      'pretix.seatingplan.changed',
      'pretix.seatingplan.changed',
      'pretix.seatingplan.deleted',
    ]);
  });

  it.each([
    [
      'a seat without guid',
      (l: LayoutJson) => delete seatOf(l, 0, 1).seat_guid,
      'zones[0].rows[0].seats[1].seat_guid: required, a string.',
    ],
    [
      'a duplicate guid',
      (l: LayoutJson) => (seatOf(l, 1, 0).seat_guid = 'r1-s1'),
      'zones[0].rows[1].seats[0].seat_guid: "r1-s1" is not unique in the plan.',
    ],
    [
      'an unknown category',
      (l: LayoutJson) => (seatOf(l, 0, 2).category = 'VIP'),
      'zones[0].rows[0].seats[2].category: "VIP" is not a category of the plan.',
    ],
    [
      'a seat without position',
      (l: LayoutJson) => delete seatOf(l, 1, 2).position,
      'zones[0].rows[1].seats[2].position: required, an object with numeric x and y.',
    ],
    [
      'rows that are not a list',
      (l: LayoutJson) => (l.zones[0].rows = {}),
      'zones[0].rows: required, a list.',
    ],
    ['no size', (l: LayoutJson) => delete l.size, 'size: required, an object with numeric width and height.'],
  ])('refuses a layout with %s: 400 naming the place, nothing stored', async (_what, spoil, message) => {
    const layout = sampleLayout() as unknown as LayoutJson;
    spoil(layout);
    const before = (await call('get', P)).body.count as number;
    const res = await call('post', P, { name: 'Bad', layout });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ layout: [message] });
    expect((await call('get', P)).body.count).toBe(before);
  });

  it('refuses a missing name or a layout that is not an object', async () => {
    expect((await call('post', P, { layout: sampleLayout() })).body).toEqual({
      name: ['This field is required.'],
    });
    const res = await call('post', P, { name: 'X', layout: [1] });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['layout']);
  });

  it('needs the seating plan permission (or organizer settings); other organizers see nothing', async () => {
    const plan = (await call('post', P, { name: 'Perm', layout: sampleLayout() })).body.id as number;
    const events = await teamToken(t, 'org', {
      allEvents: true,
      organizerPermissions: ['organizer.events:create'],
    });
    expect((await call('get', P, undefined, events)).status).toBe(403);
    expect((await call('post', P, { name: 'X', layout: sampleLayout() }, events)).status).toBe(403);
    const seating = await teamToken(t, 'org', {
      organizerPermissions: ['organizer.seatingplans:write'],
    });
    expect((await call('get', `${P}${plan}/`, undefined, seating)).status).toBe(200);
    const other = await bootstrapOrganizer(t, 'other');
    expect(
      (await call('get', `/api/v1/organizers/other/seatingplans/${plan}/`, undefined, other.token)).status,
    ).toBe(404);
  });

  it('a plan used by an event cannot be changed or deleted (403)', async () => {
    const plan = (await call('post', P, { name: 'Used', layout: sampleLayout() })).body.id as number;
    await createEvent(t, token, 'org', { slug: 'uses' });
    await t.db.query("UPDATE event SET seating_plan_id = $1 WHERE slug = 'uses'", [plan]);
    const patched = await call('patch', `${P}${plan}/`, { name: 'Changed' });
    expect(patched.status).toBe(403);
    expect(patched.body).toEqual({ detail: 'This plan can not be changed while it is in use for an event.' });
    const deleted = await call('delete', `${P}${plan}/`);
    expect(deleted.status).toBe(403);
    expect(deleted.body).toEqual({ detail: 'This plan can not be deleted while it is in use for an event.' });
    expect((await call('get', `${P}${plan}/`)).body.name).toBe('Used');
  });
});
