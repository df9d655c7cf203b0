import { UNPAIRED_SURROGATE_MESSAGE } from '../src/common/http/body-strings';
import { userBearer } from './export-fixtures';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { sampleLayout } from './seating-fixtures';

const O = '/api/v1/organizers/org';
const E = `${O}/events/sample`;

/** A scheduled export body as raw JSON text, `field` set to the JSON escape `\ud800` (a lone surrogate). */
const exportWith = (field: string) =>
  `{"export_identifier": "orderlist", "export_form_data": {"_format": "xlsx"},
    "schedule_rrule": "RRULE:FREQ=WEEKLY;BYDAY=TU", "schedule_rrule_time": "04:30",
    "${field}": "a@example.org,\\ud800"}`;

/**
 * Inputs that answered 500 (README "Security", "Work a request may cause"): a lone surrogate in a string of a JSON
 * body (`isEmail` threw `URIError`; PostgreSQL refuses it in jsonb), and `null` for a non-nullable field of a
 * PATCH (NOT NULL violation). Both answer 400 naming the field, and nothing is written.
 */
describe('unpaired surrogates and nulls in bodies', () => {
  let t: TestApp;
  let token: string;
  let bearer: string;
  const count = async (table: string) =>
    Number((await t.db.query<{ n: string }[]>(`SELECT count(*) AS n FROM ${table}`))[0].n);
  const raw = (method: 'post' | 'patch', path: string, text: string, authz: string) =>
    t.http()[method](path).set('Authorization', authz).set('Content-Type', 'application/json').send(text);

  beforeAll(async () => {
    t = await startTestApp();
    const b = await bootstrapOrganizer(t, 'org');
    token = b.token;
    await createEvent(t, token, 'org', { slug: 'sample' });
    ({ bearer } = await userBearer(t, 'alice@example.com', [b.organizerId], [b.teamId]));
  });
  afterAll(() => t.close());

  it.each([
    ['event', `${E}/scheduled_exports/`],
    ['organizer', `${O}/scheduled_exports/`],
  ])(
    '%s-level scheduled export: a lone surrogate in each recipients field answers 400 naming it',
    async (_l, path) => {
      for (const field of [
        'mail_additional_recipients',
        'mail_additional_recipients_cc',
        'mail_additional_recipients_bcc',
      ]) {
        const res = await raw('post', path, exportWith(field), bearer);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ [field]: [UNPAIRED_SURROGATE_MESSAGE] });
      }
      expect(await count('scheduled_export')).toBe(0);
    },
  );

  it('a lone surrogate in a PATCH of a scheduled export, and deep in a JSON field, answers 400 naming the place', async () => {
    const created = await raw('post', `${E}/scheduled_exports/`, exportWith('mail_subject'), bearer);
    expect(created.status).toBe(400); // mail_subject too
    const ok = await t.http().post(`${E}/scheduled_exports/`).set('Authorization', bearer).send({
      export_identifier: 'orderlist',
      schedule_rrule: 'RRULE:FREQ=WEEKLY;BYDAY=TU',
      schedule_rrule_time: '04:30',
      mail_additional_recipients: 'a@example.org',
    });
    expect(ok.status).toBe(201);
    const id = (ok.body as { id: number }).id;
    let res = await raw(
      'patch',
      `${E}/scheduled_exports/${id}/`,
      '{"mail_additional_recipients_bcc": "\\udfff"}',
      bearer,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ mail_additional_recipients_bcc: [UNPAIRED_SURROGATE_MESSAGE] });
    res = await raw(
      'patch',
      `${E}/scheduled_exports/${id}/`,
      '{"export_form_data": {"_format": "csv", "items": [1, "x\\ud800y"]}}',
      bearer,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ export_form_data: { items: [{}, [UNPAIRED_SURROGATE_MESSAGE]] } });
    const after = await t.http().get(`${E}/scheduled_exports/${id}/`).set('Authorization', bearer);
    expect(after.body).toMatchObject({
      mail_additional_recipients: 'a@example.org',
      mail_additional_recipients_bcc: '',
    });
    // a paired surrogate (an emoji written as two escapes) is fine
    res = await raw(
      'patch',
      `${E}/scheduled_exports/${id}/`,
      '{"mail_subject": "Hi \\ud83d\\ude00"}',
      bearer,
    );
    expect(res.status).toBe(200);
    expect((res.body as { mail_subject: string }).mail_subject).toBe('Hi 😀');
  });

  it('a lone surrogate in a key of a JSON object (meta data, layouts, …) answers 400 naming it', async () => {
    const res = await raw(
      'post',
      `${O}/seatingplans/`,
      '{"name": "P", "layout": {"\\ud800": 1}}',
      auth(token),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ layout: { '\ud800': [UNPAIRED_SURROGATE_MESSAGE] } });
    expect(await count('seating_plan')).toBe(0);
  });

  it('PATCH O/seatingplans/{id}/ with "name": null answers 400 naming name; the plan is unchanged', async () => {
    const plan = await t
      .http()
      .post(`${O}/seatingplans/`)
      .set('Authorization', auth(token))
      .send({ name: 'Hall', layout: sampleLayout() });
    expect(plan.status).toBe(201);
    const id = (plan.body as { id: number }).id;
    for (const body of [{ name: null }, { layout: null }]) {
      const res = await t
        .http()
        .patch(`${O}/seatingplans/${id}/`)
        .set('Authorization', auth(token))
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ [Object.keys(body)[0]]: ['This field may not be null.'] });
    }
    const after = await t.http().get(`${O}/seatingplans/${id}/`).set('Authorization', auth(token));
    expect(after.body).toEqual({ id, name: 'Hall', layout: sampleLayout() });
  });

  it('PATCH of a scheduled export with a null field answers 400 naming it', async () => {
    const list = await t.http().get(`${E}/scheduled_exports/`).set('Authorization', bearer);
    const id = (list.body as { results: { id: number }[] }).results[0].id;
    for (const field of [
      'mail_additional_recipients',
      'schedule_rrule',
      'mail_subject',
      'export_form_data',
    ]) {
      const res = await t
        .http()
        .patch(`${E}/scheduled_exports/${id}/`)
        .set('Authorization', bearer)
        .send({ [field]: null });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ [field]: ['This field may not be null.'] });
    }
  });
});
