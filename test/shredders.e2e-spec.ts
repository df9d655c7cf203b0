import { execFileSync } from 'child_process';
import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { AppConfig } from '../src/config/app-config';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

/** The entries of a ZIP file, read with the system's `unzip`. */
function unzipJson(zip: Buffer, name: string): unknown {
  const dir = mkdtempSync(join(tmpdir(), 'shred-'));
  const file = join(dir, 'export.zip');
  writeFileSync(file, zip);
  return JSON.parse(execFileSync('unzip', ['-p', file, name]).toString('utf8')) as unknown;
}

const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

/**
 * Shredders (spec "Shredders"; compat §3.8) with real worker processes: list and detail, the constraints, every
 * state of the download and status polls (waiting, running, failed, gone, done), another credential's ids, a failed
 * export, a failed shred, a worker killed mid-export, and the data afterwards.
 */
describe('shredders', () => {
  let t: TestApp;
  let token: string;
  let other: string;
  let readOnly: string;
  const O = '/api/v1/organizers/org/events';
  const E = `${O}/past`;
  const workerEnv = () => ({ ...workerEnvFor(t), JOB_LOCK_MS: '2000', SCHEDULER_INTERVAL_MS: '1000' });
  const get = (path: string, tok = token) =>
    t.http().get(path).set('Authorization', auth(tok)).buffer(true).parse(binary);
  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const json = (res: Response): unknown => JSON.parse((res.body as Buffer).toString('utf8')) as unknown;
  /** A URL from a 202 answer, made relative for supertest (the host is the test server's). */
  const rel = (url: string) => new URL(url).pathname;
  const taskState = async (id: string): Promise<string> =>
    (await t.db.query<{ state: string }[]>('SELECT state FROM async_task WHERE id = $1', [id]))[0].state;

  async function exportOf(shredders: string[], tok = token): Promise<{ download: string; shred: string }> {
    const res = await post(`${E}/shredders/export/`, { shredders }, tok);
    expect(res.status).toBe(202);
    return { download: rel(res.body.download as string), shred: rel(res.body.shred as string) };
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    other = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:write'] });
    readOnly = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    await createEvent(t, token, 'org', { slug: 'future' });
    await createEvent(t, token, 'org', { slug: 'past', date_from: '2020-01-01T10:00:00Z' });
    const item = await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' });
    await post(`${E}/quotas/`, { name: 'Q', size: 100, items: [item.body.id] });
    const question = await post(`${E}/questions/`, {
      question: 'Diet?',
      type: 'S',
      items: [item.body.id],
    });
    for (const who of ['ann', 'bob']) {
      const res = await post(`${E}/orders/`, {
        email: `${who}@example.org`,
        status: 'p',
        invoice_address: {
          name_parts: { full_name: `${who} Buyer` },
          street: 'Main 1',
          city: 'Berlin',
          country: 'DE',
        },
        positions: [
          {
            item: item.body.id,
            attendee_name: `${who} Attendee`,
            attendee_email: `${who}.attendee@example.org`,
            answers: [{ question: question.body.id, answer: 'Vegan' }],
          },
        ],
      });
      expect(res.status).toBe(201);
      expect((await post(`${E}/orders/${res.body.code}/create_invoice/`)).status).toBe(201);
    }
    const [pos] = await t.db.query<{ id: number; event_id: number }[]>(
      'SELECT id, event_id FROM order_position ORDER BY id LIMIT 1',
    );
    await t.db.query(
      `INSERT INTO checkin (position_id, event_id, type, datetime, successful, raw_barcode)
       VALUES ($1, $2, 'entry', now(), true, 'SCANNED')`,
      [pos.id, pos.event_id],
    );
  });
  afterEach(() => stopAllWorkers());
  afterAll(async () => {
    await t.close();
    await deleteQueueKeys(t.app.get(AppConfig).queuePrefix);
  });

  it('lists the shredders sorted by verbose_name, shows one, 404 for an unknown one; needs event.orders:write', async () => {
    const list = await t.http().get(`${E}/shredders/`).set('Authorization', auth(token));
    expect(list.status).toBe(200);
    const ids = (list.body.results as { identifier: string }[]).map((r) => r.identifier);
    expect(ids).toEqual(
      expect.arrayContaining([
        'order_emails',
        'invoice_addresses',
        'attendee_info',
        'question_answers',
        'invoices',
        'checkins',
      ]),
    );
    const names = (list.body.results as { verbose_name: string }[]).map((r) => r.verbose_name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(list.body).toMatchObject({ count: ids.length, next: null, previous: null });
    const one = await t.http().get(`${E}/shredders/invoices/`).set('Authorization', auth(token));
    expect(one.body).toEqual({ identifier: 'invoices', verbose_name: 'Invoices' });
    expect((await t.http().get(`${E}/shredders/nope/`).set('Authorization', auth(token))).status).toBe(404);
    expect((await t.http().get(`${E}/shredders/`).set('Authorization', auth(readOnly))).status).toBe(403);
  });

  it('refuses an export while the event is not over, while it is live, or for unknown identifiers', async () => {
    const notOver = await post(`${O}/future/shredders/export/`, { shredders: ['order_emails'] });
    expect(notOver.status).toBe(400);
    expect(notOver.body).toEqual(['Your event needs to be over to use this feature.']);
    await t.db.query(`UPDATE event SET live = true WHERE slug = 'past'`);
    const live = await post(`${E}/shredders/export/`, { shredders: ['order_emails'] });
    await t.db.query(`UPDATE event SET live = false WHERE slug = 'past'`);
    expect(live.status).toBe(400);
    expect(live.body).toEqual(['Your ticket shop needs to be offline to use this feature.']);
    const unknown = await post(`${E}/shredders/export/`, { shredders: ['order_emails', 'x'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ shredders: ['"x" is not a valid choice.'] });
    const empty = await post(`${E}/shredders/export/`, { shredders: [] });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ shredders: ['This list may not be empty.'] });
    const tasks = await t.db.query<unknown[]>(`SELECT id FROM async_task WHERE kind LIKE 'shredder.%'`);
    expect(tasks).toEqual([]);
  });

  it('a failed export: download and shred answer 410 with the message', async () => {
    const res = await post(`${E}/shredders/export/`, { shredders: ['order_emails'] });
    expect(res.status).toBe(202);
    expect(res.body.download).toMatch(
      /^http:\/\/[^/]+\/api\/v1\/organizers\/org\/events\/past\/shredders\/download\/[0-9a-f-]{36}\/[0-9a-f-]{36}\/$/,
    );
    const download = rel(res.body.download as string);
    const shred = rel(res.body.shred as string);
    // No worker yet: waiting.
    const waiting = await get(download);
    expect(waiting.status).toBe(409);
    expect(json(waiting)).toEqual({ status: 'waiting' });
    expect(waiting.headers['retry-after']).toBe('1');
    const shredWaiting = await post(shred);
    expect(shredWaiting.status).toBe(409);
    expect(shredWaiting.body).toEqual({ status: 'waiting' });
    // The task asks for a shredder that does not exist (as if removed after the export was started).
    const id = download.split('/')[9];
    await t.db.query(
      `UPDATE async_task SET input = jsonb_set(input, '{shredders}', '["gone"]') WHERE id = $1`,
      [id],
    );
    await startWorker(workerEnv());
    await eventually(async () => (await taskState(id)) === 'failed', 20000);
    const failed = await get(download);
    expect(failed.status).toBe(410);
    expect(json(failed)).toEqual({ status: 'failed', message: 'Unknown shredder gone.' });
    const shredFailed = await post(shred);
    expect(shredFailed.status).toBe(410);
    expect(shredFailed.body).toEqual({ status: 'failed', message: 'Unknown shredder gone.' });
  });

  it('a worker killed (SIGKILL) in the middle of an export: the task is retried or failed, never left running', async () => {
    // Hold the invoice table so that the export blocks while it runs.
    const holder = new DataSource({ type: 'postgres', url: workerEnvFor(t).DATABASE_URL });
    await holder.initialize();
    const runner = holder.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query('LOCK TABLE invoice IN ACCESS EXCLUSIVE MODE');
    try {
      const first = await startWorker(workerEnv());
      const { download } = await exportOf(['invoices']);
      const id = download.split('/')[9];
      await eventually(async () => (await taskState(id)) === 'running', 20000);
      const running = await get(download);
      expect(running.status).toBe(409);
      expect(json(running)).toEqual({ status: 'running' });
      first.kill('SIGKILL');
      await first.exited;
      await runner.commitTransaction();
      await startWorker(workerEnv());
      await eventually(async () => !['waiting', 'running'].includes(await taskState(id)), 30000);
      const after = await get(download);
      expect([200, 410]).toContain(after.status);
      if (after.status === 410) expect(json(after)).toMatchObject({ status: 'failed' });
    } finally {
      await runner.release();
      await holder.destroy();
    }
  });

  it('export, download, shred, status: the data is gone, invoices keep their numbers, the download is 404', async () => {
    await startWorker(workerEnv());
    const all = [
      'order_emails',
      'invoice_addresses',
      'attendee_info',
      'question_answers',
      'invoices',
      'checkins',
    ];
    const { download, shred } = await exportOf(all);
    const zip = await eventually(async () => {
      const res = await get(download);
      if (res.status === 409) return undefined;
      return res;
    }, 20000);
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const emails = unzipJson(zip.body as Buffer, 'order_emails.json') as Record<string, { email: string }>;
    expect(
      Object.values(emails)
        .map((e) => e.email)
        .sort(),
    ).toEqual(['ann@example.org', 'bob@example.org']);
    const invoices = unzipJson(zip.body as Buffer, 'invoices.json') as Record<
      string,
      { invoice_to_name: string }
    >;
    expect(
      Object.values(invoices)
        .map((i) => i.invoice_to_name)
        .sort(),
    ).toEqual(['ann Buyer', 'bob Buyer']);
    expect(Object.keys(unzipJson(zip.body as Buffer, 'question_answers.json') as object)).toHaveLength(2);

    // Another credential's ids, and a wrong file id, find nothing.
    expect((await get(download, other)).status).toBe(404);
    expect((await post(shred, {}, other)).status).toBe(404);
    expect(
      (await get(download.replace(/[0-9a-f-]{36}\/$/, '00000000-0000-4000-8000-000000000000/'))).status,
    ).toBe(404);

    const numbersBefore = await t.db.query<{ number: string }[]>(
      'SELECT number FROM invoice ORDER BY number',
    );
    // A cached ticket PDF of the event (it shows the attendee): dropped with the attendee info.
    const ticketFile = '7d1f3c2a-5b4e-4c6d-8e9f-0a1b2c3d4e5f';
    await t.db.query(
      `INSERT INTO stored_file (id, kind, filename, content_type, content, size)
       VALUES ($1, 'ticket_pdf', 'T.pdf', 'application/pdf', '\\x25504446'::bytea, 4)`,
      [ticketFile],
    );
    await t.db.query(
      `INSERT INTO ticket_file (event_id, scope, target_id, output, content_key, file_id)
       SELECT e.id, 'order', o.id, 'pdf', 'k', $1 FROM event e JOIN orders o ON o.event_id = e.id
        WHERE e.slug = 'past' LIMIT 1 RETURNING id`,
      [ticketFile],
    );
    expect(await t.db.query(`SELECT count(*)::int AS n FROM ticket_file`)).toEqual([{ n: 1 }]);
    const started = await post(shred);
    expect(started.status).toBe(202);
    const status = rel(started.body.status as string);
    expect((await get(status, other)).status).toBe(410);
    const done = await eventually(async () => {
      const res = await get(status);
      if (res.status === 409) {
        expect(['waiting', 'running']).toContain((json(res) as { status: string }).status);
        return undefined;
      }
      return res;
    }, 20000);
    expect(done.status).toBe(200);
    expect(json(done)).toEqual({ status: 'ok', message: 'OK' });

    expect(
      await t.db.query(`SELECT email, phone FROM orders WHERE email IS NOT NULL OR phone IS NOT NULL`),
    ).toEqual([]);
    expect(await t.db.query(`SELECT id FROM invoice_address`)).toEqual([]);
    expect(await t.db.query(`SELECT id FROM question_answer`)).toEqual([]);
    expect(
      await t.db.query(
        `SELECT id FROM order_position WHERE attendee_name_parts <> '{}'::jsonb OR attendee_email IS NOT NULL`,
      ),
    ).toEqual([]);
    expect(await t.db.query(`SELECT id FROM checkin WHERE raw_barcode IS NOT NULL`)).toEqual([]);
    expect(await t.db.query(`SELECT id FROM ticket_file`)).toEqual([]);
    expect(await t.db.query(`SELECT id FROM stored_file WHERE id = $1`, [ticketFile])).toEqual([]);
    const invoicesAfter = await t.db.query<{ number: string; name: string; pdf: string | null }[]>(
      `SELECT number, texts->>'invoice_to_name' AS name, pdf_file_id AS pdf FROM invoice ORDER BY number`,
    );
    expect(invoicesAfter).toEqual(numbersBefore.map((n) => ({ number: n.number, name: '█', pdf: null })));
    const detail = await t
      .http()
      .get(`${E}/invoices/${numbersBefore[0].number}/`)
      .set('Authorization', auth(token));
    expect(detail.body).toMatchObject({ number: numbersBefore[0].number, invoice_to_name: '█' });

    expect((await get(download)).status).toBe(404);
    expect((await post(shred)).status).toBe(404);
    // A status older than an hour is gone.
    const statusId = status.split('/')[9];
    await t.db.query(`UPDATE async_task SET expires = now() - interval '1 second' WHERE id = $1`, [statusId]);
    const gone = await get(status);
    expect(gone.status).toBe(410);
    expect(json(gone)).toEqual({ status: 'gone', message: 'May have succeeded or timed out.' });
  });

  it('two shreds of one export: one succeeds, the other fails with 417 (or 404 once the first is done)', async () => {
    await startWorker(workerEnv());
    const { download, shred } = await exportOf(['order_emails']);
    await eventually(async () => (await get(download)).status === 200, 20000);
    const [a, b] = await Promise.all([post(shred), post(shred)]);
    // Both start while the export exists; on a loaded machine the first shred may finish (and delete the export)
    // before the second request looks it up, which then answers 404 like any shredded export.
    const started = [a, b].filter((r) => r.status === 202);
    expect([a.status, b.status].sort()).toEqual(started.length === 2 ? [202, 202] : [202, 404]);
    const answers = await Promise.all(
      started.map((r) =>
        eventually(async () => {
          const res = await get(rel(r.body.status as string));
          return res.status === 409 ? undefined : res;
        }, 20000),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual(started.length === 2 ? [200, 417] : [200]);
    const failed = answers.find((r) => r.status === 417);
    if (failed)
      expect(json(failed)).toEqual({ status: 'failed', message: 'The export file does not exist any more.' });
    expect((await post(shred)).status).toBe(404);
  });
});
