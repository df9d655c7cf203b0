import { execFileSync } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { AppConfig } from '../src/config/app-config';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { startSmtpServer, TestSmtpServer } from './smtp-helpers';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What test/pdf-reader.mjs reads of a PDF (pdfjs-dist text, jsqr-decoded QR images). */
interface ReadPdf {
  pages: { text: string; qr: string[] }[];
}

/**
 * Ticket downloads end to end (compat §4.4 `download`, `downloads`, `resend_link`; README "Ticket downloads"): a
 * real worker process renders the PDFs as `tickets.render` tasks; the API answers 409 with `Retry-After` until the
 * file is stored, then the PDF, cached until what the ticket shows changes. PDFs are read back with `pdfjs-dist`
 * and their QR images decoded with `jsqr` (test/pdf-reader.mjs, no system binaries). `resend_link` mails through
 * a real SMTP server.
 */
describe('ticket downloads', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let token: string;
  let reader: string;
  let outsider: string;
  let pass: number;
  let vip: number;
  let merch: number;
  let dir: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/tix`;

  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const binary = (path: string, tok = token) =>
    get(path, tok)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });

  /** Polls until the download answers 200 (only 409 before), and gives the response. */
  const waitFor = (path: string) =>
    eventually(
      async () => {
        const res = await binary(path);
        if (res.status === 200) return res;
        expect(res.status).toBe(409);
        return null;
      },
      30_000,
      200,
    );

  function readPdf(pdf: Buffer): ReadPdf {
    const file = join(dir, `t${Math.random().toString(36).slice(2)}.pdf`);
    writeFileSync(file, pdf);
    return JSON.parse(
      execFileSync('node', [join(__dirname, 'pdf-reader.mjs'), file], { encoding: 'utf8' }),
    ) as ReadPdf;
  }

  async function order(body: Body): Promise<Body> {
    const res = await post(`${E}/orders/`, { email: 'buyer@example.org', ...body });
    if (res.status !== 201) throw new Error(`order: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Body;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tickets-'));
    smtp = await startSmtpServer();
    // No API_URL: the download links are built from each request's own origin.
    t = await startTestApp({ mailUrl: smtp.url, apiUrl: '' });
    token = (await bootstrapOrganizer(t, 'org')).token;
    await createEvent(t, token, 'org', {
      slug: 'tix',
      name: { en: 'Ticket Summit' },
      date_from: '2031-05-01T17:00:00Z',
      location: { en: 'Harbour Hall' },
    });
    reader = await teamToken(t, 'org', { limitEvents: ['tix'], eventPermissions: ['event.orders:read'] });
    outsider = await teamToken(t, 'org', { limitEvents: ['tix'], eventPermissions: ['event.items:write'] });
    const item = (
      await post(`${E}/items/`, {
        name: { en: 'Summit Pass' },
        default_price: '50.00',
        admission: true,
        variations: [{ value: { en: 'VIP Lounge' } }],
      })
    ).body as Body;
    pass = item.id as number;
    vip = (item.variations as Body[])[0].id as number;
    merch = (
      await post(`${E}/items/`, {
        name: { en: 'Summit Mug' },
        default_price: '9.00',
        generate_tickets: false,
      })
    ).body.id as number;
    const q = await post(`${E}/quotas/`, {
      name: 'All',
      size: null,
      items: [pass, merch],
      variations: [vip],
    });
    expect(q.status).toBe(201);
    await startWorker({ ...workerEnvFor(t), MAIL_URL: smtp.url, JOB_LOCK_MS: '3000' });
  }, 120_000); // startWorker builds dist/ first when the sources are newer

  afterAll(async () => {
    await stopAllWorkers();
    await t?.close();
    await smtp?.close();
    if (t) await deleteQueueKeys(t.app.get(AppConfig).queuePrefix);
    rmSync(dir, { recursive: true, force: true });
  });

  describe('downloads field', () => {
    it('lists the PDF for a paid order and for positions whose product issues tickets, with absolute URLs', async () => {
      const o = await order({
        status: 'p',
        positions: [{ item: pass, variation: vip, attendee_name: 'Ada Lovelace' }, { item: merch }],
      });
      const code = o.code as string;
      const url = (path: string) => expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:\\d+${path}$`));
      const orderUrl = url(`${E}/orders/${code}/download/pdf/`);
      const [ticket, mug] = o.positions as Body[];
      expect(o.downloads).toEqual([{ output: 'pdf', url: orderUrl }]);
      expect(ticket.downloads).toEqual([
        { output: 'pdf', url: url(`${E}/orderpositions/${ticket.id as number}/download/pdf/`) },
      ]);
      expect(mug.downloads).toEqual([]);
      // The same on every read: detail, list (one statement per page), positions.
      const detail = (await get(`${E}/orders/${code}/`)).body as Body;
      expect(detail.downloads).toEqual([{ output: 'pdf', url: orderUrl }]);
      expect((detail.positions as Body[]).map((p) => (p.downloads as Body[]).length)).toEqual([1, 0]);
      const list = (await get(`${E}/orders/?code=${code}`)).body as Body;
      expect((list.results as Body[])[0].downloads).toEqual([{ output: 'pdf', url: orderUrl }]);
      const positions = (await get(`${E}/orderpositions/?order=${code}`)).body as Body;
      expect((positions.results as Body[]).map((p) => (p.downloads as Body[]).length)).toEqual([1, 0]);
      const one = (await get(`${E}/orderpositions/${ticket.id as number}/`)).body as Body;
      expect(one.downloads).toEqual([
        { output: 'pdf', url: url(`${E}/orderpositions/${ticket.id as number}/download/pdf/`) },
      ]);
    });

    it('is empty for pending orders, unless valid_if_pending, and for canceled ones', async () => {
      const pending = await order({ positions: [{ item: pass, variation: vip }] });
      expect(pending.downloads).toEqual([]);
      expect((pending.positions as Body[])[0].downloads).toEqual([]);
      const valid = await order({ valid_if_pending: true, positions: [{ item: pass, variation: vip }] });
      expect((valid.downloads as Body[]).map((d) => d.output)).toEqual(['pdf']);
      expect(((valid.positions as Body[])[0].downloads as Body[]).length).toBe(1);
      const canceled = await post(`${E}/orders/${valid.code as string}/mark_canceled/`, {
        send_email: false,
      });
      expect(canceled.status).toBe(200);
      expect(canceled.body.downloads).toEqual([]);
    });
  });

  describe('PDF', () => {
    let code: string;
    let positions: Body[];

    beforeAll(async () => {
      const o = await order({
        status: 'p',
        positions: [
          { item: pass, variation: vip, attendee_name: 'Ada Lovelace' },
          { item: pass, variation: vip, attendee_name: 'Grace Hopper' },
          { item: merch },
        ],
      });
      code = o.code as string;
      positions = o.positions as Body[];
    });

    it('renders a position ticket in the worker: 409 with Retry-After first, then the PDF with its QR code', async () => {
      const path = `${E}/orderpositions/${positions[0].id as number}/download/pdf/`;
      const first = await get(path);
      expect(first.status).toBe(409);
      expect(first.body).toEqual({ detail: 'The requested resource is not ready, please retry later.' });
      expect(first.headers['retry-after']).toBe('2');
      const res = await waitFor(path);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="TIX-${code}-1-pdf.pdf"`);
      const pdf = readPdf(res.body as Buffer);
      expect(pdf.pages).toHaveLength(1);
      const [page] = pdf.pages;
      for (const text of ['Ticket Summit', 'Summit Pass', 'VIP Lounge', 'Ada Lovelace', code, 'Harbour Hall'])
        expect(page.text).toContain(text);
      expect(page.text).toContain('2031-05-01 17:00 (UTC)');
      expect(page.qr).toEqual([positions[0].secret]);
      // Cached: the next download answers at once, without a new render.
      const again = await binary(path);
      expect(again.status).toBe(200);
      expect((again.body as Buffer).equals(res.body as Buffer)).toBe(true);
      const tasks: { n: number }[] = await t.db.query(
        `SELECT count(*)::int AS n FROM async_task WHERE kind = 'tickets.render' AND input->>'scope' = 'position'
           AND (input->>'targetId')::int = $1`,
        [positions[0].id],
      );
      expect(tasks[0].n).toBe(1);
    });

    it('renders the order download with one page per position that issues a ticket', async () => {
      const res = await waitFor(`${E}/orders/${code}/download/pdf/`);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="TIX-${code}-pdf.pdf"`);
      const pdf = readPdf(res.body as Buffer);
      expect(pdf.pages.map((p) => p.qr)).toEqual([[positions[0].secret], [positions[1].secret]]);
      expect(pdf.pages[0].text).toContain('Ada Lovelace');
      expect(pdf.pages[1].text).toContain('Grace Hopper');
      expect(pdf.pages.map((p) => p.text).join(' ')).not.toContain('Summit Mug');
    });

    it('renders again once the attendee or the secret changed (the cache key is what the ticket shows)', async () => {
      const path = `${E}/orderpositions/${positions[1].id as number}/download/pdf/`;
      const before = readPdf((await waitFor(path)).body as Buffer);
      expect(before.pages[0].text).toContain('Grace Hopper');
      await t.db.query(`UPDATE order_position SET attendee_name_parts = $1 WHERE id = $2`, [
        { _legacy: 'Katherine Johnson' },
        positions[1].id,
      ]);
      expect((await get(path)).status).toBe(409);
      const renamed = readPdf((await waitFor(path)).body as Buffer);
      expect(renamed.pages[0].text).toContain('Katherine Johnson');
      expect(renamed.pages[0].text).not.toContain('Grace Hopper');
      // A new secret is a new ticket, and the old file is gone with the old key.
      const regenerated = await post(`${E}/orders/${code}/regenerate_secrets/`);
      expect(regenerated.status).toBe(200);
      const secret = (regenerated.body.positions as Body[])[1].secret as string;
      expect(secret).not.toBe(positions[1].secret);
      expect((await get(path)).status).toBe(409);
      const again = readPdf((await waitFor(path)).body as Buffer);
      expect(again.pages[0].qr).toEqual([secret]);
      const rows: { n: number }[] = await t.db.query(
        `SELECT count(*)::int AS n FROM stored_file WHERE kind = 'ticket_pdf' AND filename = $1`,
        [`TIX-${code}-2-pdf.pdf`],
      );
      expect(rows[0].n).toBe(1);
    });
  });

  describe('rules', () => {
    it('refuses pending and canceled orders and products without tickets as pretix does (403)', async () => {
      const pending = await order({ positions: [{ item: pass, variation: vip }] });
      const pendingCode = pending.code as string;
      const refusedPending = await get(`${E}/orders/${pendingCode}/download/pdf/`);
      expect(refusedPending.status).toBe(403);
      expect(refusedPending.body).toEqual({ detail: 'Downloads are not available for pending orders.' });
      const pos = (pending.positions as Body[])[0].id as number;
      expect((await get(`${E}/orderpositions/${pos}/download/pdf/`)).body).toEqual({
        detail: 'Downloads are not available for pending orders.',
      });
      await post(`${E}/orders/${pendingCode}/mark_canceled/`, { send_email: false });
      const canceled = await get(`${E}/orders/${pendingCode}/download/pdf/`);
      expect(canceled.status).toBe(403);
      expect(canceled.body).toEqual({
        detail: 'Downloads are not available for canceled or expired orders.',
      });

      const paid = await order({ status: 'p', positions: [{ item: merch }] });
      const mug = (paid.positions as Body[])[0].id as number;
      const product = await get(`${E}/orderpositions/${mug}/download/pdf/`);
      expect(product.status).toBe(403);
      expect(product.body).toEqual({ detail: 'Downloads are not enabled for this product.' });
      expect((await get(`${E}/orders/${paid.code as string}/download/pdf/`)).status).toBe(403);
    });

    it('answers 404 for an unknown output, order or position, and for a canceled position', async () => {
      const paid = await order({
        status: 'p',
        positions: [
          { item: pass, variation: vip },
          { item: pass, variation: vip },
        ],
      });
      const code = paid.code as string;
      const unknown = await get(`${E}/orders/${code}/download/pkpass/`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: 'Unknown output provider.' });
      expect((await get(`${E}/orders/ZZZZZZZ/download/pdf/`)).status).toBe(404);
      expect((await get(`${E}/orderpositions/999999/download/pdf/`)).status).toBe(404);
      const second = (paid.positions as Body[])[1].id as number;
      await t.db.query('UPDATE order_position SET canceled = true WHERE id = $1', [second]);
      expect((await get(`${E}/orderpositions/${second}/download/pdf/`)).status).toBe(404);
    });

    it('needs event.orders:read', async () => {
      const paid = await order({ status: 'p', positions: [{ item: pass, variation: vip }] });
      const path = `${E}/orders/${paid.code as string}/download/pdf/`;
      expect((await get(path, outsider)).status).toBe(403);
      expect([200, 409]).toContain((await get(path, reader)).status);
      await waitFor(path);
      expect((await binary(path, reader)).status).toBe(200);
    });
  });

  describe('resend_link', () => {
    it('mails the order link through the outbox (204) and logs pretix.event.order.email.resend', async () => {
      const o = await order({ email: 'resend@example.org', positions: [{ item: pass, variation: vip }] });
      const code = o.code as string;
      const res = await post(`${E}/orders/${code}/resend_link/`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const mail = await eventually(() =>
        Promise.resolve(smtp.received.find((m) => m.to.includes('resend@example.org'))),
      );
      expect(mail.subject).toBe(`Your order: ${code}`);
      expect(mail.text).toContain(`http://localhost:8000/org/tix/order/${code}/${o.secret as string}/`);
      expect(mail.text).toContain('Ticket Summit');
      const logs: { action_type: string; data: Body }[] = await t.db.query(
        `SELECT action_type, data FROM log_entry WHERE action_type = 'pretix.event.order.email.resend'`,
      );
      expect(logs).toHaveLength(1);
      expect(logs[0].data).toMatchObject({ recipient: 'resend@example.org', subject: `Your order: ${code}` });
    });

    it("answers pretix's 400 for an order without e-mail, 404 for an unknown one, 403 without write permission", async () => {
      const o = await order({ email: null, positions: [{ item: pass, variation: vip }] });
      const res = await post(`${E}/orders/${o.code as string}/resend_link/`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'There is no email address associated with this order.' });
      expect((await post(`${E}/orders/ZZZZZZZ/resend_link/`)).status).toBe(404);
      expect((await post(`${E}/orders/${o.code as string}/resend_link/`, {}, reader)).status).toBe(403);
      const mails: { n: number }[] = await t.db.query(
        `SELECT count(*)::int AS n FROM outgoing_mail WHERE subject = $1`,
        [`Your order: ${o.code as string}`],
      );
      expect(mails[0].n).toBe(0);
    });
  });
});
