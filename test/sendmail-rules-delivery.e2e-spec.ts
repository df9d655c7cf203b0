import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../src/config/app-config';
import { MailOutboxService } from '../src/mail/mail-outbox.service';
import { SendmailRuleRunner } from '../src/sendmail-rules/sendmail-rule-runner';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { startSmtpServer, TestSmtpServer } from './smtp-helpers';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

interface MailRow {
  to: string;
  subject: string;
  body: string;
}

/**
 * Scheduled e-mail rules at work (compat §3.26): which orders and attendees a due rule mails, placeholders, and
 * "once per rule and recipient" under parallel runs and with two real worker processes delivering over SMTP.
 */
describe('scheduled e-mail rules: sending', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let token: string;
  let runner: SendmailRuleRunner;
  const ORG = '/api/v1/organizers/org/events';
  const post = (path: string, body: object) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);

  async function setUpEvent(slug: string, extra: object = {}): Promise<{ ticket: number; shirt: number }> {
    await createEvent(t, token, 'org', { slug, name: { en: `Event ${slug}` }, ...extra });
    const ticket = await post(`${ORG}/${slug}/items/`, { name: 'Ticket', default_price: '10.00' });
    const shirt = await post(`${ORG}/${slug}/items/`, { name: 'Shirt', default_price: '5.00' });
    const quota = await post(`${ORG}/${slug}/quotas/`, {
      name: 'Q',
      size: 1000,
      items: [ticket.body.id, shirt.body.id],
    });
    expect(quota.status).toBe(201);
    return { ticket: ticket.body.id as number, shirt: shirt.body.id as number };
  }

  async function order(slug: string, body: Record<string, unknown>): Promise<string> {
    const res = await post(`${ORG}/${slug}/orders/`, { send_email: false, ...body });
    if (res.status !== 201) throw new Error(`order: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.code as string;
  }

  async function rule(slug: string, body: Record<string, unknown>): Promise<number> {
    const res = await post(`${ORG}/${slug}/sendmail_rules/`, { subject: 'S', template: 'T', ...body });
    if (res.status !== 201) throw new Error(`rule: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as number;
  }

  const mailsOf = (slug: string): Promise<MailRow[]> =>
    t.db.query(
      `SELECT m.recipient AS "to", m.subject, m.body FROM outgoing_mail m JOIN event e ON e.id = m.event_id
        WHERE e.slug = $1 ORDER BY m.recipient`,
      [slug],
    );

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ mailUrl: '' });
    ({ token } = await bootstrapOrganizer(t, 'org'));
    const db = t.app.get<DataSource>(getDataSourceToken());
    runner = new SendmailRuleRunner(db, t.app.get(MailOutboxService), t.app.get(AppConfig));
  });
  afterAll(async () => {
    await stopAllWorkers();
    await t.close();
    await smtp.close();
    await deleteQueueKeys(t.app.get(AppConfig).queuePrefix);
  });

  it('mails each matching order once, with placeholders, even with parallel runs', async () => {
    const { ticket } = await setUpEvent('abs');
    const codes: string[] = [];
    for (const who of ['a', 'b', 'c']) {
      codes.push(
        await order('abs', {
          email: `${who}@example.org`,
          status: 'p',
          invoice_address: { name_parts: { full_name: `Buyer ${who}` } },
          positions: [{ item: ticket }],
        }),
      );
    }
    await order('abs', { email: 'pending@example.org', positions: [{ item: ticket }] });
    const canceled = await order('abs', {
      email: 'canceled@example.org',
      status: 'p',
      positions: [{ item: ticket }],
    });
    expect((await post(`${ORG}/abs/orders/${canceled}/mark_canceled/`, { send_email: false })).status).toBe(
      200,
    );
    await rule('abs', {
      subject: { en: 'About {code}' },
      template: { en: 'Dear {name}, {event}: {url}' },
      send_date: new Date().toISOString(),
    });
    // Orders placed after the send time are not mailed.
    await order('abs', { email: 'late@example.org', status: 'p', positions: [{ item: ticket }] });

    const counts = await Promise.all([runner.run(), runner.run(), runner.run(), runner.run()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    const mails = await mailsOf('abs');
    expect(mails).toHaveLength(3);
    const secrets: { code: string; secret: string }[] = await t.db.query(
      'SELECT code, secret FROM orders WHERE code = ANY($1) ORDER BY email',
      [codes],
    );
    expect(mails).toEqual(
      ['a', 'b', 'c'].map((who, i) => ({
        to: `${who}@example.org`,
        subject: `About ${secrets[i].code}`,
        body: `Dear Buyer ${who}, Event abs: http://localhost:8000/org/abs/order/${secrets[i].code}/${secrets[i].secret}/`,
      })),
    );
    expect(await runner.run()).toBe(0);
    expect(await mailsOf('abs')).toHaveLength(3);
  });

  it('does not send before the send time, nor disabled rules', async () => {
    const { ticket } = await setUpEvent('future');
    await order('future', { email: 'x@example.org', status: 'p', positions: [{ item: ticket }] });
    await rule('future', { send_date: '2099-01-01T00:00:00Z' });
    await rule('future', { date_is_absolute: false, send_offset_days: 2, send_offset_time: '09:00' });
    await rule('future', { send_date: new Date().toISOString(), enabled: false });
    await runner.run();
    expect(await mailsOf('future')).toEqual([]);
  });

  it('relative rules, product limits, attendees and the check-in state', async () => {
    const { ticket, shirt } = await setUpEvent('past', {
      date_from: '2020-01-01T10:00:00Z',
      date_to: '2020-01-01T18:00:00Z',
    });
    await order('past', {
      email: 'buyer@example.org',
      status: 'p',
      positions: [
        { item: ticket, attendee_email: 'in@example.org', attendee_name_parts: { full_name: 'Checked In' } },
        { item: ticket, attendee_email: 'out@example.org', attendee_name_parts: { full_name: 'Not In' } },
        { item: shirt, attendee_email: 'shirt@example.org' },
      ],
    });
    // Orders must exist before the send time: date them back (the rule is relative to a past event).
    await t.db.query(`UPDATE orders SET datetime = '2019-12-01' WHERE email = 'buyer@example.org'`);
    const inId: { id: number; event_id: number }[] = await t.db.query(
      "SELECT id, event_id FROM order_position WHERE attendee_email = 'in@example.org'",
    );
    await t.db.query(
      `INSERT INTO checkin (position_id, event_id, type, datetime, successful) VALUES ($1, $2, 'entry', now(), true)`,
      [inId[0].id, inId[0].event_id],
    );
    await rule('past', {
      subject: 'Thanks {name}',
      date_is_absolute: false,
      send_offset_days: 1,
      send_offset_time: '09:00',
      offset_is_after: true,
      offset_to_event_end: true,
      all_products: false,
      limit_products: [ticket],
      send_to: 'attendees',
      checked_in_status: 'no_checkin',
    });
    await runner.run();
    expect(await mailsOf('past')).toEqual([{ to: 'out@example.org', subject: 'Thanks Not In', body: 'T' }]);
  });

  it('two worker processes deliver three mails to the SMTP server, each once', async () => {
    const { ticket } = await setUpEvent('workers');
    for (const who of ['w1', 'w2', 'w3']) {
      await order('workers', { email: `${who}@example.org`, status: 'p', positions: [{ item: ticket }] });
    }
    await rule('workers', { subject: 'Hello {code}', send_date: new Date().toISOString() });
    const env = { ...workerEnvFor(t), MAIL_URL: smtp.url, SCHEDULER_INTERVAL_MS: '500' };
    const [w1] = await Promise.all([startWorker(env), startWorker(env)]);
    await eventually(() => Promise.resolve(smtp.received.length >= 3 || undefined), 30000);
    // Several more ticks: nothing further is sent.
    const from = w1.output().length;
    await w1.waitForLog(/rule mails/, 10000, from);
    await w1.waitForLog(/rule mails/, 10000, w1.output().length);
    await new Promise((r) => setTimeout(r, 1000));
    const workers = smtp.received.filter((m) => /^w\d@/.test(m.to[0]));
    expect(workers.map((m) => m.to[0]).sort()).toEqual([
      'w1@example.org',
      'w2@example.org',
      'w3@example.org',
    ]);
    const codes: { code: string }[] = await t.db.query(
      `SELECT code FROM orders WHERE email LIKE 'w_@example.org' ORDER BY email`,
    );
    expect(workers.map((m) => m.subject).sort()).toEqual(codes.map((c) => `Hello ${c.code}`).sort());
    const rows: { n: string }[] = await t.db.query(
      `SELECT count(*) AS n FROM outgoing_mail WHERE recipient LIKE 'w_@example.org' AND status = 'sent'`,
    );
    expect(Number(rows[0].n)).toBe(3);
  });
});
