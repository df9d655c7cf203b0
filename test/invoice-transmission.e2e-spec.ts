import { AppConfig } from '../src/config/app-config';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { startSmtpServer, TestSmtpServer, type ReceivedMail } from './smtp-helpers';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

/** The first attachment of a received mail: its file name, content type and decoded bytes. */
function attachmentOf(mail: ReceivedMail): { filename: string; type: string; content: Buffer } {
  const m =
    /Content-Type: ([^;\r\n]+)[^\r\n]*\r\n(?:[^\r\n]+\r\n)*Content-Disposition: attachment;\s*filename="?([^"\r\n]+)"?\r\n(?:[^\r\n]+\r\n)*\r\n([A-Za-z0-9+/=\r\n]+)/.exec(
      mail.raw,
    );
  if (!m) throw new Error(`no attachment in:\n${mail.raw.slice(0, 2000)}`);
  return { type: m[1], filename: m[2], content: Buffer.from(m[3].replace(/\r\n/g, ''), 'base64') };
}

interface InvoiceRow {
  transmission_status: string;
  transmission_provider: string | null;
  transmission_date: Date | null;
  transmission_info: { sent?: { recipients: string[]; datetime: string }[] };
  transmission_mail_id: number | null;
}

/**
 * Invoice transmission (spec "Invoices" "Transmitting invoices"; pretix 2025.6 `transmit/`, `retransmit/`, type
 * `email` with provider `email_pdf`): a real worker renders the PDF when needed and queues the mail through the
 * outbox; a real SMTP server receives it with the PDF attached; the mail's outcome completes (or fails) the
 * transmission and is logged as pretix logs it. Also the refusals (403 not pending, 409 inflight), a missing
 * recipient, an unknown type, the transmission address of the recipient, a refused mail and the permission.
 */
