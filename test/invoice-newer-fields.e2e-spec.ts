import { auth, bootstrapOrganizer, createEvent, createSeries } from './factories';
import { startTestApp, TestApp } from './harness';

/** Every key of an invoice on the wire (pretix 2026 `InvoiceSerializer`, test_invoices.py). */
const INVOICE_KEYS = [
  'number',
  'event',
  'order',
  'is_cancellation',
  'invoice_from_name',
  'invoice_from',
  'invoice_from_zipcode',
  'invoice_from_city',
  'invoice_from_state',
  'invoice_from_country',
  'invoice_from_tax_id',
  'invoice_from_vat_id',
  'invoice_to',
  'invoice_to_is_business',
  'invoice_to_company',
  'invoice_to_name',
  'invoice_to_street',
  'invoice_to_zipcode',
  'invoice_to_city',
  'invoice_to_state',
  'invoice_to_country',
  'invoice_to_vat_id',
  'invoice_to_beneficiary',
  'invoice_to_transmission_info',
  'custom_field',
  'date',
  'refers',
  'locale',
  'introductory_text',
  'internal_reference',
  'additional_text',
  'payment_provider_text',
  'payment_provider_stamp',
  'footer_text',
  'foreign_currency_display',
  'foreign_currency_rate',
  'foreign_currency_rate_date',
  'lines',
  'transmission_type',
  'transmission_provider',
  'transmission_status',
  'transmission_date',
].sort();

const LINE_KEYS = [
  'position',
  'description',
  'subevent',
  'event_date_from',
  'event_date_to',
  'period_start',
  'period_end',
  'event_location',
  'attendee_name',
  'item',
  'variation',
  'fee_type',
  'fee_internal_type',
  'gross_value',
  'tax_value',
  'tax_name',
  'tax_code',
  'tax_rate',
].sort();

/**
 * Invoice fields pretix added in 2024.8–2025.6 (spec "Invoice"): `invoice_from_state`, `invoice_to_is_business`,
 * `invoice_to_transmission_info`, `transmission_*` (a new invoice `pending`, type `email`; its cancellation too),
 * the lines' `period_start`/`period_end` (pretix `auto`: validity, else the (sub-)event's dates; fees: the
 * earliest start and end of the products; `event_date_*` their aliases) and `tax_code`; the list filters `order`
 * and `number` repeatable and case-insensitive; `create_invoice` refusing free orders and logging.
 */
