import ExcelJS from 'exceljs';
import type { Response } from 'supertest';
import { AppConfig } from '../src/config/app-config';
import { seedOrders, userBearer } from './export-fixtures';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { startSmtpServer, TestSmtpServer } from './smtp-helpers';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

const O = '/api/v1/organizers/org/exporters/';
const E = '/api/v1/organizers/org/events/sample/exporters/';
const FORMAT = { name: '_format', required: true, choices: ['xlsx', 'csv', 'json'] };
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Collects a binary answer's bytes (supertest leaves non-text bodies unparsed otherwise). */
const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

/**
 * Data exporters (compat "Data exporters"; pretix `test_exporters.py`): the exporters offered at an event and an
 * organizer with their input parameters, runs through a real worker (202, 409 while waiting, the file, 410 when
 * the run failed), the download bound to the credential, and the same file as the scheduled export of the same
 * form data.
 */
describe('exporters', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: string;
  let orgId: number;
  let alice: { userId: number; bearer: string };
  const tasks = async () =>
    Number(
      (
        await t.db.query<{ n: string }[]>(`SELECT count(*) AS n FROM async_task WHERE kind = 'exports.run'`)
      )[0].n,
    );
  /** The path of an absolute download URL, checked to point at this exporter. */
  const pathOf = (download: string, base: string, identifier: string): string => {
    const url = new URL(download);
    expect(url.pathname).toMatch(
      new RegExp(`^${base}${identifier}/download/[0-9a-f-]{36}/[0-9a-f-]{36}/$`.replace(/\//g, '\\/')),
    );
    return url.pathname;
  };
  const download = (path: string, credential: string) =>
    t.http().get(path).set('Authorization', credential).buffer(true).parse(binary);

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ mailUrl: smtp.url });
    const b = await bootstrapOrganizer(t, 'org');
    admin = b.token;
    orgId = b.organizerId;
    await createEvent(t, admin, 'org', { slug: 'sample', timezone: 'Europe/Berlin' });
    await createEvent(t, admin, 'org', { slug: 'other', timezone: 'Europe/Berlin' });
    const eventId = (await t.db.query<{ id: number }[]>(`SELECT id FROM event WHERE slug = 'sample'`))[0].id;
    const item = await t
      .http()
      .post(`/api/v1/organizers/org/events/sample/items/`)
      .set('Authorization', auth(admin))
      .send({ name: { en: 'Conference ticket' }, default_price: '10.00' });
    expect(item.status).toBe(201);
    await seedOrders(t.db, {
      organizerId: orgId,
      eventId,
      itemId: (item.body as { id: number }).id,
      orders: 30,
      positionsPerOrder: 2,
    });
    alice = await userBearer(t, 'alice@example.com', [orgId], [b.teamId]);
  });
  afterAll(async () => {
    await stopAllWorkers();
    await t.close();
    await smtp.close();
    await deleteQueueKeys(t.app.get(AppConfig).queuePrefix);
  });

  it('lists the exporters of an event and of the organizer with their input parameters; detail; unknown 404', async () => {
    const ev = await t.http().get(E).set('Authorization', auth(admin));
    expect(ev.status).toBe(200);
    const body = ev.body as { count: number; next: null; previous: null; results: { identifier: string }[] };
    expect(body).toMatchObject({ count: 4, next: null, previous: null });
    // Sorted by verbose_name, as pretix.
    expect(body.results.map((r) => r.identifier)).toEqual([
      'checkinlist',
      'orderlist',
      'quotas',
      'voucherlist',
    ]);
    const orderlist = {
      identifier: 'orderlist',
      verbose_name: 'Order data',
      input_parameters: [
        FORMAT,
        { name: 'paid_only', required: false },
        { name: 'include_payment_amounts', required: false },
        { name: 'group_multiple_choice', required: false },
        { name: 'date_range', required: false },
        { name: 'items', required: false },
      ],
    };
    expect(body.results).toContainEqual(orderlist);
    expect(body.results).toContainEqual({
      identifier: 'checkinlist',
      verbose_name: 'Check-in list',
      input_parameters: [FORMAT, { name: 'list', required: true }, { name: 'paid_only', required: false }],
    });
    const detail = await t.http().get(`${E}orderlist/`).set('Authorization', auth(admin));
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual(orderlist);

    const org = await t.http().get(O).set('Authorization', auth(admin));
    expect(org.status).toBe(200);
    expect(org.body).toEqual({
      count: 2,
      next: null,
      previous: null,
      results: [
        {
          identifier: 'giftcardlist',
          verbose_name: 'Gift cards',
          input_parameters: [FORMAT, { name: 'testmode', required: false }],
        },
        {
          identifier: 'orderlist',
          verbose_name: 'Order data',
          input_parameters: [
            { name: 'all_events', required: false },
            { name: 'events', required: false },
            FORMAT,
            { name: 'paid_only', required: false },
            { name: 'include_payment_amounts', required: false },
            { name: 'group_multiple_choice', required: false },
            { name: 'date_range', required: false },
            { name: 'event_date_range', required: false },
            { name: 'items', required: false },
          ],
        },
      ],
    });
    expect((await t.http().get(`${O}orderlist/`).set('Authorization', auth(admin))).body).toEqual(
      (org.body as { results: unknown[] }).results[1],
    );
    expect((await t.http().get(`${E}giftcardlist/`).set('Authorization', auth(admin))).status).toBe(404);
    expect((await t.http().get(`${O}nope/`).set('Authorization', auth(admin))).status).toBe(404);
  });

  it('offers each exporter by its own permission: others are absent, 404 on detail and run; no event access 403', async () => {
    const vouchersOnly = await teamToken(t, 'org', {
      limitEvents: ['sample'],
      eventPermissions: ['event.vouchers:read'],
    });
    const ev = await t.http().get(E).set('Authorization', auth(vouchersOnly));
    expect(ev.status).toBe(200);
    expect((ev.body as { results: { identifier: string }[] }).results.map((r) => r.identifier)).toEqual([
      'quotas',
      'voucherlist',
    ]);
    expect((await t.http().get(`${E}orderlist/`).set('Authorization', auth(vouchersOnly))).status).toBe(404);
    const before = await tasks();
    const run = await t
      .http()
      .post(`${E}orderlist/run/`)
      .set('Authorization', auth(vouchersOnly))
      .send({ _format: 'xlsx' });
    expect(run.status).toBe(404);
    // Organizer level: neither orders nor gift cards (pretix test_org_level_export: 404).
    const org = await t.http().get(O).set('Authorization', auth(vouchersOnly));
    expect((org.body as { count: number }).count).toBe(0);
    const cards = await t
      .http()
      .post(`${O}giftcardlist/run/`)
      .set('Authorization', auth(vouchersOnly))
      .send({ _format: 'xlsx' });
    expect(cards.status).toBe(404);
    expect(await tasks()).toBe(before);
    // A credential that does not reach the event at all.
    const otherOnly = await teamToken(t, 'org', { limitEvents: ['other'], allEventPermissions: true });
    expect((await t.http().get(E).set('Authorization', auth(otherOnly))).status).toBe(403);
    expect(
      (await t.http().post(`${E}quotas/run/`).set('Authorization', auth(otherOnly)).send({ _format: 'csv' }))
        .status,
    ).toBe(403);
  });

  it.each([
    [{}, { _format: ['This field is required.'] }],
    [{ _format: 'FOOBAR' }, { _format: ['"FOOBAR" is not a valid choice.'] }],
    [{ _format: 'xlsx', foobar: 'invalid' }, { fields: ["Additional fields not allowed: ['foobar']."] }],
    [{ _format: 'xlsx', date_range: 'invalid' }, { date_range: ['Invalid date frame'] }],
    [{ _format: 'xlsx', paid_only: 'yes' }, { paid_only: ['Must be a valid boolean.'] }],
    [[{ _format: 'xlsx' }], { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] }],
  ])('event run %j answers 400 %j and starts nothing', async (body, errors) => {
    const before = await tasks();
    const res = await t.http().post(`${E}orderlist/run/`).set('Authorization', auth(admin)).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errors);
    expect(await tasks()).toBe(before);
  });

  it('organizer run: events must be events the credential may export (pretix test_org_validate_events)', async () => {
    const before = await tasks();
    const bad = await t
      .http()
      .post(`${O}orderlist/run/`)
      .set('Authorization', auth(admin))
      .send({ _format: 'xlsx', events: ['nonexisting'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ events: ['Object with slug=nonexisting does not exist.'] });
    const sampleOnly = await teamToken(t, 'org', {
      limitEvents: ['sample'],
      eventPermissions: ['event.orders:read'],
    });
    const hidden = await t
      .http()
      .post(`${O}orderlist/run/`)
      .set('Authorization', auth(sampleOnly))
      .send({ _format: 'xlsx', events: ['other'] });
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual({ events: ['Object with slug=other does not exist.'] });
    expect(await tasks()).toBe(before);
    const ok = await t
      .http()
      .post(`${O}orderlist/run/`)
      .set('Authorization', auth(sampleOnly))
      .send({ _format: 'json', events: ['sample'], date_range: 'year_this' });
    expect(ok.status).toBe(202);
    expect(await tasks()).toBe(before + 1);
  });

  it('run: 202 with the download URL; 409 while waiting; the file once a worker ran it; other credentials 404', async () => {
    const res = await t
      .http()
      .post(`${E}orderlist/run/`)
      .set('Authorization', auth(admin))
      .send({ _format: 'xlsx', date_from: '2020-01-01', date_to: '2099-12-31', paid_only: true });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body as object)).toEqual(['download']);
    const path = pathOf((res.body as { download: string }).download, E, 'orderlist');
    const waiting = await t.http().get(path).set('Authorization', auth(admin));
    expect(waiting.status).toBe(409);
    expect(waiting.body).toEqual({ status: 'waiting', percentage: null });
    expect(waiting.headers['retry-after']).toBe('1');
    expect(waiting.headers['cache-control']).toContain('no-store');
    const task = (
      await t.db.query<{ input: Record<string, unknown>; credential_kind: string }[]>(
        `SELECT input, credential_kind FROM async_task WHERE id = $1`,
        [path.split('/')[10]],
      )
    )[0];
    expect(task.credential_kind).toBe('team_token');
    expect(task.input).toMatchObject({
      identifier: 'orderlist',
      form: { _format: 'xlsx', paid_only: true, date_range: '2020-01-01/2099-12-31' },
    });

    // One worker for the rest of the file; its scheduler ticks every half second (the scheduled export below).
    await startWorker({ ...workerEnvFor(t), SCHEDULER_INTERVAL_MS: '500', SCHEDULER_WATCH_MS: '500' });
    const done = await eventually(async () => {
      const r = await download(path, auth(admin));
      return r.status === 409 ? null : r;
    }, 30_000);
    expect(done.status).toBe(200);
    expect(done.headers['content-type']).toBe(XLSX);
    expect(done.headers['content-disposition']).toBe('attachment; filename="sample_orderlist.xlsx"');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(done.body);
    // 30 orders, every third pending: 20 paid orders of 2 positions.
    expect(book.worksheets[0].rowCount).toBe(1 + 40);

    const otherToken = await teamToken(t, 'org', { allEvents: true, allEventPermissions: true });
    expect((await t.http().get(path).set('Authorization', auth(otherToken))).status).toBe(404);
    expect((await t.http().get(path).set('Authorization', alice.bearer)).status).toBe(404);
    // The same ids under another exporter or event name nothing.
    expect(
      (await t.http().get(path.replace('/orderlist/', '/quotas/')).set('Authorization', auth(admin))).status,
    ).toBe(404);
    expect(
      (await t.http().get(path.replace('/sample/', '/other/')).set('Authorization', auth(admin))).status,
    ).toBe(404);
    const unknown = `${E}orderlist/download/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/${'1'.repeat(8)}-1111-4111-8111-${'1'.repeat(12)}/`;
    expect((await t.http().get(unknown).set('Authorization', auth(admin))).status).toBe(404);
    // Starting the worker may build dist/ first (ensureBuilt) on a machine without a fresh build.
  }, 240_000);

  it('a run started by a device runs with the device grant (its events, the device permissions)', async () => {
    const created = await t
      .http()
      .post('/api/v1/organizers/org/devices/')
      .set('Authorization', auth(admin))
      .send({ name: 'Box office', limit_events: ['sample'] });
    const init = await t
      .http()
      .post('/api/v1/device/initialize')
      .send({
        token: (created.body as { initialization_token: string }).initialization_token,
        hardware_brand: 'Zebra',
        hardware_model: 'TC25',
        software_brand: 'pretixSCAN',
        software_version: '1.5.1',
      });
    const device = `Device ${(init.body as { api_token: string }).api_token}`;
    const res = await t
      .http()
      .post(`${E}orderlist/run/`)
      .set('Authorization', device)
      .send({ _format: 'xlsx', date_from: '2020-01-01', date_to: '2099-12-31', paid_only: true });
    expect(res.status).toBe(202);
    const path = pathOf((res.body as { download: string }).download, E, 'orderlist');
    const kind = await t.db.query<{ credential_kind: string }[]>(
      `SELECT credential_kind FROM async_task WHERE id = $1`,
      [path.split('/')[10]],
    );
    expect(kind[0].credential_kind).toBe('device');
    const done = await eventually(async () => {
      const r = await download(path, device);
      return r.status === 409 ? null : r;
    }, 30_000);
    expect(done.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(done.body);
    expect(book.worksheets[0].rowCount).toBe(1 + 40);
    // Another event is outside the device's limit_events.
    const outside = await t
      .http()
      .post(`/api/v1/organizers/org/events/other/exporters/orderlist/run/`)
      .set('Authorization', device)
      .send({ _format: 'xlsx' });
    expect(outside.status).toBe(403);
  }, 120_000);

  it('a failed run answers 410 with the message', async () => {
    const res = await t
      .http()
      .post(`${E}checkinlist/run/`)
      .set('Authorization', auth(admin))
      .send({ _format: 'csv', list: 999999 });
    expect(res.status).toBe(202);
    const path = pathOf((res.body as { download: string }).download, E, 'checkinlist');
    const failed = await eventually(async () => {
      const r = await t.http().get(path).set('Authorization', auth(admin));
      return r.status === 409 ? null : r;
    }, 30_000);
    expect(failed.status).toBe(410);
    expect(failed.body).toMatchObject({ status: 'failed' });
    expect(typeof (failed.body as { message: string }).message).toBe('string');
  });

  it('runs by the exporter permission of the credential at run time (a gift card list, organizer level)', async () => {
    await t
      .http()
      .post('/api/v1/organizers/org/giftcards/')
      .set('Authorization', auth(admin))
      .send({ secret: 'GIFT-1', currency: 'EUR', value: '25.00' })
      .expect(201);
    const res = await t
      .http()
      .post(`${O}giftcardlist/run/`)
      .set('Authorization', alice.bearer)
      .send({ _format: 'json' });
    expect(res.status).toBe(202);
    const path = pathOf((res.body as { download: string }).download, O, 'giftcardlist');
    const done = await eventually(async () => {
      const r = await download(path, alice.bearer);
      return r.status === 409 ? null : r;
    }, 30_000);
    expect(done.status).toBe(200);
    expect(done.headers['content-type']).toBe('application/json');
    expect(done.headers['content-disposition']).toBe('attachment; filename="organizer_giftcardlist.json"');
    expect((done.body as Buffer).toString('utf8')).toContain('GIFT-1');
  });

  it('gives byte for byte the file of the scheduled export of the same form data', async () => {
    const form = { _format: 'csv', paid_only: true, include_payment_amounts: true, date_range: 'days_last7' };
    const created = await t
      .http()
      .post('/api/v1/organizers/org/events/sample/scheduled_exports/')
      .set('Authorization', alice.bearer)
      .send({
        export_identifier: 'orderlist',
        export_form_data: form,
        schedule_rrule: 'DTSTART:20260101T000000\nRRULE:FREQ=DAILY',
        schedule_rrule_time: '03:00:00',
      });
    expect(created.status).toBe(201);
    const id = (created.body as { id: number }).id;
    const stored = (created.body as { export_form_data: Record<string, unknown> }).export_form_data;
    await t.db.query(
      `UPDATE scheduled_export SET schedule_next_run = now() - interval '1 second' WHERE id = $1`,
      [id],
    );
    // The worker started above runs the scheduler every half second.
    const scheduled = await eventually(async () => {
      const r = await t.db.query<{ content: Buffer; filename: string; content_type: string }[]>(
        `SELECT f.content, f.filename, f.content_type FROM async_task a JOIN stored_file f ON f.id = a.result_file_id
          WHERE a.kind = 'exports.run' AND a.input->>'scheduled_export_id' = $1`,
        [String(id)],
      );
      return r[0];
    }, 30_000);

    const res = await t.http().post(`${E}orderlist/run/`).set('Authorization', alice.bearer).send(stored);
    expect(res.status).toBe(202);
    const path = pathOf((res.body as { download: string }).download, E, 'orderlist');
    const done = await eventually(async () => {
      const r = await download(path, alice.bearer);
      return r.status === 409 ? null : r;
    }, 30_000);
    expect(done.status).toBe(200);
    expect(done.headers['content-type']).toBe(scheduled.content_type);
    expect(done.headers['content-disposition']).toBe(`attachment; filename="${scheduled.filename}"`);
    const bytes = done.body as Buffer;
    expect(bytes.length).toBeGreaterThan(100);
    expect(bytes.equals(scheduled.content)).toBe(true);
    // 20 paid orders of 2 positions, placed an hour ago: inside the last 7 days.
    expect(bytes.toString('utf8').trim().split('\n')).toHaveLength(1 + 40);
  });
});
