import { MailOutboxService } from '../src/mail/mail-outbox.service';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { listStatements } from './sql-count';

/**
 * `O/outgoingmails/` (README "Resources"): the organizer's outbox, newest first, filters `status`, `to`,
 * `created_since`, permission `organizer.outgoingmails:read`, a fixed number of statements per page. No MAIL_URL
 * here: mails stay `queued` in the outbox.
 */
describe('O/outgoingmails/', () => {
  let t: TestApp;
  let token: string;
  let orgId: number;
  let eventId: number;
  const O = '/api/v1/organizers/org/outgoingmails/';
  const get = (path: string, as = token) => t.http().get(path).set('Authorization', auth(as));

  beforeAll(async () => {
    t = await startTestApp();
    ({ token, organizerId: orgId } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    [{ id: eventId }] = await t.db.query<{ id: number }[]>("SELECT id FROM event WHERE slug = 'sample'");
    await bootstrapOrganizer(t, 'other');
    const outbox = t.app.get(MailOutboxService);
    await t.db.transaction(async (em) => {
      await outbox.enqueue(em, {
        organizerId: orgId,
        eventId,
        to: 'a@example.org',
        subject: 'First',
        body: 'One',
      });
      await outbox.enqueue(em, { organizerId: orgId, to: 'B@example.org', subject: 'Second', body: 'Two' });
      await outbox.enqueue(em, {
        organizerId: orgId,
        eventId,
        to: 'a@example.org',
        subject: 'Third',
        body: 'Three',
        attachments: [{ filename: 'x.txt', contentType: 'text/plain', content: Buffer.from('xyz') }],
      });
    });
    const [other] = await t.db.query<{ id: number }[]>("SELECT id FROM organizer WHERE slug = 'other'");
    await t.app
      .get(MailOutboxService)
      .enqueue(t.db.manager, { organizerId: other.id, to: 'a@example.org', subject: 'Other org', body: 'x' });
    await t.db.query(
      `UPDATE outgoing_mail SET status = 'sent', attempts = 1, sent_at = '2030-01-02T03:04:05Z', next_attempt = NULL,
              created = '2030-01-01T00:00:00Z'
        WHERE subject = 'First'`,
    );
    await t.db.query(
      `UPDATE outgoing_mail SET status = 'failed', attempts = 5, error = '550 No such user', next_attempt = NULL,
              created = '2030-01-01T00:00:01Z'
        WHERE subject = 'Second'`,
    );
    await t.db.query("UPDATE outgoing_mail SET created = '2030-01-01T00:00:02Z' WHERE subject = 'Third'");
  });
  afterAll(() => t.close());

  it('lists the organizer’s mails newest first in the list envelope, every field named', async () => {
    const res = await get(O);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 3, next: null, previous: null });
    const results = res.body.results as Record<string, unknown>[];
    expect(results.map((m) => m.subject)).toEqual(['Third', 'Second', 'First']);
    expect(results[0]).toEqual({
      id: expect.any(Number) as unknown,
      status: 'queued',
      to: ['a@example.org'],
      subject: 'Third',
      body: 'Three',
      event: 'sample',
      created: '2030-01-01T00:00:02Z',
      sent: null,
      attempts: 0,
      next_attempt: expect.stringMatching(/Z$/) as unknown,
      error: null,
      attachments: [{ filename: 'x.txt', content_type: 'text/plain', size: 3 }],
    });
    expect(results[1]).toMatchObject({
      status: 'failed',
      event: null,
      error: '550 No such user',
      attempts: 5,
    });
    expect(results[2]).toMatchObject({
      status: 'sent',
      sent: '2030-01-02T03:04:05Z',
      next_attempt: null,
    });
  });

  it('filters by status, recipient (case-insensitive) and created_since; a bad filter is 400', async () => {
    const subjects = async (query: string) => {
      const res = await get(`${O}?${query}`);
      expect(res.status).toBe(200);
      return (res.body.results as { subject: string }[]).map((m) => m.subject);
    };
    expect(await subjects('status=sent')).toEqual(['First']);
    expect(await subjects('status=queued')).toEqual(['Third']);
    expect(await subjects('to=A@EXAMPLE.ORG')).toEqual(['Third', 'First']);
    expect(await subjects('to=b@example.org')).toEqual(['Second']);
    expect(await subjects('created_since=2030-01-01T00:00:01Z')).toEqual(['Third', 'Second']);
    expect(await subjects('status=sent&to=b@example.org')).toEqual([]);
    const bad = await get(`${O}?status=lost`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      status: ['Select a valid choice. lost is not one of the available choices.'],
    });
    const badDate = await get(`${O}?created_since=yesterday`);
    expect(badDate.status).toBe(400);
    expect(badDate.body).toEqual({ created_since: ['Enter a valid date/time.'] });
  });

  it('paginates with absolute links', async () => {
    const res = await get(`${O}?page_size=2`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(res.body.results).toHaveLength(2);
    expect(res.body.next).toMatch(/\/api\/v1\/organizers\/org\/outgoingmails\/\?page_size=2&page=2$/);
    expect((await get(`${O}?page=3&page_size=2`)).status).toBe(404);
  });

  it('shows one mail; another organizer’s or an unknown id is 404', async () => {
    const [{ id }] = await t.db.query<{ id: number }[]>(
      "SELECT id FROM outgoing_mail WHERE subject = 'Second'",
    );
    const res = await get(`${O}${id}/`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, subject: 'Second', to: ['B@example.org'], status: 'failed' });
    const [{ id: otherId }] = await t.db.query<{ id: number }[]>(
      "SELECT id FROM outgoing_mail WHERE subject = 'Other org'",
    );
    expect((await get(`${O}${otherId}/`)).status).toBe(404);
    expect((await get(`${O}999999/`)).status).toBe(404);
  });

  it('needs organizer.outgoingmails:read', async () => {
    const reader = await teamToken(t, 'org', { organizerPermissions: ['organizer.outgoingmails:read'] });
    const other = await teamToken(t, 'org', {
      allEvents: true,
      allEventPermissions: true,
      organizerPermissions: ['organizer.teams:write'],
    });
    expect((await get(O, reader)).status).toBe(200);
    const denied = await get(O, other);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    expect((await get('/api/v1/organizers/other/outgoingmails/')).status).toBe(403);
  });

  it('runs the same number of statements for a page of 1 and a page of 3', async () => {
    const one = await listStatements(() => get(`${O}?page_size=1`));
    const three = await listStatements(() => get(`${O}?page_size=3`));
    expect([one.rows, three.rows]).toEqual([1, 3]);
    expect(three.statements).toBe(one.statements);
  });
});