describe('invoice transmission', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let token: string;
  let item: number;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/tx`;

  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  const workerEnv = () => ({ ...workerEnvFor(t), MAIL_URL: smtp.url, JOB_LOCK_MS: '2000' });

  async function invoice(body: object = {}): Promise<{ number: string; code: string }> {
    const placed = await post(`${E}/orders/`, {
      email: 'buyer@example.org',
      status: 'p',
      invoice_address: { company: 'Recipient GmbH', city: 'Dresden', country: 'DE', is_business: true },
      positions: [{ item, attendee_name: 'Ann Attendee' }],
      ...body,
    });
    if (placed.status !== 201) throw new Error(`order: ${placed.status} ${JSON.stringify(placed.body)}`);
    const code = placed.body.code as string;
    const inv = await post(`${E}/orders/${code}/create_invoice/`);
    if (inv.status !== 201) throw new Error(`invoice: ${inv.status} ${JSON.stringify(inv.body)}`);
    return { number: inv.body.number as string, code };
  }

  const row = async (number: string): Promise<InvoiceRow> =>
    (
      await t.db.query<InvoiceRow[]>(
        `SELECT transmission_status, transmission_provider, transmission_date, transmission_info,
                transmission_mail_id FROM invoice WHERE number = $1`,
        [number],
      )
    )[0];

  const logs = (code: string) =>
    t.db.query<{ action_type: string; data: Record<string, unknown> }[]>(
      `SELECT l.action_type, l.data FROM log_entry l JOIN orders o ON o.id = l.object_id
        WHERE l.content_type = 'order' AND o.code = $1 AND l.action_type LIKE '%invoice%' ORDER BY l.id`,
      [code],
    );

  const mailTo = (to: string, count = 1) =>
    eventually(async () => {
      const mails = smtp.received.filter((m) => m.to.includes(to));
      return mails.length >= count ? mails : null;
    }, 30_000);

  const statusBecomes = (number: string, status: string) =>
    eventually(async () => {
      const r = await row(number);
      return r.transmission_status === status ? r : null;
    }, 30_000);

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ mailUrl: smtp.url });
    token = (await bootstrapOrganizer(t, 'org')).token;
    await createEvent(t, token, 'org', { slug: 'tx', name: { en: 'Transmit Days' } });
    item = (await post(`${E}/items/`, { name: { en: 'Day Pass' }, default_price: '30.00' })).body.id as number;
    await post(`${E}/quotas/`, { name: 'All', size: null, items: [item] });
  });
  afterEach(() => stopAllWorkers());
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await deleteQueueKeys(t.app.get(AppConfig).queuePrefix);
  });

  it('transmit/: the worker renders the PDF, mails it to the order e-mail; completed by email_pdf, logged', async () => {
    const { number, code } = await invoice();
    const before = await get(`${E}/invoices/${number}/`);
    expect(before.body).toMatchObject({
      transmission_type: 'email',
      transmission_provider: null,
      transmission_status: 'pending',
      transmission_date: null,
      invoice_to_is_business: true,
      invoice_to_transmission_info: {},
    });

    const res = await post(`${E}/invoices/${number}/transmit/`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await row(number)).transmission_status).toBe('pending'); // no worker yet

    await startWorker(workerEnv());
    const [mail] = await mailTo('buyer@example.org');
    expect(mail.subject).toBe(`Invoice ${number}`);
    expect(mail.text).toContain(`invoice for order ${code} for Transmit Days`);
    const file = attachmentOf(mail);
    expect(file.type).toBe('application/pdf');
    expect(file.filename).toBe(`Invoice_${number}.pdf`);
    expect(file.content.subarray(0, 5).toString()).toBe('%PDF-');

    const done = await statusBecomes(number, 'completed');
    expect(done.transmission_provider).toBe('email_pdf');
    expect(done.transmission_date).not.toBeNull();
    expect(done.transmission_mail_id).toBeNull();
    expect(done.transmission_info.sent).toEqual([
      { recipients: ['buyer@example.org'], datetime: expect.any(String) },
    ]);
    const after = await get(`${E}/invoices/${number}/`);
    expect(after.body).toMatchObject({ transmission_status: 'completed', transmission_provider: 'email_pdf' });
    expect(after.body.transmission_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    // The PDF the worker rendered is the invoice's download.
    const pdf = await get(`${E}/invoices/${number}/download/`);
    expect(pdf.status).toBe(200);

    const entries = await logs(code);
    expect(entries.map((e) => e.action_type)).toEqual([
      'pretix.event.order.invoice.generated',
      'pretix.event.order.email.invoice',
      'pretix.event.order.invoice.sent',
    ]);
    expect(entries[1].data).toMatchObject({
      subject: `Invoice ${number}`,
      recipient: 'buyer@example.org',
      attach_tickets: false,
    });
    expect(entries[2].data).toEqual({
      full_invoice_no: number,
      transmission_provider: 'email_pdf',
      transmission_type: 'email',
      data: { recipients: ['buyer@example.org'] },
    });

    // Not pending any more: 403 with pretix's message, nothing changes.
    const again = await post(`${E}/invoices/${number}/transmit/`);
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ detail: 'The invoice is not in pending state.' });
  });

  it('retransmit/: 409 while inflight; otherwise pending again (logged) and mailed once more', async () => {
    const { number, code } = await invoice({ email: 'again@example.org' });
    await t.db.query(`UPDATE invoice SET transmission_status = 'inflight' WHERE number = $1`, [number]);
    const busy = await post(`${E}/invoices/${number}/retransmit/`);
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({ detail: 'The requested action is already in progress.' });
    expect((await row(number)).transmission_status).toBe('inflight');

    await t.db.query(`UPDATE invoice SET transmission_status = 'failed' WHERE number = $1`, [number]);
    const res = await post(`${E}/invoices/${number}/retransmit/`);
    expect(res.status).toBe(204);
    const pending = await row(number);
    expect(pending.transmission_status).toBe('pending');
    expect(pending.transmission_date).not.toBeNull();
    const [entry] = (await logs(code)).filter((e) => e.action_type.endsWith('retransmitted'));
    expect(entry.data).toEqual({ invoice: expect.any(Number), full_invoice_no: number });

    await startWorker(workerEnv());
    await mailTo('again@example.org');
    await statusBecomes(number, 'completed');
    // A completed invoice is retransmitted too (pretix: only inflight is refused); the second mail is appended.
    expect((await post(`${E}/invoices/${number}/retransmit/`)).status).toBe(204);
    await mailTo('again@example.org', 2);
    const twice = await eventually(async () => {
      const r = await row(number);
      return r.transmission_status === 'completed' && (r.transmission_info.sent?.length ?? 0) === 1 ? r : null;
    }, 30_000);
    expect(twice.transmission_provider).toBe('email_pdf');
  });

  it("mails the recipient's transmission address instead of the order's; no address at all fails (no_recipient)", async () => {
    const other = await invoice({ email: 'person@example.org' });
    await t.db.query(
      `UPDATE invoice SET invoice_to_transmission_info = '{"transmission_email_address": "accounting@example.org"}'
        WHERE number = $1`,
      [other.number],
    );
    const none = await invoice({ email: null });
    const peppol = await invoice({ email: 'peppol@example.org' });
    await t.db.query(`UPDATE invoice SET transmission_type = 'peppol' WHERE number = $1`, [peppol.number]);
    for (const n of [other.number, none.number, peppol.number])
      expect((await post(`${E}/invoices/${n}/transmit/`)).status).toBe(204);
    await startWorker(workerEnv());

    await mailTo('accounting@example.org');
    expect(smtp.received.some((m) => m.to.includes('person@example.org'))).toBe(false);
    await statusBecomes(other.number, 'completed');

    const noRecipient = await statusBecomes(none.number, 'failed');
    expect(noRecipient.transmission_provider).toBeNull();
    expect((await logs(none.code)).pop()).toEqual({
      action_type: 'pretix.event.order.invoice.sending_failed',
      data: {
        full_invoice_no: none.number,
        transmission_provider: 'email_pdf',
        transmission_type: 'email',
        data: { reason: 'no_recipient' },
      },
    });

    const noProvider = await statusBecomes(peppol.number, 'failed');
    expect(noProvider.transmission_provider).toBeNull();
    expect((await logs(peppol.code)).pop()?.data).toMatchObject({
      transmission_provider: null,
      transmission_type: 'peppol',
      data: { reason: 'no_provider' },
    });
    expect(smtp.received.some((m) => m.to.includes('peppol@example.org'))).toBe(false);
  });

  it('needs event.orders:write; an unknown number is 404', async () => {
    const { number } = await invoice();
    const reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    expect((await post(`${E}/invoices/${number}/transmit/`, {}, reader)).status).toBe(403);
    expect((await post(`${E}/invoices/${number}/retransmit/`, {}, reader)).status).toBe(403);
    expect((await row(number)).transmission_status).toBe('pending');
    expect((await post(`${E}/invoices/NOPE-1/transmit/`)).status).toBe(404);
    expect((await post(`${E}/invoices/NOPE-1/retransmit/`)).status).toBe(404);
  });

  describe('with an SMTP server that refuses the recipient for good (550)', () => {
    let refusing: TestSmtpServer;

    beforeAll(async () => {
      refusing = await startSmtpServer({ code: 550, message: 'No such user' });
    });
    afterAll(() => refusing.close());

    it('the failed mail fails the transmission (email_pdf), logged with the SMTP error', async () => {
      const { number, code } = await invoice({ email: 'nobody@example.org' });
      expect((await post(`${E}/invoices/${number}/transmit/`)).status).toBe(204);
      await startWorker({ ...workerEnvFor(t), MAIL_URL: refusing.url, JOB_LOCK_MS: '2000' });
      const failed = await statusBecomes(number, 'failed');
      expect(failed.transmission_provider).toBe('email_pdf');
      const last = (await logs(code)).pop();
      expect(last?.action_type).toBe('pretix.event.order.invoice.sending_failed');
      expect(last?.data).toMatchObject({
        full_invoice_no: number,
        transmission_provider: 'email_pdf',
        transmission_type: 'email',
        data: { reason: 'exception', exception: expect.stringContaining('No such user') },
      });
      // Failed: transmit/ refuses, retransmit/ is the way.
      expect((await post(`${E}/invoices/${number}/transmit/`)).status).toBe(403);
    });
  });
});
