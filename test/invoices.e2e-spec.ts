import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Invoices (spec "Invoices"; README "Invoices"; compat §3.24, §4.4 `create_invoice`): the event settings at
 * `E/settings/`, creation on request and automatically, gap-free numbers, lines and recipient, the lists with
 * their filters, reissue/regenerate, the cancellation invoice of a canceled order, and the permissions. No worker
 * runs here (the PDF tests are in invoices-pdf.e2e-spec.ts): downloads answer 409.
 */
describe('invoices', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/sample`;
  const S = `${O}/events/series`;
  let item: number;
  let taxRule: number;

  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));

  const ADDRESS = {
    company: 'ACME Corp',
    name: 'Jane Buyer',
    street: 'Harbour Road 5',
    zipcode: '20457',
    city: 'Hamburg',
    country: 'DE',
    vat_id: 'DE123456789',
  };

  /** An order placed through the API (paid unless told otherwise). */
  async function order(body: object = {}, base = E): Promise<string> {
    const res = await post(`${base}/orders/`, {
      email: 'buyer@example.org',
      status: 'p',
      invoice_address: ADDRESS,
      positions: [
        { item, attendee_name: 'Ann Attendee' },
        { item, attendee_name: 'Bob Attendee' },
      ],
      fees: [{ fee_type: 'service', value: '2.50', tax_rule: taxRule }],
      ...body,
    });
    if (res.status !== 201) throw new Error(`order: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.code as string;
  }

  async function invoicesOf(code: string, base = E): Promise<Record<string, unknown>[]> {
    const res = await get(`${base}/invoices/?order=${code}`);
    expect(res.status).toBe(200);
    return res.body.results as Record<string, unknown>[];
  }

  beforeAll(async () => {
    t = await startTestApp();
    token = (await bootstrapOrganizer(t, 'org')).token;
    await createEvent(t, token, 'org', { slug: 'sample', location: { en: 'Congress Center' } });
    taxRule = (await post(`${E}/taxrules/`, { name: { en: 'VAT' }, rate: '19.00' })).body.id as number;
    const it = await post(`${E}/items/`, {
      name: { en: 'Conference Ticket' },
      default_price: '119.00',
      tax_rule: taxRule,
    });
    if (it.status !== 201) throw new Error(`item: ${JSON.stringify(it.body)}`);
    item = it.body.id as number;
    const q = await post(`${E}/quotas/`, { name: 'All', size: null, items: [item] });
    if (q.status !== 201) throw new Error(`quota: ${JSON.stringify(q.body)}`);
    await patch(`${E}/settings/`, {
      invoice_address_from_name: 'Big Events LLC',
      invoice_address_from: 'Main Street 1',
      invoice_address_from_zipcode: '10115',
      invoice_address_from_city: 'Berlin',
      invoice_address_from_country: 'de',
      invoice_address_from_vat_id: 'DE999999999',
      invoice_footer_text: 'Big Events LLC · Berlin',
    });
  });

  afterAll(() => t?.close());

  describe('settings', () => {
    it('shows the defaults and changes only the keys sent', async () => {
      await createEvent(t, token, 'org', { slug: 'fresh' });
      const fresh = await get(`${O}/events/fresh/settings/`);
      expect(fresh.status).toBe(200);
      expect(fresh.body).toEqual({
        invoice_address_from_name: '',
        invoice_address_from: '',
        invoice_address_from_zipcode: '',
        invoice_address_from_city: '',
        invoice_address_from_state: '',
        invoice_address_from_country: '',
        invoice_address_from_tax_id: '',
        invoice_address_from_vat_id: '',
        invoice_numbers_prefix: '',
        invoice_generate: 'admin',
        invoice_introductory_text: '',
        invoice_additional_text: '',
        invoice_footer_text: '',
        locale: 'en',
        waiting_list_enabled: false,
        waiting_list_auto: true,
        waiting_list_hours: 48,
        waiting_list_limit_per_user: 1,
      });
      const res = await patch(`${O}/events/fresh/settings/`, { invoice_generate: 'paid', locale: 'de' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        invoice_generate: 'paid',
        locale: 'de',
        invoice_address_from_name: '',
      });
      const again = await get(`${O}/events/fresh/settings/`);
      expect(again.body).toMatchObject({ invoice_generate: 'paid', locale: 'de' });
      const sample = await get(`${E}/settings/`);
      expect(sample.body).toMatchObject({
        invoice_address_from_country: 'DE',
        invoice_address_from_name: 'Big Events LLC',
      });
    });

    it('refuses bad values with 400 naming the field, and changes nothing', async () => {
      const bad = await patch(`${E}/settings/`, {
        invoice_generate: 'sometimes',
        invoice_address_from_country: 'XX',
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        invoice_generate: ['"sometimes" is not a valid choice.'],
        invoice_address_from_country: ['Invalid country code.'],
      });
      const prefix = await patch(`${E}/settings/`, { invoice_numbers_prefix: 'A B' });
      expect(prefix.status).toBe(400);
      expect(prefix.body).toHaveProperty('invoice_numbers_prefix');
      expect((await get(`${E}/settings/`)).body).toMatchObject({
        invoice_generate: 'admin',
        invoice_numbers_prefix: '',
      });
    });

    it('needs event.settings.invoicing:write to write', async () => {
      const orders = await teamToken(t, 'org', {
        allEvents: true,
        eventPermissions: ['event.orders:write', 'event.settings.general:write'],
      });
      expect((await get(`${E}/settings/`, orders)).status).toBe(200);
      const denied = await patch(`${E}/settings/`, { locale: 'fr' }, orders);
      expect(denied.status).toBe(403);
      const invoicing = await teamToken(t, 'org', {
        allEvents: true,
        eventPermissions: ['event.settings.invoicing:write'],
      });
      expect((await patch(`${E}/settings/`, { locale: 'en' }, invoicing)).status).toBe(200);
    });
  });

  describe('create_invoice', () => {
    it('creates the invoice of a paid order with the default settings: lines, tax, recipient, sender', async () => {
      const code = await order();
      const res = await post(`${E}/orders/${code}/create_invoice/`);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        event: 'sample',
        order: code,
        is_cancellation: false,
        refers: null,
        locale: 'en',
        invoice_from_name: 'Big Events LLC',
        invoice_from: 'Main Street 1',
        invoice_from_zipcode: '10115',
        invoice_from_city: 'Berlin',
        invoice_from_country: 'DE',
        invoice_from_vat_id: 'DE999999999',
        invoice_to: 'ACME Corp\nJane Buyer\nHarbour Road 5\n20457 Hamburg\nGermany',
        invoice_to_company: 'ACME Corp',
        invoice_to_name: 'Jane Buyer',
        invoice_to_street: 'Harbour Road 5',
        invoice_to_zipcode: '20457',
        invoice_to_city: 'Hamburg',
        invoice_to_country: 'DE',
        invoice_to_vat_id: 'DE123456789',
        footer_text: 'Big Events LLC · Berlin',
        payment_provider_text: 'The payment for this invoice has already been received.',
        foreign_currency_display: null,
      });
      expect(res.body.number).toMatch(/^SAMPLE-\d{5}$/);
      expect(res.body.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(res.body.lines).toEqual([
        expect.objectContaining({
          position: 1,
          description: 'Conference Ticket',
          item,
          variation: null,
          subevent: null,
          attendee_name: 'Ann Attendee',
          gross_value: '119.00',
          tax_value: '19.00',
          tax_rate: '19.00',
          tax_name: 'VAT',
          event_date_from: '2030-12-27T10:00:00Z',
          period_start: '2030-12-27T10:00:00Z',
          period_end: '2030-12-27T10:00:00Z',
          tax_code: null,
          event_location: 'Congress Center',
          fee_type: null,
        }),
        expect.objectContaining({ position: 2, attendee_name: 'Bob Attendee', gross_value: '119.00' }),
        expect.objectContaining({
          position: 3,
          description: 'Service fee',
          item: null,
          fee_type: 'service',
          gross_value: '2.50',
          tax_value: '0.40',
          tax_rate: '19.00',
        }),
      ]);
      const again = await get(`${E}/invoices/${res.body.number as string}/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
    });

    it('refuses a second invoice, a canceled order, an unknown order, and an event with invoices off', async () => {
      const code = await order();
      expect((await post(`${E}/orders/${code}/create_invoice/`)).status).toBe(201);
      const twice = await post(`${E}/orders/${code}/create_invoice/`);
      expect(twice.status).toBe(400);
      expect(twice.body).toEqual({ detail: 'An invoice for this order already exists.' });
      expect(await invoicesOf(code)).toHaveLength(1);

      const canceled = await order({ status: 'n' });
      expect((await post(`${E}/orders/${canceled}/mark_canceled/`, { send_email: false })).status).toBe(200);
      const refused = await post(`${E}/orders/${canceled}/create_invoice/`);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ detail: 'You cannot generate an invoice for this order.' });

      expect((await post(`${E}/orders/NOSUCH/create_invoice/`)).status).toBe(404);

      await createEvent(t, token, 'org', { slug: 'noinv' });
      const noinvItem = (await post(`${O}/events/noinv/items/`, { name: 'T', default_price: '5.00' })).body
        .id as number;
      await post(`${O}/events/noinv/quotas/`, { name: 'Q', size: null, items: [noinvItem] });
      await patch(`${O}/events/noinv/settings/`, { invoice_generate: 'False' });
      const off = await post(`${O}/events/noinv/orders/`, { status: 'p', positions: [{ item: noinvItem }] });
      const offRes = await post(`${O}/events/noinv/orders/${off.body.code as string}/create_invoice/`);
      expect(offRes.status).toBe(400);
      expect(offRes.body).toEqual({ detail: 'You cannot generate an invoice for this order.' });
      expect((await get(`${O}/events/noinv/invoices/`)).body.count).toBe(0);
    });

    it('numbers per event with the prefix, gap-free: 20 parallel requests on 20 orders give 20 consecutive numbers', async () => {
      await createEvent(t, token, 'org', { slug: 'rush' });
      const R = `${O}/events/rush`;
      const rushItem = (await post(`${R}/items/`, { name: 'T', default_price: '5.00' })).body.id as number;
      await post(`${R}/quotas/`, { name: 'Q', size: null, items: [rushItem] });
      await patch(`${R}/settings/`, { invoice_numbers_prefix: 'R2030-' });
      const codes: string[] = [];
      for (let i = 0; i < 20; i++) {
        const res = await post(`${R}/orders/`, { status: 'p', positions: [{ item: rushItem }] });
        codes.push(res.body.code as string);
      }
      const results = await Promise.all(codes.map((c) => post(`${R}/orders/${c}/create_invoice/`)));
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
      const numbers = results.map((r) => r.body.number as string).sort();
      expect(numbers).toEqual(
        Array.from({ length: 20 }, (_, i) => `R2030-${String(i + 1).padStart(5, '0')}`),
      );
      const list = await get(`${R}/invoices/?page_size=50`);
      expect(list.body.count).toBe(20);
      expect(new Set((list.body.results as { order: string }[]).map((r) => r.order))).toEqual(new Set(codes));
      // Other events count on their own.
      const other = await post(`${E}/orders/${await order()}/create_invoice/`);
      expect(other.body.number).toMatch(/^SAMPLE-/);
    });

    it('uses the date of a series for each line', async () => {
      await createSeries(t, token, 'org', { slug: 'series' });
      const seriesItem = (await post(`${S}/items/`, { name: { en: 'Day Pass' }, default_price: '10.00' }))
        .body.id as number;
      const day = await post(`${S}/subevents/`, {
        name: { en: 'Opening Night' },
        date_from: '2030-03-01T18:00:00Z',
        date_to: '2030-03-01T23:00:00Z',
        location: { en: 'Main Hall' },
        active: true,
      });
      expect(day.status).toBe(201);
      await post(`${S}/quotas/`, { name: 'Q', size: null, items: [seriesItem], subevent: day.body.id });
      const placed = await post(`${S}/orders/`, {
        status: 'p',
        positions: [{ item: seriesItem, subevent: day.body.id }],
      });
      expect(placed.status).toBe(201);
      const inv = await post(`${S}/orders/${placed.body.code as string}/create_invoice/`);
      expect(inv.status).toBe(201);
      expect(inv.body.lines).toEqual([
        expect.objectContaining({
          description: 'Day Pass\nOpening Night',
          subevent: day.body.id,
          event_date_from: '2030-03-01T18:00:00Z',
          event_date_to: '2030-03-01T23:00:00Z',
          event_location: 'Main Hall',
          gross_value: '10.00',
          tax_value: '0.00',
          tax_name: '',
        }),
      ]);
      expect(inv.body.invoice_to).toBe('');
    });
  });

  describe('automatic invoices', () => {
    it('invoice_generate True: on placement; paid: on payment; admin: never', async () => {
      await patch(`${E}/settings/`, { invoice_generate: 'True' });
      const placed = await order({ status: 'n' });
      expect(await invoicesOf(placed)).toHaveLength(1);

      await patch(`${E}/settings/`, { invoice_generate: 'paid' });
      const pending = await order({ status: 'n' });
      expect(await invoicesOf(pending)).toHaveLength(0);
      expect((await post(`${E}/orders/${pending}/mark_paid/`, { send_email: false })).status).toBe(200);
      const afterPayment = await invoicesOf(pending);
      expect(afterPayment).toHaveLength(1);
      expect(afterPayment[0].payment_provider_text).toBe(
        'The payment for this invoice has already been received.',
      );
      const paidAtOnce = await order();
      expect(await invoicesOf(paidAtOnce)).toHaveLength(1);

      await patch(`${E}/settings/`, { invoice_generate: 'admin' });
      const manual = await order();
      expect(await invoicesOf(manual)).toHaveLength(0);
    });
  });

  describe('cancellation, reissue, regenerate', () => {
    it('canceling an order with an invoice creates the cancellation invoice', async () => {
      const code = await order();
      const inv = (await post(`${E}/orders/${code}/create_invoice/`)).body as {
        number: string;
        lines: { gross_value: string }[];
      };
      expect((await post(`${E}/orders/${code}/mark_canceled/`, { send_email: false })).status).toBe(200);
      const all = await invoicesOf(code);
      expect(all).toHaveLength(2);
      const cancellation = all.find((i) => i.is_cancellation)!;
      expect(cancellation).toMatchObject({
        refers: inv.number,
        order: code,
        invoice_to_name: 'Jane Buyer',
        payment_provider_text: '',
      });
      expect((cancellation.lines as { gross_value: string }[]).map((l) => l.gross_value)).toEqual([
        '-119.00',
        '-119.00',
        '-2.50',
      ]);
      const byRefers = await get(`${E}/invoices/?refers=${inv.number}`);
      expect(byRefers.body.results.map((i: { number: string }) => i.number)).toEqual([cancellation.number]);
      const reissue = await post(`${E}/invoices/${inv.number}/reissue/`);
      expect(reissue.status).toBe(400);
      expect(reissue.body).toEqual({ detail: 'The invoice has already been canceled.' });
      const regenerate = await post(`${E}/invoices/${inv.number}/regenerate/`);
      expect(regenerate.status).toBe(400);
      expect(regenerate.body).toEqual({ detail: 'The invoice has already been canceled.' });
    });

    it('an order canceled without an invoice gets none', async () => {
      const code = await order({ status: 'n' });
      expect((await post(`${E}/orders/${code}/mark_canceled/`, { send_email: false })).status).toBe(200);
      expect(await invoicesOf(code)).toHaveLength(0);
    });

    it('reissue (POST; GET answers 405): a cancellation and a new invoice; the original stays as it was', async () => {
      const code = await order();
      const first = (await post(`${E}/orders/${code}/create_invoice/`)).body as { number: string };
      const res = await post(`${E}/invoices/${first.number}/reissue/`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const all = await invoicesOf(code);
      expect(all).toHaveLength(3);
      const [original, cancellation, fresh] = all;
      expect(original).toMatchObject({ number: first.number, is_cancellation: false });
      expect(cancellation).toMatchObject({ is_cancellation: true, refers: first.number });
      expect(fresh).toMatchObject({ is_cancellation: false, refers: null });
      const byGet = await get(`${E}/invoices/${fresh.number as string}/reissue/`);
      expect(byGet.status).toBe(405);
      expect(await invoicesOf(code)).toHaveLength(3);
      expect((await post(`${E}/invoices/${fresh.number as string}/reissue/`)).status).toBe(204);
      expect(await invoicesOf(code)).toHaveLength(5);
      expect((await post(`${E}/invoices/NOPE-00001/reissue/`)).status).toBe(404);
    });

    it('regenerate: same number, data refreshed from the order', async () => {
      const code = await order();
      const inv = (await post(`${E}/orders/${code}/create_invoice/`)).body as { number: string };
      const changed = await patch(`${E}/orders/${code}/`, {
        invoice_address: { ...ADDRESS, name: 'Jane Renamed' },
      });
      expect(changed.status).toBe(200);
      expect((await get(`${E}/invoices/${inv.number}/`)).body.invoice_to_name).toBe('Jane Buyer');
      const res = await post(`${E}/invoices/${inv.number}/regenerate/`);
      expect(res.status).toBe(204);
      const after = await get(`${E}/invoices/${inv.number}/`);
      expect(after.body).toMatchObject({ number: inv.number, invoice_to_name: 'Jane Renamed' });
      expect(await invoicesOf(code)).toHaveLength(1);
      expect((await get(`${E}/invoices/${inv.number}/regenerate/`)).status).toBe(405);
      expect((await post(`${E}/invoices/${inv.number}/regenerate/`)).status).toBe(204);
      expect((await post(`${E}/invoices/NOPE-00001/regenerate/`)).status).toBe(404);
    });
  });

  describe('lists and detail', () => {
    it('filters, orders by nr (default) or date, and answers 404 for an unknown number', async () => {
      const all = await get(`${E}/invoices/?page_size=50`);
      expect(all.status).toBe(200);
      const numbers = (all.body.results as { number: string }[]).map((r) => r.number);
      expect(numbers).toEqual([...numbers].sort());
      const desc = await get(`${E}/invoices/?ordering=-nr&page_size=50`);
      expect((desc.body.results as { number: string }[]).map((r) => r.number)).toEqual(
        [...numbers].sort().reverse(),
      );
      const byDate = await get(`${E}/invoices/?ordering=date&page_size=50`);
      expect(byDate.body.count).toBe(all.body.count);
      const cancellations = await get(`${E}/invoices/?is_cancellation=true&page_size=50`);
      expect(cancellations.body.count).toBeGreaterThan(0);
      expect(
        (cancellations.body.results as { is_cancellation: boolean }[]).every((r) => r.is_cancellation),
      ).toBe(true);
      const others = await get(`${E}/invoices/?is_cancellation=false&page_size=50`);
      expect(cancellations.body.count + others.body.count).toBe(all.body.count);
      expect((await get(`${E}/invoices/?locale=de`)).body.count).toBe(0);
      expect((await get(`${E}/invoices/?locale=en`)).body.count).toBe(all.body.count);
      expect((await get(`${E}/invoices/?is_cancellation=maybe`)).status).toBe(400);
      expect((await get(`${E}/invoices/NOPE-00001/`)).status).toBe(404);
    });

    it('organizer level: invoices of the events the credential may read orders of', async () => {
      const all = await get(`${O}/invoices/?page_size=50`);
      expect(all.status).toBe(200);
      const events = new Set((all.body.results as { event: string }[]).map((r) => r.event));
      expect(events).toEqual(new Set(['sample', 'rush', 'series']));
      const rushOnly = await teamToken(t, 'org', {
        limitEvents: ['rush'],
        eventPermissions: ['event.orders:read'],
      });
      const limited = await get(`${O}/invoices/?page_size=50`, rushOnly);
      expect(limited.body.count).toBe(20);
      const noOrders = await teamToken(t, 'org', {
        allEvents: true,
        eventPermissions: ['event.items:write'],
      });
      expect((await get(`${O}/invoices/`, noOrders)).body.count).toBe(0);
      expect((await get(`${E}/invoices/`, noOrders)).status).toBe(403);
    });

    it('has no writes on invoices (405)', async () => {
      const number = ((await get(`${E}/invoices/`)).body.results[0] as { number: string }).number;
      expect((await post(`${E}/invoices/`, {})).status).toBe(405);
      expect(
        (await t.http().delete(`${E}/invoices/${number}/`).set('Authorization', auth(token))).status,
      ).toBe(405);
      expect((await patch(`${E}/invoices/${number}/`, {})).status).toBe(405);
      expect(
        (await t.http().put(`${E}/invoices/${number}/`).set('Authorization', auth(token)).send({})).status,
      ).toBe(405);
      expect((await get(`${E}/invoices/${number}/`)).status).toBe(200);
    });

    it('download answers 409 with Retry-After while no worker rendered the PDF', async () => {
      const number = ((await get(`${E}/invoices/`)).body.results[0] as { number: string }).number;
      const res = await get(`${E}/invoices/${number}/download/`);
      expect(res.status).toBe(409);
      expect(res.headers['retry-after']).toBe('2');
      expect(res.body.detail).toMatch(/not yet been generated/);
    });

    it('reissue and regenerate need event.orders:write; reading needs event.orders:read', async () => {
      const number = (
        (await get(`${E}/invoices/?is_cancellation=false&ordering=-nr`)).body.results[0] as { number: string }
      ).number;
      const reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
      expect((await get(`${E}/invoices/${number}/`, reader)).status).toBe(200);
      expect((await post(`${E}/invoices/${number}/reissue/`, {}, reader)).status).toBe(403);
      expect((await post(`${E}/invoices/${number}/regenerate/`, {}, reader)).status).toBe(403);
      expect((await get(`${E}/invoices/${number}/reissue/`, reader)).status).toBe(405);
      const code = await order();
      expect((await post(`${E}/orders/${code}/create_invoice/`, {}, reader)).status).toBe(403);
      expect(await invoicesOf(code)).toHaveLength(0);
    });
  });
});
