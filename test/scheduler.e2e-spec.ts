import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../src/config/app-config';
import { MailOutboxService } from '../src/mail/mail-outbox.service';
import { MailSweep } from '../src/mail/mail-sweep.service';
import { OrderExpiry } from '../src/orders/actions/order-expiry';
import { PeriodicJobs } from '../src/scheduler/periodic-jobs';
import { SchedulerProcessor } from '../src/scheduler/scheduler.processor';
import { JobQueues } from '../src/tasks/job-queues.service';
import { StoredFiles } from '../src/tasks/stored-files.service';
import { ExitAll } from '../src/checkin/exit-all';
import { CHECKIN_EVENTS } from '../src/checkin/checkin-events.port';
import { OAuthHousekeeping } from '../src/oauth/oauth-housekeeping';
import { QuotaCountCheck } from '../src/orders/quota-engine/quota-count-check';
import { QuotaCountRepair } from '../src/orders/quota-engine/quota-count-repair.periodic';
import { CheckinCountsCheck } from '../src/checkin/checkin-counts-check';
import { CheckinCountsQueries } from '../src/checkin/checkin-counts.queries';
import { CartExpiry } from '../src/orders/carts/cart-expiry.periodic';
import { IdempotencyPurge } from '../src/common/http/idempotency-purge.periodic';
import { TaskHousekeeping } from '../src/tasks/task-housekeeping.service';
import { SendmailRuleRunner } from '../src/sendmail-rules/sendmail-rule-runner';
import { TasksService } from '../src/tasks/tasks.service';
import { ScheduledExportRuns } from '../src/exports/scheduled-export-runs.service';
import { WebhookDispatch } from '../src/webhooks/webhook-dispatch.service';
import { WaitingListAutoAssign } from '../src/waitinglist/waiting-list-auto-assign.periodic';
import { ChangeSequencer } from '../src/sync/changes/change-sequencer.service';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/** The scheduler tick's housekeeping, run directly against the test database. */
describe('scheduler tick', () => {
  let t: TestApp;
  let processor: SchedulerProcessor;

  beforeAll(async () => {
    t = await startTestApp();
    const db = t.app.get<DataSource>(getDataSourceToken());
    processor = new SchedulerProcessor(
      PeriodicJobs.of([
        new IdempotencyPurge(db),
        new CartExpiry(db),
        new MailSweep(db, t.app.get(MailOutboxService), t.app.get(AppConfig)),
        new TaskHousekeeping(db, t.app.get(JobQueues), t.app.get(StoredFiles), t.app.get(AppConfig)),
        t.app.get(OrderExpiry),
        new QuotaCountRepair(t.app.get(QuotaCountCheck)),
        new ExitAll(db, t.app.get(CHECKIN_EVENTS, { strict: false })),
        new CheckinCountsCheck(db, new CheckinCountsQueries()),
        t.app.get(OAuthHousekeeping),
        new SendmailRuleRunner(db, t.app.get(MailOutboxService), t.app.get(AppConfig)),
        new ScheduledExportRuns(db, t.app.get(TasksService)),
        new WebhookDispatch(db, t.app.get(JobQueues), t.app.get(AppConfig)),
        t.app.get(WaitingListAutoAssign),
        t.app.get(ChangeSequencer),
      ]),
    );
  });
  afterAll(() => t.close());

  it('purges expired idempotency records and keeps live ones', async () => {
    await t.db.query(
      `INSERT INTO idempotency_record (credential_hash, key, fingerprint, status, expires) VALUES
         (repeat('a', 64), 'old', repeat('0', 64), 201, now() - interval '1 minute'),
         (repeat('a', 64), 'new', repeat('0', 64), 201, now() + interval '1 hour')`,
    );
    const result = await processor.tick('test');
    expect(typeof result.at).toBe('string');
    const rows: { key: string }[] = await t.db.query('SELECT key FROM idempotency_record ORDER BY key');
    expect(rows.map((r) => r.key)).toEqual(['new']);
  });

  it('deletes expired cart positions of every cart (web shop and @api) with their answers, keeps live ones', async () => {
    const { token } = await bootstrapOrganizer(t, 'org');
    await createEvent(t, token, 'org', { slug: 'sample' });
    const item = await t
      .http()
      .post('/api/v1/organizers/org/events/sample/items/')
      .set('Authorization', auth(token))
      .send({ name: { en: 'Ticket' }, default_price: '10.00' });
    expect(item.status).toBe(201);
    const question = await t
      .http()
      .post('/api/v1/organizers/org/events/sample/questions/')
      .set('Authorization', auth(token))
      .send({ question: { en: 'Age?' }, type: 'N', items: [item.body.id] });
    expect(question.status).toBe(201);
    const [{ id: eventId }]: { id: number }[] = await t.db.query(
      "SELECT id FROM event WHERE slug = 'sample'",
    );
    const carts: { id: number; cart_id: string }[] = await t.db.query(
      `INSERT INTO cart_position (event_id, cart_id, expires, item_id, price) VALUES
         ($1, 'expired-web', now() - interval '1 second', $2, 10),
         ($1, 'expired@api', now() - interval '2 hours', $2, 10),
         ($1, 'live@api', now() + interval '10 minutes', $2, 10),
         ($1, 'live-web', now() + interval '10 minutes', $2, 10)
       RETURNING id, cart_id`,
      [eventId, item.body.id],
    );
    const expiredApi = carts.find((c) => c.cart_id === 'expired@api')!.id;
    await t.db.query(
      "INSERT INTO question_answer (cart_position_id, question_id, answer) VALUES ($1, $2, '42')",
      [expiredApi, question.body.id],
    );

    const result = await processor.tick('test');

    expect(result.cartPositionsPurged).toBe(2);
    const left: { cart_id: string }[] = await t.db.query(
      'SELECT cart_id FROM cart_position ORDER BY cart_id',
    );
    expect(left.map((r) => r.cart_id)).toEqual(['live-web', 'live@api']);
    const answers: unknown[] = await t.db.query('SELECT 1 FROM question_answer WHERE cart_position_id = $1', [
      expiredApi,
    ]);
    expect(answers).toEqual([]);
    // A second tick finds nothing more to do.
    expect((await processor.tick('again')).cartPositionsPurged).toBe(0);
  });
});
