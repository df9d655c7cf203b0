import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { team, userBearer } from './export-fixtures';

const E = '/api/v1/organizers/org/events/sample/scheduled_exports/';
const O = '/api/v1/organizers/org/scheduled_exports/';

const VALID = {
  export_identifier: 'orderlist',
  export_form_data: { _format: 'xlsx' },
  mail_additional_recipients: ' a@example.com , b@example.com',
  mail_subject: 'Orders',
  mail_template: 'Here they are.',
  schedule_rrule: 'DTSTART:20230118T000000\nRRULE:FREQ=WEEKLY;BYDAY=TU,WE,TH',
  schedule_rrule_time: '04:30',
};

/** Scheduled exports over HTTP (spec "Scheduled exports"; compat §3.7): fields, validation, who may do what. */
describe('scheduled exports', () => {
  let t: TestApp;
  let admin: string;
  let orgId: number;
  let adminTeam: number;
  let alice: { userId: number; bearer: string };
  let bob: { userId: number; bearer: string };
  const count = async () =>
    Number((await t.db.query<{ n: string }[]>('SELECT count(*) AS n FROM scheduled_export'))[0].n);

  beforeAll(async () => {
    t = await startTestApp();
    const b = await bootstrapOrganizer(t, 'org');
    admin = b.token;
    orgId = b.organizerId;
    adminTeam = b.teamId;
    await createEvent(t, admin, 'org', { slug: 'sample', timezone: 'Europe/Berlin' });
    await createEvent(t, admin, 'org', { slug: 'other', timezone: 'Europe/Berlin' });
    alice = await userBearer(t, 'alice@example.com', [orgId], [adminTeam]);
    // Bob may read orders of `sample` only, without the settings permission.
    const readers = await team(t.db, orgId, {
      allEvents: false,
      eventPermissions: ['event.orders:read'],
      organizerPermissions: [],
    });
    await t.db.query(
      `INSERT INTO team_limit_event (team_id, event_id) SELECT $1, id FROM event WHERE slug = 'sample'`,
      [readers],
    );
    bob = await userBearer(t, 'bob@example.com', [orgId], [readers]);
  });
  afterAll(() => t.close());

  it('a team token cannot create one (403); nothing is written', async () => {
    const res = await t.http().post(E).set('Authorization', auth(admin)).send(VALID);
    expect(res.status).toBe(403);
    expect(await count()).toBe(0);
  });

  it('a user creates one: owner, defaults filled in and stored, next run in the future in the event time zone', async () => {
    const res = await t.http().post(E).set('Authorization', alice.bearer).send(VALID);
    expect(res.status).toBe(201);
    const body = res.body as Record<string, unknown>;
    expect(body).toMatchObject({
      owner: 'alice@example.com',
      export_identifier: 'orderlist',
      export_form_data: {
        _format: 'xlsx',
        paid_only: false,
        include_payment_amounts: false,
        date_range: '/',
        items: [],
      },
      locale: 'en',
      mail_additional_recipients: 'a@example.com,b@example.com',
      mail_additional_recipients_cc: '',
      mail_additional_recipients_bcc: '',
      schedule_rrule_time: '04:30:00',
      error_counter: 0,
    });
    expect(body).not.toHaveProperty('timezone');
    const next = new Date(body.schedule_next_run as string);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' })).toMatch(/ 04:30:00$/);
    expect(['Tue', 'Wed', 'Thu']).toContain(
      next.toLocaleString('en-US', { timeZone: 'Europe/Berlin', weekday: 'short' }),
    );
    const again = await t
      .http()
      .get(`${E}${body.id as number}/`)
      .set('Authorization', auth(admin));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(body);
  });

  it.each([
    [{ export_identifier: 'x' }, { export_identifier: ['"x" is not a valid choice.'] }],
    [{ export_identifier: 'giftcardlist' }, { export_identifier: ['"giftcardlist" is not a valid choice.'] }],
    [
      { export_form_data: { date_range: 'soon' } },
      { export_form_data: { date_range: ['Invalid date frame'] } },
    ],
    [
      { export_form_data: { _format: 'pdf' } },
      { export_form_data: { _format: ['"pdf" is not a valid choice.'] } },
    ],
    [
      { export_form_data: { paid_only: 'yes' } },
      { export_form_data: { paid_only: ['Must be a valid boolean.'] } },
    ],
    [{ locale: 'xx' }, { locale: ['"xx" is not a valid choice.'] }],
    [
      { mail_additional_recipients: 'a@example.com,nope' },
      { mail_additional_recipients: ['Enter a valid email address.'] },
    ],
    [
      { mail_additional_recipients_bcc: Array.from({ length: 26 }, (_, i) => `r${i}@example.com`).join(',') },
      { mail_additional_recipients_bcc: ['Please enter less than 25 recipients.'] },
    ],
    [{ schedule_rrule: 'nonsense' }, { schedule_rrule: ['Not a valid rrule.'] }],
    [{ schedule_rrule: 'RRULE:FREQ=MONTHLY;BYMONTHDAY=3' }, { schedule_rrule: ['BYMONTHDAY not supported'] }],
    [{ schedule_rrule: 'RRULE:FREQ=YEARLY;BYEASTER=0' }, { schedule_rrule: ['BYEASTER not supported'] }],
    [
      { schedule_rrule: 'DTSTART:20230118T000000\nRRULE:FREQ=DAILY\nRRULE:FREQ=WEEKLY' },
      { schedule_rrule: ['Only a single RRULE is allowed, no combination of rules.'] },
    ],
    [{ schedule_rrule: 'RRULE:FREQ=HOURLY' }, { schedule_rrule: ['Unsupported FREQ value'] }],
  ])('%j answers 400 %j and writes nothing', async (change, errors) => {
    const before = await count();
    const res = await t
      .http()
      .post(E)
      .set('Authorization', alice.bearer)
      .send({ ...VALID, ...change });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errors);
    expect(await count()).toBe(before);
  });

  it('organizer level: timezone (default UTC, validated), event_date_range default, giftcardlist offered', async () => {
    const res = await t
      .http()
      .post(O)
      .set('Authorization', alice.bearer)
      .send({
        ...VALID,
        timezone: 'America/New_York',
        schedule_rrule: 'DTSTART:20230101T000000\nRRULE:FREQ=DAILY',
      });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      timezone: 'America/New_York',
      export_form_data: { events: [], event_date_range: '/', date_range: '/', items: [] },
    });
    const next = new Date((res.body as { schedule_next_run: string }).schedule_next_run);
    expect(next.toLocaleString('sv-SE', { timeZone: 'America/New_York' })).toMatch(/ 04:30:00$/);
    const bad = await t
      .http()
      .post(O)
      .set('Authorization', alice.bearer)
      .send({ ...VALID, timezone: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ timezone: ['"Mars/Olympus" is not a valid choice.'] });
    const cards = await t
      .http()
      .post(O)
      .set('Authorization', alice.bearer)
      .send({ ...VALID, export_identifier: 'giftcardlist' });
    expect(cards.status).toBe(201);
    expect((cards.body as { timezone: string }).timezone).toBe('UTC');
    const list = await t.http().get(O).set('Authorization', auth(admin));
    expect(list.status).toBe(200);
    expect((list.body as { count: number }).count).toBe(2);
  });

  it('visibility: settings permission sees all; a user without it only their own; a token without it 403', async () => {
    const own = await t.http().post(E).set('Authorization', bob.bearer).send(VALID);
    expect(own.status).toBe(201);
    const bobs = await t.http().get(E).set('Authorization', bob.bearer);
    expect(bobs.status).toBe(200);
    expect((bobs.body as { results: { id: number }[] }).results.map((r) => r.id)).toEqual([
      (own.body as { id: number }).id,
    ]);
    const all = await t.http().get(`${E}?ordering=-id`).set('Authorization', alice.bearer);
    expect((all.body as { count: number }).count).toBe(2);
    const first = (all.body as { results: { id: number }[] }).results[1].id;
    expect((await t.http().get(`${E}${first}/`).set('Authorization', bob.bearer)).status).toBe(404);
    const reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    expect((await t.http().get(E).set('Authorization', auth(reader))).status).toBe(403);
  });

  it('a token with the settings permission updates (PATCH, PUT); any change resets error_counter; DELETE 204', async () => {
    const created = await t.http().post(E).set('Authorization', alice.bearer).send(VALID);
    const id = (created.body as { id: number }).id;
    await t.db.query('UPDATE scheduled_export SET error_counter = 5 WHERE id = $1', [id]);
    expect(
      ((await t.http().get(`${E}${id}/`).set('Authorization', auth(admin))).body as { error_counter: number })
        .error_counter,
    ).toBe(5);
    const patched = await t
      .http()
      .patch(`${E}${id}/`)
      .set('Authorization', auth(admin))
      .send({ export_form_data: { _format: 'csv', paid_only: true } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      owner: 'alice@example.com',
      error_counter: 0,
      export_form_data: { _format: 'csv', paid_only: true, items: [] },
    });
    const put = await t.http().put(`${E}${id}/`).set('Authorization', auth(admin)).send({
      export_identifier: 'quotas',
      schedule_rrule: 'RRULE:FREQ=DAILY',
      schedule_rrule_time: '23:00:00',
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      export_identifier: 'quotas',
      mail_subject: '',
      mail_additional_recipients: '',
      export_form_data: { _format: 'xlsx' },
    });
    const bad = await t
      .http()
      .patch(`${E}${id}/`)
      .set('Authorization', auth(admin))
      .send({ schedule_rrule: 'RRULE:FREQ=MINUTELY' });
    expect(bad.status).toBe(400);
    expect(
      (
        (await t.http().get(`${E}${id}/`).set('Authorization', auth(admin))).body as {
          schedule_rrule: string;
        }
      ).schedule_rrule,
    ).toBe('RRULE:FREQ=DAILY');
    const del = await t.http().delete(`${E}${id}/`).set('Authorization', auth(admin));
    expect(del.status).toBe(204);
    expect((await t.http().get(`${E}${id}/`).set('Authorization', auth(admin))).status).toBe(404);
  });

  it('anti-escalation: a settings holder without order access may not change an order export (403, unchanged)', async () => {
    const created = await t.http().post(E).set('Authorization', alice.bearer).send(VALID);
    const id = (created.body as { id: number }).id;
    const settingsOnly = await teamToken(t, 'org', {
      allEvents: true,
      eventPermissions: ['event.settings.general:write'],
    });
    const seen = await t.http().get(`${E}${id}/`).set('Authorization', auth(settingsOnly));
    expect(seen.status).toBe(200);
    const res = await t
      .http()
      .patch(`${E}${id}/`)
      .set('Authorization', auth(settingsOnly))
      .send({ mail_subject: 'mine' });
    expect(res.status).toBe(403);
    expect(
      ((await t.http().get(`${E}${id}/`).set('Authorization', auth(admin))).body as { mail_subject: string })
        .mail_subject,
    ).toBe('Orders');
    // Organizer level: naming an event the modifier cannot read is refused too.
    const org = await t
      .http()
      .post(O)
      .set('Authorization', alice.bearer)
      .send({ ...VALID, export_form_data: { events: ['other'] } });
    expect(org.status).toBe(201);
    const bobTry = await t
      .http()
      .post(O)
      .set('Authorization', bob.bearer)
      .send({ ...VALID, export_form_data: { events: ['other'] } });
    expect(bobTry.status).toBe(403);
  });
  it("pretix's documented export_form_data is accepted as is: relative frames, custom frames, older date_from/date_to", async () => {
    // doc/api/resources/scheduled_exports.rst, POST example (event and organizer level) and PATCH example.
    const documented = {
      export_identifier: 'orderlist',
      export_form_data: { _format: 'xlsx', date_range: 'week_previous' },
      locale: 'en',
      mail_additional_recipients: 'mary@example.org',
      mail_additional_recipients_cc: '',
      mail_additional_recipients_bcc: '',
      mail_subject: 'Order list',
      mail_template: "Here is last week's order list\n\nCheers\nJohn",
      schedule_rrule: 'DTSTART:20230118T000000\nRRULE:FREQ=WEEKLY;BYDAY=TU,WE,TH',
      schedule_rrule_time: '04:00:00',
    };
    const ev = await t.http().post(E).set('Authorization', alice.bearer).send(documented);
    expect(ev.status).toBe(201);
    expect(ev.body).toMatchObject({
      owner: 'alice@example.com',
      export_form_data: { _format: 'xlsx', date_range: 'week_previous' },
      mail_template: "Here is last week's order list\n\nCheers\nJohn",
      schedule_rrule_time: '04:00:00',
      error_counter: 0,
    });
    const id = (ev.body as { id: number }).id;
    const stored = await t.db.query<{ export_form_data: Record<string, unknown> }[]>(
      'SELECT export_form_data FROM scheduled_export WHERE id = $1',
      [id],
    );
    expect(stored[0].export_form_data.date_range).toBe('week_previous');
    const patched = await t
      .http()
      .patch(`${E}${id}/`)
      .set('Authorization', auth(admin))
      .send({ export_form_data: { _format: 'xlsx', date_range: 'week_this' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ export_form_data: { _format: 'xlsx', date_range: 'week_this' } });
    const org = await t
      .http()
      .post(O)
      .set('Authorization', alice.bearer)
      .send({ ...documented, timezone: 'Europe/Berlin' });
    expect(org.status).toBe(201);
    expect(org.body).toMatchObject({
      timezone: 'Europe/Berlin',
      export_form_data: { _format: 'xlsx', date_range: 'week_previous', event_date_range: '/' },
    });
    // Every frame pretix offers, a custom frame, the older form; 'custom' alone is no frame (pretix: invalid too).
    for (const frame of [
      'days_last7',
      'month_to_date',
      'year_this',
      'future',
      'past',
      '2024-01-01/2024-12-31',
    ])
      expect(
        (
          await t
            .http()
            .patch(`${E}${id}/`)
            .set('Authorization', auth(admin))
            .send({ export_form_data: { date_range: frame, event_date_range: frame } })
        ).body,
      ).toMatchObject({ export_form_data: { date_range: frame } });
    const legacy = await t
      .http()
      .patch(`${E}${id}/`)
      .set('Authorization', auth(admin))
      .send({ export_form_data: { date_from: '2020-01-01', date_to: '2023-12-31' } });
    expect(legacy.status).toBe(200);
    expect((legacy.body as { export_form_data: Record<string, unknown> }).export_form_data).toEqual({
      _format: 'xlsx',
      paid_only: false,
      include_payment_amounts: false,
      date_range: '2020-01-01/2023-12-31',
      items: [],
    });
    const custom = await t
      .http()
      .patch(`${E}${id}/`)
      .set('Authorization', auth(admin))
      .send({ export_form_data: { date_range: 'custom' } });
    expect(custom.status).toBe(400);
    expect(custom.body).toEqual({ export_form_data: { date_range: ['Invalid date frame'] } });
  });
});
