import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createApiApp } from '../src/app.factory';
import { AppConfig } from '../src/config/app-config';
import { MailOutboxService } from '../src/mail/mail-outbox.service';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { startSmtpServer, TestSmtpServer } from './smtp-helpers';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

interface MailRow {
  id: number;
  status: string;
  attempts: number;
  error: string | null;
  sent_at: Date | null;
  next_attempt: Date | null;
}

/**
 * Mail delivery end to end: the outbox row written with the business change, a real worker process sending it
 * with nodemailer to a real SMTP server started here (package `smtp-server`), retries, and the outbox sweep.
 */
describe('mail delivery over SMTP', () => {
  describe('with a working SMTP server', () => {
    let t: TestApp;
    let smtp: TestSmtpServer;
    let token: string;
    let teamId: number;
    const E = '/api/v1/organizers/org/events/sample';
    const workerEnv = () => ({
      ...workerEnvFor(t),
      MAIL_URL: smtp.url,
      SCHEDULER_INTERVAL_MS: '1000',
      JOB_LOCK_MS: '2000',
    });
    const post = (path: string, body: object) =>
      t.http().post(path).set('Authorization', auth(token)).send(body);
    const mailRow = async (id: number): Promise<MailRow> =>
      (await t.db.query<MailRow[]>('SELECT * FROM outgoing_mail WHERE id = $1', [id]))[0];
    const receivedBy = (address: string) => () =>
      Promise.resolve(smtp.received.find((m) => m.to.includes(address)));

    beforeAll(async () => {
      smtp = await startSmtpServer();
      t = await startTestApp({ mailUrl: smtp.url });
      ({ token, teamId } = await bootstrapOrganizer(t, 'org'));
      await createEvent(t, token, 'org', { slug: 'sample' });
      const item = await post(`${E}/items/`, { name: { en: 'Ticket' }, default_price: '10.00' });
      expect(item.status).toBe(201);
      expect((await post(`${E}/quotas/`, { name: 'Q', size: 100, items: [item.body.id] })).status).toBe(201);
      await startWorker(workerEnv());
    });
    afterAll(async () => {
      await stopAllWorkers();
      await t.close();
      await smtp.close();
      await deleteQueueKeys(t.app.get(AppConfig).queuePrefix);
    });

    const order = async (email: string, app: { http: () => ReturnType<TestApp['http']> } = t) => {
      const items = await t.db.query<{ id: number }[]>('SELECT id FROM item ORDER BY id LIMIT 1');
      return app
        .http()
        .post(`${E}/orders/`)
        .set('Authorization', auth(token))
        .send({ email, send_email: true, positions: [{ item: items[0].id }] });
    };

    it('sends the order confirmation (send_email: true) and records the mail as sent', async () => {
      const res = await order('buyer@example.org');
      expect(res.status).toBe(201);
      const mail = await eventually(receivedBy('buyer@example.org'));
      expect(mail.from).toBe('ticketing@localhost');
      expect(mail.subject).toBe(`Your order: ${res.body.code}`);
      expect(mail.text).toContain('Total: 10.00 EUR');
      const [{ id }] = await t.db.query<{ id: number }[]>(
        "SELECT id FROM outgoing_mail WHERE recipient = 'buyer@example.org'",
      );
      await eventually(async () => (await mailRow(id)).status === 'sent');
      const row = await mailRow(id);
      expect(row).toMatchObject({ status: 'sent', attempts: 1, error: null, next_attempt: null });
      expect(row.sent_at).toBeInstanceOf(Date);
      expect(smtp.received.filter((m) => m.to.includes('buyer@example.org'))).toHaveLength(1);
    });

    it('sends the team invitation', async () => {
      const res = await post(`/api/v1/organizers/org/teams/${teamId}/invites/`, { email: 'new@example.org' });
      expect(res.status).toBe(201);
      const mail = await eventually(receivedBy('new@example.org'));
      expect(mail.subject).toBe('You have been invited to a team');
      const [{ token: inviteToken }] = await t.db.query<{ token: string }[]>(
        'SELECT token FROM team_invite WHERE id = $1',
        [res.body.id],
      );
      expect(mail.text).toContain(`use this invitation code: ${inviteToken}`);
    });

    it('delivers attachments', async () => {
      const outbox = t.app.get(MailOutboxService);
      const content = 'Attached report, line 1\nline 2\n';
      const id = await outbox.enqueue(t.db.manager, {
        organizerId: null,
        to: 'files@example.org',
        subject: 'Your export',
        body: 'See the attachment.',
        attachments: [{ filename: 'report.txt', contentType: 'text/plain', content: Buffer.from(content) }],
      });
      const mail = await eventually(receivedBy('files@example.org'));
      expect(mail.raw).toMatch(/filename="?report\.txt"?/);
      expect(mail.raw.replace(/\r\n/g, '\n')).toContain(Buffer.from(content).toString('base64'));
      await eventually(async () => (await mailRow(id)).status === 'sent');
    });

    it('Redis down at the API: the order is created at once, its mail waits queued and the sweep sends it', async () => {
      const config = t.app.get(AppConfig);
      const down: NestExpressApplication = await createApiApp({
        databaseUrl: workerEnvFor(t).DATABASE_URL,
        queuePrefix: config.queuePrefix,
        mailUrl: smtp.url,
        redisUrl: 'redis://127.0.0.1:3842',
        logLevel: 'error',
      });
      try {
        const server = down.getHttpServer() as Parameters<typeof request>[0];
        const before = Date.now();
        const res = await order('offline@example.org', { http: () => request(server) });
        expect(res.status).toBe(201);
        expect(Date.now() - before).toBeLessThan(2000);
        const rows = await t.db.query<{ status: string }[]>(
          "SELECT status FROM outgoing_mail WHERE recipient = 'offline@example.org'",
        );
        expect(rows).toEqual([{ status: expect.stringMatching(/^(queued|sending|sent)$/) as unknown }]);
        const mail = await eventually(receivedBy('offline@example.org'), 15_000);
        expect(mail.subject).toBe(`Your order: ${res.body.code}`);
      } finally {
        await down.close();
      }
    });

    it('two workers send each of N outbox mails exactly once', async () => {
      await startWorker(workerEnv());
      const n = 20;
      await t.db.query(
        `INSERT INTO outgoing_mail (organizer_id, recipient, subject, body, status, next_attempt)
         SELECT NULL, 'many@example.org', 'Bulk ' || i, 'Body ' || i, 'queued', now()
           FROM generate_series(1, $1) AS i`,
        [n],
      );
      await eventually(
        async () =>
          (
            await t.db.query<{ n: number }[]>(
              "SELECT count(*)::int AS n FROM outgoing_mail WHERE recipient = 'many@example.org' AND status = 'sent'",
            )
          )[0].n === n,
        18_000,
      );
      const subjects = smtp.received.filter((m) => m.to.includes('many@example.org')).map((m) => m.subject);
      expect(subjects.sort()).toEqual(Array.from({ length: n }, (_, i) => `Bulk ${i + 1}`).sort());
      const attempts = await t.db.query<{ attempts: number }[]>(
        "SELECT DISTINCT attempts FROM outgoing_mail WHERE recipient = 'many@example.org'",
      );
      expect(attempts).toEqual([{ attempts: 1 }]);
    });
  });

  describe('with an SMTP server that refuses recipients (451)', () => {
    let t: TestApp;
    let smtp: TestSmtpServer;

    beforeAll(async () => {
      smtp = await startSmtpServer({ code: 451, message: 'Mailbox busy, try again later' });
      t = await startTestApp({ mailUrl: smtp.url });
      await startWorker({
        ...workerEnvFor(t),
        MAIL_URL: smtp.url,
        MAIL_MAX_ATTEMPTS: '3',
        MAIL_RETRY_DELAY_MS: '300',
      });
    });
    afterAll(async () => {
      await stopAllWorkers();
      await t.close();
      await smtp.close();
      await deleteQueueKeys(t.app.get(AppConfig).queuePrefix);
    });

    it('retries with back-off, then records failed with the SMTP error', async () => {
      const id = await t.app.get(MailOutboxService).enqueue(t.db.manager, {
        organizerId: null,
        to: 'busy@example.org',
        subject: 'Hello',
        body: 'Hello.',
      });
      const seen: MailRow[] = [];
      await eventually(
        async () => {
          const rows = await t.db.query<MailRow[]>('SELECT * FROM outgoing_mail WHERE id = $1', [id]);
          seen.push(rows[0]);
          return rows[0].status === 'failed';
        },
        15_000,
        50,
      );
      const row = seen[seen.length - 1];
      expect(row).toMatchObject({ status: 'failed', attempts: 3, next_attempt: null, sent_at: null });
      expect(row.error).toMatch(/451.*Mailbox busy, try again later/);
      expect(smtp.attempts).toBe(3);
      expect(smtp.received).toEqual([]);
      // Between attempts the row waited `queued` with the error and the time of the next attempt.
      const waiting = seen.find((r) => r.status === 'queued' && r.attempts > 0);
      expect(waiting).toMatchObject({ error: expect.stringMatching(/451/), next_attempt: expect.any(Date) });
    });
  });
});
