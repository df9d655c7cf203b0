import ExcelJS from 'exceljs';
import { Principal } from '../src/auth/principal';
import { NotFound, TaskFailed, TaskNotReady } from '../src/common/errors';
import { domainAnswer } from '../src/common/http/exception.filter';
import { AppConfig } from '../src/config/app-config';
import { EXPORT_FORBIDDEN } from '../src/exports/exporters.service';
import { TasksService } from '../src/tasks/tasks.service';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { seedOrders, team, userBearer } from './export-fixtures';
import { startTestApp, TestApp } from './harness';
import { startSmtpServer, TestSmtpServer, type ReceivedMail } from './smtp-helpers';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

const E = '/api/v1/organizers/org/events/sample/scheduled_exports/';

interface ExportRow {
  error_counter: number;
  running_task_id: string | null;
  schedule_next_run: Date | null;
}

/** The first attachment of a received mail: its file name and decoded bytes. */
function attachmentOf(mail: ReceivedMail): { filename: string; content: Buffer } {
  const m =
    /Content-Disposition: attachment;\s*filename="?([^"\r\n]+)"?\r\n(?:[^\r\n]+\r\n)*\r\n([A-Za-z0-9+/=\r\n]+)/.exec(
      mail.raw,
    );
  if (!m) throw new Error(`no attachment in:\n${mail.raw.slice(0, 2000)}`);
  return { filename: m[1], content: Buffer.from(m[2].replace(/\r\n/g, ''), 'base64') };
}

/**
 * Scheduled export runs end to end: real worker processes run the scheduler tick, which starts due exports as
 * `exports.run` tasks; the file is mailed through the outbox to a real SMTP server; failures are counted; a
 * worker killed mid-run never leaves the run `running`.
 */
