import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * `E/sendmail_rules/` (spec "Scheduled e-mail rules"; compat §3.26): defaults, the cross-field rules, PUT/PATCH,
 * filters, DELETE 204, permission `event.settings.general:write` for reads and writes.
 */
describe('scheduled e-mail rules', () => {
  let t: TestApp;
  let token: string;
  let eventAccess: string;
  let settingsWriter: string;
  let itemId: number;
  let otherItemId: number;
  const E = '/api/v1/organizers/org/events/sample';
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const BASE = {
    subject: { en: 'Hello' },
    template: { en: 'Your order {code}' },
    send_date: '2031-01-01T10:00:00Z',
  };
  const DEFAULTS = {
    enabled: true,
    all_products: true,
    limit_products: [],
    include_pending: false,
    restrict_to_status: ['p', 'n__valid_if_pending'],
    checked_in_status: null,
    date_is_absolute: true,
    send_date: '2031-01-01T10:00:00Z',
    send_offset_days: null,
    send_offset_time: null,
    offset_to_event_end: false,
    offset_is_after: false,
    send_to: 'orders',
  };

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object) =>
    t.http().patch(path).set('Authorization', auth(token)).send(body);
  const put = (path: string, body: object) => t.http().put(path).set('Authorization', auth(token)).send(body);
  const count = async (): Promise<number> =>
    Number((await t.db.query<{ n: string }[]>('SELECT count(*) AS n FROM sendmail_rule'))[0].n);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    const item = await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' });
    itemId = item.body.id as number;
    const other = await post('/api/v1/organizers/org/events/other/items/', {
      name: 'T',
      default_price: '1.00',
    });
    otherItemId = other.body.id as number;
    eventAccess = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:write'] });
    settingsWriter = await teamToken(t, 'org', {
      allEvents: true,
      eventPermissions: ['event.settings.general:write'],
    });
  });
  afterAll(() => t.close());

  it('creates a rule with the defaults of compat §3.26 and reads it back', async () => {
    const res = await post(`${E}/sendmail_rules/`, BASE, settingsWriter);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), ...BASE, ...DEFAULTS });
    const again = await get(`${E}/sendmail_rules/${res.body.id}/`, settingsWriter);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    const logs = await t.db.query<{ action_type: string }[]>(
      "SELECT action_type FROM log_entry WHERE content_type = 'scheduledmail' AND object_id = $1",
      [res.body.id],
    );
    expect(logs).toEqual([{ action_type: 'pretix.plugins.sendmail.rule.added' }]);
  });

  it('needs event.settings.general:write for reads and writes', async () => {
    const before = await count();
    expect((await get(`${E}/sendmail_rules/`, eventAccess)).body).toEqual(DENIED);
    expect((await get(`${E}/sendmail_rules/`, eventAccess)).status).toBe(403);
    const res = await post(`${E}/sendmail_rules/`, BASE, eventAccess);
    expect(res.status).toBe(403);
    expect(await count()).toBe(before);
  });

  it.each([
    [{ template: { en: 'x' } }, { subject: ['This field is required.'] }],
    [{ subject: { en: 'x' } }, { template: ['This field is required.'] }],
    [
      { ...BASE, offset_is_after: false },
      { non_field_errors: ['date_is_absolute and offset_* are mutually exclusive'] },
    ],
    [{ ...BASE, send_date: null }, { non_field_errors: ['send_date is required for date_is_absolute=True'] }],
    [
      { ...BASE, date_is_absolute: false, send_offset_days: 0, send_offset_time: '10:00' },
      { non_field_errors: ['send_offset_days and send_offset_time are required for date_is_absolute=False'] },
    ],
    [
      { ...BASE, date_is_absolute: false, send_offset_days: 2 },
      { non_field_errors: ['send_offset_days and send_offset_time are required for date_is_absolute=False'] },
    ],
    [
      { ...BASE, all_products: false },
      { non_field_errors: ['limit_products is required when all_products=False'] },
    ],
    [
      { ...BASE, restrict_to_status: [] },
      { non_field_errors: ['restrict_to_status needs at least one value'] },
    ],
    [
      { ...BASE, restrict_to_status: ['p', 'foo'] },
      { non_field_errors: ['status foo not allowed: restrict_to_status may only include valid states'] },
    ],
    [{ ...BASE, send_to: 'everyone' }, { send_to: ['"everyone" is not a valid choice.'] }],
    [{ ...BASE, checked_in_status: 'maybe' }, { checked_in_status: ['"maybe" is not a valid choice.'] }],
    [
      { ...BASE, send_offset_time: '25:00' },
      { send_offset_time: [expect.stringContaining('Time has wrong format')] },
    ],
  ])('refuses %j with 400 and writes nothing', async (body, errors) => {
    const before = await count();
    const res = await post(`${E}/sendmail_rules/`, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errors);
    expect(await count()).toBe(before);
  });

  it('refuses products of another event on limit_products', async () => {
    const res = await post(`${E}/sendmail_rules/`, {
      ...BASE,
      all_products: false,
      limit_products: [otherItemId],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ limit_products: [`Invalid pk "${otherItemId}" - object does not exist.`] });
  });

  it('creates a relative rule limited to products and for attendees', async () => {
    const body = {
      subject: 'Soon',
      template: 'See you, {name}',
      date_is_absolute: false,
      send_offset_days: 2,
      send_offset_time: '09:30',
      offset_is_after: true,
      offset_to_event_end: true,
      all_products: false,
      limit_products: [itemId],
      restrict_to_status: ['p', 'e'],
      checked_in_status: 'no_checkin',
      send_to: 'both',
      enabled: false,
    };
    const res = await post(`${E}/sendmail_rules/`, body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      ...body,
      subject: { en: 'Soon' },
      template: { en: 'See you, {name}' },
      send_date: null,
      include_pending: false,
    });
  });

  it('maps the legacy include_pending to restrict_to_status', async () => {
    const res = await post(`${E}/sendmail_rules/`, { ...BASE, include_pending: true });
    expect(res.status).toBe(201);
    expect(res.body.restrict_to_status).toEqual([
      'p',
      'n__not_pending_approval_and_not_valid_if_pending',
      'n__valid_if_pending',
    ]);
    expect(res.body.include_pending).toBe(true);
  });

  it('PATCH changes only the sent fields and checks the merged rule; PUT resets omitted fields', async () => {
    const created = await post(`${E}/sendmail_rules/`, { ...BASE, send_to: 'attendees', enabled: false });
    const url = `${E}/sendmail_rules/${created.body.id}/`;
    const patched = await patch(url, { subject: { en: 'New' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...created.body, subject: { en: 'New' } });
    const bad = await patch(url, { date_is_absolute: false });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      non_field_errors: ['send_offset_days and send_offset_time are required for date_is_absolute=False'],
    });
    expect((await get(url)).body).toEqual(patched.body);
    const replaced = await put(url, { ...BASE, subject: 'Put' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ id: created.body.id, ...BASE, ...DEFAULTS, subject: { en: 'Put' } });
    expect((await get(url)).body).toEqual(replaced.body);
  });

  it('lists with filters and ordering, and deletes with 204', async () => {
    const all = await get(`${E}/sendmail_rules/`);
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(await count());
    const ids = (all.body.results as { id: number }[]).map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const relative = await get(`${E}/sendmail_rules/?date_is_absolute=false`);
    expect(relative.body.results).toEqual([
      expect.objectContaining({ date_is_absolute: false, send_to: 'both' }),
    ]);
    const both = await get(`${E}/sendmail_rules/?send_to=both&enabled=false`);
    expect(both.body.count).toBe(1);
    const desc = await get(`${E}/sendmail_rules/?ordering=-id`);
    expect((desc.body.results as { id: number }[]).map((r) => r.id)).toEqual([...ids].reverse());
    const other = await get('/api/v1/organizers/org/events/other/sendmail_rules/');
    expect(other.body.count).toBe(0);

    const gone = await t.http().delete(`${E}/sendmail_rules/${ids[0]}/`).set('Authorization', auth(token));
    expect(gone.status).toBe(204);
    expect((await get(`${E}/sendmail_rules/${ids[0]}/`)).status).toBe(404);
    expect(await count()).toBe(ids.length - 1);
    const wrongEvent = await get(`/api/v1/organizers/org/events/other/sendmail_rules/${ids[1]}/`);
    expect(wrongEvent.status).toBe(404);
  });
});
