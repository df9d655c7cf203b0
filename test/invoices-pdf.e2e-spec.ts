import { execFileSync } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Client } from 'pg';
import { AppConfig } from '../src/config/app-config';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

/**
 * Invoice PDFs end to end (compat §3.24 `download`; README "Invoices"): a real worker process renders them on the
 * `invoices` queue with pdfkit and stores them in PostgreSQL; the API answers 409 with `Retry-After` until then.
 * The text and the page count are read back with `pdfjs-dist` (test/pdf-reader.mjs, no system binaries).
 * Also: a worker killed (SIGKILL) mid-render leaves the download at 409 until a restarted worker finishes; a
 * failing render is retried, and one that failed for good is asked for again by the next download.
 */
describe('invoice PDFs', () => {
  let t: TestApp;
  let token: string;
  let prefix: string;
  let item: number;
  let dir: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/pdf`;

  const post = (path: string, body: object = {}) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  const workerEnv = (extra: Record<string, string> = {}) => ({
    ...workerEnvFor(t),
    JOB_LOCK_MS: '2000',
    INVOICE_PDF_RETRY_DELAY_MS: '200',
    ...extra,
  });

  /** GET download as a Buffer. */
  const download = (number: string) =>
    get(`${E}/invoices/${number}/download/`)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });

  async function waitForPdf(number: string, timeoutMs = 20_000): Promise<Buffer> {
    return eventually(
      async () => {
        const res = await download(number);
        if (res.status === 200) return res.body as Buffer;
        expect(res.status).toBe(409);
        return null;
      },
      timeoutMs,
      200,
    );
  }

  /** The PDF's pages as test/pdf-reader.mjs reads them (pdfjs-dist; no system binaries). */
  function pdfRead(pdf: Buffer): { lines: string }[] {
    const file = join(dir, `f${Math.random().toString(36).slice(2)}.pdf`);
    writeFileSync(file, pdf);
    const out = execFileSync('node', [join(__dirname, 'pdf-reader.mjs'), file], { encoding: 'utf8' });
    return (JSON.parse(out) as { pages: { lines: string }[] }).pages;
  }

  /** The text of every page, lines ending in `\n`, pages separated by a form feed (as `pdftotext` prints them). */
  function pdfText(pdf: Buffer): string {
    return pdfRead(pdf)
      .map((p) => p.lines)
      .join('\f');
  }

  function pdfPages(pdf: Buffer): number {
    return pdfRead(pdf).length;
  }

  async function invoiceFor(
    positions: number,
    attendee = (i: number) => `Guest Number ${i + 1}`,
  ): Promise<string> {
    const placed = await post(`${E}/orders/`, {
      status: 'p',
      invoice_address: {
        company: 'Recipient GmbH',
        name: 'Rita Recipient',
        street: 'Elbe 7',
        zipcode: '01067',
        city: 'Dresden',
        country: 'DE',
      },
      positions: Array.from({ length: positions }, (_, i) => ({ item, attendee_name: attendee(i) })),
      fees: [{ fee_type: 'payment', value: '1.19', tax_rule: null }],
    });
    if (placed.status !== 201) throw new Error(`order: ${placed.status} ${JSON.stringify(placed.body)}`);
    const inv = await post(`${E}/orders/${placed.body.code as string}/create_invoice/`);
    if (inv.status !== 201) throw new Error(`invoice: ${inv.status} ${JSON.stringify(inv.body)}`);
    return inv.body.number as string;
  }

  /** A second connection that can hold locks while the worker waits on them. */
  async function holder(): Promise<Client> {
    const c = new Client({ connectionString: workerEnvFor(t).DATABASE_URL });
    await c.connect();
    return c;
  }

  const waitingOnStoredFile = async () => {
    const rows: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%stored_file%'`,
    );
    return rows[0].n > 0;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'invoice-pdf-'));
    t = await startTestApp();
    prefix = t.app.get(AppConfig).queuePrefix;
    token = (await bootstrapOrganizer(t, 'org')).token;
    await createEvent(t, token, 'org', { slug: 'pdf', name: { en: 'PDF Summit' } });
    const rule = (await post(`${E}/taxrules/`, { name: { en: 'VAT' }, rate: '19.00' })).body.id as number;
    item = (
      await post(`${E}/items/`, { name: { en: 'Summit Pass' }, default_price: '59.50', tax_rule: rule })
    ).body.id as number;
    await post(`${E}/quotas/`, { name: 'All', size: null, items: [item] });
    const s = await t.http().patch(`${E}/settings/`).set('Authorization', auth(token)).send({
      invoice_address_from_name: 'Summit Organisers Ltd',
      invoice_address_from: 'Park Lane 3',
      invoice_address_from_zipcode: 'W1K 1AA',
      invoice_address_from_city: 'London',
      invoice_address_from_country: 'GB',
      invoice_introductory_text: 'Thank you for your order.',
      invoice_footer_text: 'Summit Organisers Ltd, registered in London',
      invoice_numbers_prefix: 'SUM-',
    });
    expect(s.status).toBe(200);
  });

  afterEach(() => stopAllWorkers());

  afterAll(async () => {
    await t?.close();
    await deleteQueueKeys(prefix);
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders the invoice in the worker: number, sender, recipient, every line, tax summary, total, page numbers', async () => {
    const number = await invoiceFor(3);
    const before = await download(number);
    expect(before.status).toBe(409);
    expect(before.headers['retry-after']).toBe('2');
    await startWorker(workerEnv());
    const pdf = await waitForPdf(number);
    const res = await download(number);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${number}.pdf"`);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const expected of [
      `Invoice number: ${number}`,
      'Summit Organisers Ltd',
      'Park Lane 3',
      'W1K 1AA London',
      'United Kingdom',
      'Recipient GmbH',
      'Rita Recipient',
      '01067 Dresden',
      'Germany',
      'Thank you for your order.',
      'Guest Number 1',
      'Guest Number 2',
      'Guest Number 3',
      'Payment fee',
      'Total: EUR 179.69',
      'The payment for this invoice has already been received.',
      'Summit Organisers Ltd, registered in London',
      'Page 1 of 1',
    ])
      expect(text).toContain(expected);
    const order = (await get(`${E}/invoices/${number}/`)).body.order as string;
    expect(text).toContain(`Order code: ${order}`);
    expect(text.match(/Summit Pass/g)).toHaveLength(3);
    expect(text).toMatch(/19\.00 %\s+9\.50\s+EUR 59\.50/);
    // Tax summary: 19 % on 3 × 59.50 (net 150.00, tax 28.50) and 0 % on the fee.
    expect(text).toMatch(/0\.00 %\s+EUR 1\.19\s+EUR 0\.00\s+EUR 1\.19/);
    expect(text).toMatch(/19\.00 % VAT\s+EUR 150\.00\s+EUR 28\.50\s+EUR 178\.50/);
    const stored: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM stored_file WHERE kind = 'invoice_pdf' AND filename = $1`,
      [`${number}.pdf`],
    );
    expect(stored[0].n).toBe(1);
  });

  it('a 60-position invoice spans pages with the table header on each, every line readable, "Page i of n" on all', async () => {
    await startWorker(workerEnv());
    const number = await invoiceFor(60);
    const pdf = await waitForPdf(number);
    const pages = pdfPages(pdf);
    expect(pages).toBeGreaterThanOrEqual(3);
    const text = pdfText(pdf);
    for (let i = 1; i <= 60; i++) expect(text).toContain(`Guest Number ${i}\n`);
    for (let p = 1; p <= pages; p++) expect(text).toContain(`Page ${p} of ${pages}`);
    // The table header heads every page that has lines.
    for (const page of text.split('\f').filter((pg) => pg.includes('Guest Number')))
      expect(page).toMatch(/Description\s+Tax rate\s+Tax\s+Amount/);
    expect(text).toContain('Total: EUR 3571.19');
    // Every row is whole on one page: a page break never separates a line from its attendee.
    const pagesText = text.split('\f');
    for (let i = 1; i <= 60; i++) {
      const page = pagesText.find((pg) => pg.includes(`Guest Number ${i}\n`))!;
      // pdf.js gives a row's cells in drawing order: the number first, the description anywhere on that line.
      expect(page).toMatch(new RegExp(`\\n\\s*${i}\\s[^\\n]*Summit Pass`));
    }
  });

  it('regenerate renders a new PDF with the refreshed data (same number)', async () => {
    await startWorker(workerEnv());
    const number = await invoiceFor(1);
    await waitForPdf(number);
    const order = (await get(`${E}/invoices/${number}/`)).body.order as string;
    await t
      .http()
      .patch(`${E}/orders/${order}/`)
      .set('Authorization', auth(token))
      .send({ invoice_address: { name: 'Renamed Recipient', city: 'Leipzig', country: 'DE' } })
      .expect(200);
    expect((await post(`${E}/invoices/${number}/regenerate/`)).status).toBe(204);
    const pdf = await waitForPdf(number);
    const text = pdfText(pdf);
    expect(text).toContain('Renamed Recipient');
    expect(text).not.toContain('Rita Recipient');
    const files: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM stored_file WHERE filename = $1`,
      [`${number}.pdf`],
    );
    expect(files[0].n).toBe(1);
  });

  it('a worker killed (SIGKILL) while rendering: 409 until a restarted worker finishes it', async () => {
    const number = await invoiceFor(2);
    // Hold the file table so the render blocks at its write, then kill the worker there.
    const lock = await holder();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE stored_file IN EXCLUSIVE MODE');
    const first = await startWorker(workerEnv());
    await eventually(waitingOnStoredFile, 20_000);
    first.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    await lock.query('ROLLBACK');
    await lock.end();
    const during = await download(number);
    expect(during.status).toBe(409);
    expect(during.headers['retry-after']).toBe('2');
    const stored: { pdf_file_id: string | null }[] = await t.db.query(
      'SELECT pdf_file_id FROM invoice WHERE number = $1',
      [number],
    );
    expect(stored[0].pdf_file_id).toBeNull();
    const second = await startWorker(workerEnv());
    const pdf = await waitForPdf(number, 30_000);
    expect(pdfText(pdf)).toContain(`Invoice number: ${number}`);
    expect(second.output()).toMatch(new RegExp(`invoice ${number}: PDF stored`));
  });

  it('a failing render is retried; one that failed for good is asked for again by the next download', async () => {
    // The first `left_over` inserts of invoice PDFs fail (a trigger in this test's database only; a sequence
    // counts the attempts, since the failing transactions roll back everything else).
    await t.db.query(`CREATE TABLE pdf_failures (left_over int NOT NULL)`);
    await t.db.query(`INSERT INTO pdf_failures VALUES (2)`);
    await t.db.query(`CREATE SEQUENCE pdf_attempts`);
    await t.db.query(`
      CREATE FUNCTION fail_pdf() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.kind = 'invoice_pdf' AND nextval('pdf_attempts') <= (SELECT left_over FROM pdf_failures) THEN
          RAISE EXCEPTION 'disk on fire';
        END IF;
        RETURN NEW;
      END $$`);
    await t.db.query(
      `CREATE TRIGGER fail_pdf BEFORE INSERT ON stored_file FOR EACH ROW EXECUTE FUNCTION fail_pdf()`,
    );

    const worker = await startWorker(workerEnv());
    const retried = await invoiceFor(1);
    const pdf = await waitForPdf(retried);
    expect(pdfText(pdf)).toContain(retried);
    expect(worker.output()).toMatch(
      new RegExp(`invoice ${retried}: render failed, retry in 200 ms: disk on fire`),
    );
    expect(worker.output()).toMatch(
      new RegExp(`invoice ${retried}: render failed, retry in 400 ms: disk on fire`),
    );

    // Every attempt fails (4 of them): the job is given up and the invoice has no PDF, but it is not stuck.
    await t.db.query(`UPDATE pdf_failures SET left_over = 1000000`);
    const failing = await invoiceFor(1);
    await worker.waitForLog(new RegExp(`invoice ${failing}: render failed for good`), 20_000);
    expect((await download(failing)).status).toBe(409);
    await t.db.query(`DROP TRIGGER fail_pdf ON stored_file`);
    const healed = await waitForPdf(failing);
    expect(pdfText(healed)).toContain(failing);
  });
});