describe('scheduled export runs', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: string;
  let alice: { userId: number; bearer: string };
  let orgId: number;
  let eventId: number;
  let itemId: number;
  const workerEnv = (extra: Record<string, string> = {}) => ({
    ...workerEnvFor(t),
    JOB_LOCK_MS: '2000',
    SCHEDULER_INTERVAL_MS: '500',
    SCHEDULER_WATCH_MS: '500',
    MAIL_RETRY_DELAY_MS: '200',
    ...extra,
  });
  const row = async (id: number): Promise<ExportRow> =>
    (await t.db.query<ExportRow[]>('SELECT * FROM scheduled_export WHERE id = $1', [id]))[0];
  const create = async (body: Record<string, unknown>): Promise<number> => {
    const res = await t
      .http()
      .post(E)
      .set('Authorization', alice.bearer)
      .send({
        schedule_rrule: 'DTSTART:20260101T000000\nRRULE:FREQ=DAILY',
        schedule_rrule_time: '03:00:00',
        ...body,
      });
    expect(res.status).toBe(201);
    return (res.body as { id: number }).id;
  };
  const makeDue = (id: number) =>
    t.db.query(`UPDATE scheduled_export SET schedule_next_run = now() - interval '1 second' WHERE id = $1`, [
      id,
    ]);
  /**
   * The newest run task of an export. Read from `async_task`, not from `running_task_id`: a run that fails at
   * once is booked (and `running_task_id` cleared) within one scheduler tick, which a poll can miss on a busy
   * machine.
   */
  const taskOf = async (id: number): Promise<string> =>
    eventually(async () => {
      const r = await t.db.query<{ id: string }[]>(
        `SELECT id FROM async_task WHERE kind = 'exports.run' AND input->>'scheduled_export_id' = $1
          ORDER BY created DESC LIMIT 1`,
        [String(id)],
      );
      return r[0]?.id;
    }, 20_000);

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ mailUrl: smtp.url });
    const b = await bootstrapOrganizer(t, 'org');
    admin = b.token;
    orgId = b.organizerId;
    await createEvent(t, admin, 'org', { slug: 'sample', timezone: 'Europe/Berlin' });
    eventId = (await t.db.query<{ id: number }[]>(`SELECT id FROM event WHERE slug = 'sample'`))[0].id;
    const item = await t
      .http()
      .post('/api/v1/organizers/org/events/sample/items/')
      .set('Authorization', auth(admin))
      .send({ name: { en: 'Conference ticket' }, default_price: '10.00' });
    expect(item.status).toBe(201);
    itemId = (item.body as { id: number }).id;
    await seedOrders(t.db, { organizerId: orgId, eventId, itemId, orders: 30, positionsPerOrder: 2 });
    alice = await userBearer(t, 'alice@example.com', [orgId], [b.teamId]);
  });
  afterEach(() => stopAllWorkers());
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await deleteQueueKeys(t.app.get(AppConfig).queuePrefix);
  });

  it('a due export runs once, its XLSX reaches the owner and the recipients as an attachment, the counter stays 0', async () => {
    const id = await create({
      export_identifier: 'orderlist',
      export_form_data: { _format: 'xlsx', paid_only: true, include_payment_amounts: true },
      mail_additional_recipients: 'ops@example.com',
      mail_additional_recipients_cc: 'cc@example.com',
      mail_subject: 'Daily orders',
    });
    await makeDue(id);
    await startWorker(workerEnv());
    await startWorker(workerEnv()); // two schedulers: still one run
    const mails = await eventually(async () => (smtp.received.length >= 3 ? smtp.received : null), 30_000);
    const taskId = (
      await t.db.query<{ id: string }[]>(`SELECT id FROM async_task WHERE kind = 'exports.run'`)
    )[0].id;
    expect(mails.map((m) => m.to[0]).sort()).toEqual([
      'alice@example.com',
      'cc@example.com',
      'ops@example.com',
    ]);
    for (const mail of mails) {
      expect(mail.subject).toBe('Daily orders');
      const file = attachmentOf(mail);
      expect(file.filename).toBe('sample_orderlist.xlsx');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(file.content as unknown as ArrayBuffer);
      const sheet = book.worksheets[0];
      const header = sheet.getRow(1).values as unknown[];
      expect(header).toContain('Order code');
      expect(header).toContain('Payment amount');
      const codes = new Set<string>();
      sheet.eachRow((r, n) => {
        if (n > 1) codes.add(r.getCell(2).text);
      });
      // 30 orders, every third pending: 20 paid orders with 2 positions each.
      expect(sheet.rowCount).toBe(1 + 40);
      expect(codes.size).toBe(20);
      expect(codes.has('ORD00001')).toBe(true);
      expect(codes.has('ORD00003')).toBe(false);
      expect(sheet.getRow(2).getCell(header.indexOf('Product')).text).toBe('Conference ticket');
    }
    const after = await eventually(async () => {
      const r = await row(id);
      return r.running_task_id === null ? r : null;
    });
    expect(after.error_counter).toBe(0);
    expect(after.schedule_next_run!.getTime()).toBeGreaterThan(Date.now());
    expect(after.schedule_next_run!.toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' })).toMatch(
      / 03:00:00$/,
    );
    await new Promise((r) => setTimeout(r, 1500)); // more ticks: no second run before the next occurrence
    expect(smtp.received.length).toBe(3);
    const tasks = t.app.get(TasksService);
    const owner = new Principal({ kind: 'user', userId: alice.userId }, []);
    const done = await tasks.poll(taskId, owner, { missing: 'not-found', failed: 'task' });
    expect(done.state).toBe('succeeded');
    await expect(
      tasks.poll(taskId, new Principal({ kind: 'user', userId: alice.userId + 99 }, []), {
        missing: 'not-found',
        failed: 'task',
      }),
    ).rejects.toBeInstanceOf(NotFound);
  });

  it('runs every exporter: check-in list (CSV), vouchers (JSON), quotas (CSV), gift cards (organizer, JSON)', async () => {
    const E0 = '/api/v1/organizers/org/events/sample';
    const made = async (path: string, body: object): Promise<{ id: number }> => {
      const res = await t.http().post(path).set('Authorization', auth(admin)).send(body);
      expect(res.status).toBe(201);
      return res.body as { id: number };
    };
    const list = await made(`${E0}/checkinlists/`, { name: 'Entrance', all_products: true });
    await made(`${E0}/vouchers/`, { code: 'VOUCHER1', max_usages: 2, tag: 'press' });
    await made(`${E0}/quotas/`, { name: 'Main quota', size: 100, items: [itemId] });
    await made('/api/v1/organizers/org/giftcards/', { secret: 'GIFT-1', currency: 'EUR', value: '25.00' });
    const before = smtp.received.length;
    const ids = [
      await create({
        export_identifier: 'checkinlist',
        export_form_data: { _format: 'csv', list: list.id },
        mail_subject: 'checkinlist',
      }),
      await create({
        export_identifier: 'voucherlist',
        export_form_data: { _format: 'json' },
        mail_subject: 'voucherlist',
      }),
      await create({
        export_identifier: 'quotas',
        export_form_data: { _format: 'csv' },
        mail_subject: 'quotas',
      }),
    ];
    const org = await t
      .http()
      .post('/api/v1/organizers/org/scheduled_exports/')
      .set('Authorization', alice.bearer)
      .send({
        export_identifier: 'giftcardlist',
        export_form_data: { _format: 'json' },
        mail_subject: 'giftcardlist',
        schedule_rrule: 'RRULE:FREQ=DAILY',
        schedule_rrule_time: '03:00:00',
      });
    expect(org.status).toBe(201);
    ids.push((org.body as { id: number }).id);
    for (const id of ids) await makeDue(id);
    await startWorker(workerEnv());
    const mails = await eventually(
      async () => (smtp.received.length >= before + 4 ? smtp.received.slice(before) : null),
      30_000,
    );
    const file = (subject: string) => {
      const mail = mails.find((m) => m.subject === subject);
      if (!mail)
        throw new Error(`no mail with subject ${subject}: ${mails.map((m) => m.subject).join(', ')}`);
      return attachmentOf(mail);
    };
    const checkin = file('checkinlist');
    expect(checkin.filename).toBe('sample_checkinlist.csv');
    const lines = checkin.content.toString('utf8').trim().split('\n');
    expect(lines[0]).toContain('Order code');
    expect(lines).toHaveLength(1 + 40); // the list admits the 20 paid orders' 40 positions
    expect(lines[1]).toContain('Conference ticket');
    const vouchers = JSON.parse(file('voucherlist').content.toString('utf8')) as Record<
      string,
      Record<string, unknown>[]
    >;
    expect(vouchers.Vouchers).toEqual([
      expect.objectContaining({ Code: 'VOUCHER1', 'Maximum usages': 2, Tag: 'press' }),
    ]);
    const quotas = file('quotas').content.toString('utf8').trim().split('\n');
    expect(quotas[1]).toMatch(/^\d+,Main quota,,100,/);
    const cards = JSON.parse(file('giftcardlist').content.toString('utf8')) as Record<
      string,
      Record<string, unknown>[]
    >;
    expect(cards['Gift cards']).toEqual([
      expect.objectContaining({ Secret: 'GIFT-1', Value: '25.00', Currency: 'EUR' }),
    ]);
  });

  it('a failing run is counted; after 5 consecutive failures the schedule stops; a change resets the counter', async () => {
    const id = await create({ export_identifier: 'checkinlist', export_form_data: { list: 999999 } });
    await t.db.query('UPDATE scheduled_export SET error_counter = 3 WHERE id = $1', [id]);
    await makeDue(id);
    await startWorker(workerEnv());
    const taskId = await taskOf(id);
    const failed = await eventually(async () => {
      const r = await row(id);
      return r.running_task_id === null && r.error_counter === 4 ? r : null;
    }, 20_000);
    expect(failed.error_counter).toBe(4);
    const tasks = t.app.get(TasksService);
    const owner = new Principal({ kind: 'user', userId: alice.userId }, []);
    const err = await tasks
      .poll(taskId, owner, { missing: 'not-found', failed: 'task' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskFailed);
    expect(err).toMatchObject({
      task: 'task',
      state: 'failed',
      detail: 'The check-in list of this export no longer exists.',
    });
    expect(domainAnswer(err as TaskFailed)?.status).toBe(410);
    await makeDue(id);
    await eventually(async () => (await row(id)).error_counter === 5, 20_000);
    await makeDue(id);
    await new Promise((r) => setTimeout(r, 2000));
    const stopped = await row(id);
    expect(stopped.error_counter).toBe(5);
    expect(stopped.running_task_id).toBeNull();
    const runs = await t.db.query<{ n: string }[]>(
      `SELECT count(*) AS n FROM async_task WHERE kind = 'exports.run' AND input->>'scheduled_export_id' = $1`,
      [String(id)],
    );
    expect(Number(runs[0].n)).toBe(2);
    const patched = await t
      .http()
      .patch(`${E}${id}/`)
      .set('Authorization', auth(admin))
      .send({ mail_subject: 'again' });
    expect(patched.status).toBe(200);
    expect((patched.body as { error_counter: number }).error_counter).toBe(0);
  });

  it('an export holds only what the owner may read at run time: a removed permission fails the run', async () => {
    const readers = await team(t.db, orgId, {
      allEvents: true,
      eventPermissions: ['event.orders:read'],
      organizerPermissions: [],
    });
    const carol = await userBearer(t, 'carol@example.com', [orgId], [readers]);
    const res = await t.http().post(E).set('Authorization', carol.bearer).send({
      export_identifier: 'orderlist',
      schedule_rrule: 'RRULE:FREQ=DAILY',
      schedule_rrule_time: '03:00:00',
    });
    expect(res.status).toBe(201);
    const id = (res.body as { id: number }).id;
    await t.db.query('DELETE FROM team_member WHERE user_id = $1', [carol.userId]);
    await makeDue(id);
    await startWorker(workerEnv());
    const taskId = await taskOf(id);
    await eventually(async () => (await row(id)).error_counter === 1, 20_000);
    const task = (
      await t.db.query<{ state: string; message: string; result_file_id: string | null }[]>(
        'SELECT state, message, result_file_id FROM async_task WHERE id = $1',
        [taskId],
      )
    )[0];
    expect(task).toEqual({ state: 'failed', message: EXPORT_FORBIDDEN, result_file_id: null });
    expect(smtp.received.filter((m) => m.to.includes('carol@example.com'))).toHaveLength(0);
  });

  it('a worker killed (SIGKILL) mid-run: the run is taken over or failed, never left running; the export is freed', async () => {
    // Hold the payments table (only exports read it, in every batch) so that the run blocks once it is running:
    // the kill is then mid-run whatever the machine's speed.
    const holder = t.db.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    let held = true;
    try {
      await holder.query('LOCK TABLE order_payment IN ACCESS EXCLUSIVE MODE');
      const id = await create({ export_identifier: 'orderlist', export_form_data: { _format: 'xlsx' } });
      await makeDue(id);
      const a = await startWorker(workerEnv());
      const taskId = await taskOf(id);
      const stateOf = async (): Promise<string | undefined> =>
        (await t.db.query<{ state: string }[]>('SELECT state FROM async_task WHERE id = $1', [taskId]))[0]
          ?.state;
      await eventually(async () => (await stateOf()) === 'running', 20_000);
      const tasks = t.app.get(TasksService);
      const owner = new Principal({ kind: 'user', userId: alice.userId }, []);
      const running = await tasks
        .poll(taskId, owner, { missing: 'not-found', failed: 'task' })
        .catch((e: unknown) => e);
      expect(running).toBeInstanceOf(TaskNotReady);
      expect(await stateOf()).toBe('running');
      a.kill('SIGKILL');
      await a.exited;
      await holder.commitTransaction();
      held = false;
      await startWorker(workerEnv());
      const end = await eventually(async () => {
        const state = await stateOf();
        return state === 'succeeded' || state === 'failed' ? state : null;
      }, 60_000);
      expect(['succeeded', 'failed']).toContain(end);
      const freed = await eventually(async () => {
        const r = await row(id);
        return r.running_task_id === null ? r : null;
      }, 20_000);
      expect(freed.error_counter).toBe(end === 'succeeded' ? 0 : 1);
    } finally {
      if (held) await holder.rollbackTransaction();
      await holder.release();
    }
  }, 120_000);
});