describe('invoice newer fields', () => {
  let t: TestApp;
  let token: string;
  let item: number;
  let free: number;
  let rule: number;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/nf`;
  const S = `${O}/events/nfs`;

  const post = (path: string, body: object = {}) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));

  async function place(base: string, body: object): Promise<string> {
    const res = await post(`${base}/orders/`, { email: 'b@example.org', status: 'p', ...body });
    if (res.status !== 201) throw new Error(`order: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.code as string;
  }

  beforeAll(async () => {
    t = await startTestApp();
    token = (await bootstrapOrganizer(t, 'org')).token;
    await createEvent(t, token, 'org', {
      slug: 'nf',
      date_from: '2031-05-01T09:00:00Z',
      date_to: '2031-05-02T17:00:00Z',
    });
    rule = (await post(`${E}/taxrules/`, { name: { en: 'VAT' }, rate: '19.00', code: 'S/standard' })).body
      .id as number;
    item = (await post(`${E}/items/`, { name: { en: 'Pass' }, default_price: '11.90', tax_rule: rule })).body
      .id as number;
    free = (await post(`${E}/items/`, { name: { en: 'Free' }, default_price: '0.00' })).body.id as number;
    await post(`${E}/quotas/`, { name: 'All', size: null, items: [item, free] });
    const s = await t.http().patch(`${E}/settings/`).set('Authorization', auth(token)).send({
      invoice_address_from_state: 'CA',
      invoice_address_from_country: 'US',
    });
    expect(s.status).toBe(200);
    expect(s.body.invoice_address_from_state).toBe('CA');
  });
  afterAll(() => t.close());

  it('shows every pretix 2026 field: sender state, recipient kind, transmission pending/email, periods, tax code', async () => {
    const code = await place(E, {
      invoice_address: { company: 'Biz Ltd', country: 'DE', is_business: true },
      positions: [
        { item },
        { item, valid_from: '2031-06-01T00:00:00Z', valid_until: '2031-06-30T00:00:00Z' },
        { item, valid_until: '2031-07-01T00:00:00Z' },
      ],
      fees: [{ fee_type: 'service', value: '1.19', tax_rule: rule }],
    });
    const res = await post(`${E}/orders/${code}/create_invoice/`);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(INVOICE_KEYS);
    for (const line of res.body.lines as object[]) expect(Object.keys(line).sort()).toEqual(LINE_KEYS);
    expect(res.body).toMatchObject({
      invoice_from_state: 'CA',
      invoice_from_country: 'US',
      invoice_to_is_business: true,
      invoice_to_transmission_info: {},
      transmission_type: 'email',
      transmission_provider: null,
      transmission_status: 'pending',
      transmission_date: null,
    });
    const ordered = (await get(`${E}/orders/${code}/`)).body.datetime as string;
    const lines = res.body.lines as Record<string, unknown>[];
    const period = (l: Record<string, unknown>) => [l.period_start, l.period_end, l.event_date_from, l.event_date_to];
    // The event's dates; the validity; only valid_until: from the order's time.
    expect(period(lines[0])).toEqual([
      '2031-05-01T09:00:00Z',
      '2031-05-02T17:00:00Z',
      '2031-05-01T09:00:00Z',
      '2031-05-02T17:00:00Z',
    ]);
    expect(period(lines[1])).toEqual([
      '2031-06-01T00:00:00Z',
      '2031-06-30T00:00:00Z',
      '2031-06-01T00:00:00Z',
      '2031-06-30T00:00:00Z',
    ]);
    expect(lines[2].period_start).toBe(ordered);
    expect(lines[2].period_end).toBe('2031-07-01T00:00:00Z');
    // The fee: the earliest start and the earliest end of the products (pretix takes min of both).
    expect(lines[3]).toMatchObject({
      fee_type: 'service',
      period_start: ordered,
      period_end: '2031-05-02T17:00:00Z',
      tax_code: 'S/standard',
    });
    expect(lines.map((l) => l.tax_code)).toEqual(['S/standard', 'S/standard', 'S/standard', 'S/standard']);

    // The stored invoice reads back the same; the generation is logged.
    const again = await get(`${E}/invoices/${res.body.number as string}/`);
    expect(again.body).toEqual(res.body);
    const logged = await t.db.query<{ data: { invoice: number } }[]>(
      `SELECT l.data FROM log_entry l JOIN orders o ON o.id = l.object_id
        WHERE o.code = $1 AND l.action_type = 'pretix.event.order.invoice.generated'`,
      [code],
    );
    const [{ id }] = await t.db.query<{ id: number }[]>('SELECT id FROM invoice WHERE number = $1', [
      res.body.number,
    ]);
    expect(logged).toEqual([{ data: { invoice: id } }]);
  });

  it('a series: the sub-event dates; no address: is_business null; the cancellation keeps the fields, pending', async () => {
    await createSeries(t, token, 'org', { slug: 'nfs' });
    const sItem = (await post(`${S}/items/`, { name: { en: 'Day' }, default_price: '10.00' })).body.id as number;
    const day = await post(`${S}/subevents/`, {
      name: { en: 'Day 1' },
      date_from: '2031-09-01T08:00:00Z',
      active: true,
    });
    expect(day.status).toBe(201);
    await post(`${S}/quotas/`, { name: 'All', size: null, items: [sItem], subevent: day.body.id });
    const code = await place(S, { positions: [{ item: sItem, subevent: day.body.id }] });
    const inv = await post(`${S}/orders/${code}/create_invoice/`);
    expect(inv.status).toBe(201);
    expect(inv.body.invoice_to_is_business).toBeNull();
    expect(inv.body.lines[0]).toMatchObject({
      subevent: day.body.id,
      period_start: '2031-09-01T08:00:00Z',
      period_end: '2031-09-01T08:00:00Z',
      tax_code: null,
    });
    expect((await post(`${S}/invoices/${inv.body.number as string}/reissue/`)).status).toBe(204);
    const all = (await get(`${S}/invoices/?order=${code}&ordering=nr`)).body.results as Record<string, unknown>[];
    expect(all).toHaveLength(3);
    expect(all[1]).toMatchObject({
      is_cancellation: true,
      transmission_status: 'pending',
      transmission_type: 'email',
      transmission_provider: null,
      invoice_to_is_business: null,
    });
    expect((all[1].lines as Record<string, unknown>[])[0].period_start).toBe('2031-09-01T08:00:00Z');
  });

  it('filters order and number: repeatable, case-insensitive; refers case-insensitive', async () => {
    const a = await place(E, { positions: [{ item }] });
    const b = await place(E, { positions: [{ item }] });
    const na = (await post(`${E}/orders/${a}/create_invoice/`)).body.number as string;
    const nb = (await post(`${E}/orders/${b}/create_invoice/`)).body.number as string;
    const numbers = (q: string) =>
      get(`${E}/invoices/?${q}`).then((r) => (r.body.results as { number: string }[]).map((i) => i.number));
    expect(await numbers(`order=${a}&order=${b.toLowerCase()}`)).toEqual([na, nb]);
    expect(await numbers(`order=${a.toLowerCase()}`)).toEqual([na]);
    expect(await numbers(`number=${na.toLowerCase()}&number=${nb}`)).toEqual([na, nb]);
    expect(await numbers('number=NOPE')).toEqual([]);
    expect((await post(`${E}/invoices/${na}/reissue/`)).status).toBe(204);
    const refers = await numbers(`refers=${na.toLowerCase()}`);
    expect(refers).toHaveLength(1);
    expect(refers[0]).not.toBe(na);
  });

  it('create_invoice: a free order cannot get one (400, nothing written); one after a reissue-less cancellation', async () => {
    const code = await place(E, { positions: [{ item: free }] });
    const res = await post(`${E}/orders/${code}/create_invoice/`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'You cannot generate an invoice for this order.' });
    expect(await t.db.query('SELECT id FROM invoice WHERE order_code = $1', [code])).toEqual([]);

    // As many cancellations as invoices on a paid order: a new invoice may be made (pretix `has_inv`).
    const paid = await place(E, { positions: [{ item }] });
    const first = await post(`${E}/orders/${paid}/create_invoice/`);
    expect(first.status).toBe(201);
    await t.db.query(`UPDATE invoice SET is_cancellation = true WHERE number = $1`, [first.body.number]);
    await t.db.query(
      `INSERT INTO invoice (organizer_id, event_id, order_id, order_code, prefix, invoice_no, number,
                            is_cancellation, date, locale, currency, texts, lines)
       SELECT organizer_id, event_id, order_id, order_code, prefix, 99999, prefix || '99999', false, date, locale,
              currency, texts, lines FROM invoice WHERE number = $1`,
      [first.body.number],
    );
    // Now one cancellation and one invoice: may make one more.
    const second = await post(`${E}/orders/${paid}/create_invoice/`);
    expect(second.status).toBe(201);
    // Two invoices, one cancellation: refused.
    const third = await post(`${E}/orders/${paid}/create_invoice/`);
    expect(third.status).toBe(400);
    expect(third.body).toEqual({ detail: 'An invoice for this order already exists.' });
  });
});
