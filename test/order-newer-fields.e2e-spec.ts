import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Fields pretix added to orders since 2024 (compat §4.4; pretix 2024.1 `expires` on create, 2025.1 `tax_code`,
 * 2025.2 `plugin_data`, 2025.10 `tax_rounding_mode`).
 */
describe('orders: fields added since 2024', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const post = (path: string, body: object) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const patch = (path: string, body: object) =>
    t.http().patch(path).set('Authorization', auth(token)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  let item: number;
  let rule: number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    const tax = await post(`${E}/taxrules/`, { name: { en: 'VAT' }, rate: '19.00', code: 'S/standard' });
    expect(tax.status).toBe(201);
    rule = tax.body.id;
    item = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00', tax_rule: rule })).body.id;
    await post(`${E}/quotas/`, { name: 'Q', size: null, items: [item] });
  });
  afterAll(() => t.close());

  it('defaults: tax_rounding_mode line, plugin_data {}, tax_code from the tax rule on positions and fees', async () => {
    const res = await post(`${E}/orders/`, {
      positions: [{ item }],
      fees: [
        { fee_type: 'service', value: '2.00', tax_rule: rule },
        { fee_type: 'other', value: '1.00' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ tax_rounding_mode: 'line', plugin_data: {} });
    expect(res.body.positions[0]).toMatchObject({
      tax_rule: rule,
      tax_code: 'S/standard',
      tax_rate: '19.00',
    });
    expect(res.body.fees.map((f: { tax_code: string | null }) => f.tax_code)).toEqual(['S/standard', null]);
    expect((await get(`${E}/orders/${res.body.code}/`)).body).toEqual(res.body);
  });

  it('takes tax_rounding_mode, plugin_data and expires on create; plugin_data on PATCH', async () => {
    const res = await post(`${E}/orders/`, {
      positions: [{ item }],
      tax_rounding_mode: 'sum_by_net',
      plugin_data: { shipping: { method: 'post' } },
      expires: '2031-05-01T12:00:00+02:00',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      tax_rounding_mode: 'sum_by_net',
      plugin_data: { shipping: { method: 'post' } },
      expires: '2031-05-01T10:00:00Z',
    });
    const patched = await patch(`${E}/orders/${res.body.code}/`, {
      plugin_data: { a: 1 },
      tax_rounding_mode: 'line',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ plugin_data: { a: 1 }, tax_rounding_mode: 'sum_by_net' });
    expect((await get(`${E}/orders/${res.body.code}/`)).body.plugin_data).toEqual({ a: 1 });
  });

  it('refuses an unknown rounding mode, a malformed expires and a plugin_data that is no object', async () => {
    for (const [body, field] of [
      [{ tax_rounding_mode: 'up' }, 'tax_rounding_mode'],
      [{ expires: 'soon' }, 'expires'],
      [{ plugin_data: [1] }, 'plugin_data'],
    ] as const) {
      const res = await post(`${E}/orders/`, { positions: [{ item }], ...body });
      expect([field, res.status, Object.keys(res.body as object)]).toEqual([field, 400, [field]]);
    }
  });
  it('invoice addresses carry transmission_type (default email) and transmission_info (pretix 2025.6)', async () => {
    const plain = await post(`${E}/orders/`, { positions: [{ item }], invoice_address: { name: 'Ann' } });
    expect(plain.status).toBe(201);
    expect(plain.body.invoice_address).toMatchObject({ transmission_type: 'email', transmission_info: {} });
    const res = await post(`${E}/orders/`, {
      positions: [{ item }],
      invoice_address: {
        is_business: true,
        company: 'ACME',
        transmission_type: 'email',
        transmission_info: {
          transmission_email_other: true,
          transmission_email_address: 'ap@acme.example',
          unknown_key: 'dropped',
        },
      },
    });
    expect(res.status).toBe(201);
    const info = { transmission_email_other: true, transmission_email_address: 'ap@acme.example' };
    expect(res.body.invoice_address).toMatchObject({ transmission_type: 'email', transmission_info: info });
    expect((await get(`${E}/orders/${res.body.code}/`)).body.invoice_address.transmission_info).toEqual(info);
    const patched = await patch(`${E}/orders/${res.body.code}/`, {
      invoice_address: {
        company: 'ACME',
        transmission_info: { transmission_email_address: 'inv@acme.example' },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.invoice_address.transmission_info).toEqual({
      transmission_email_address: 'inv@acme.example',
    });
  });

  it('refuses an unknown transmission type and a malformed transmission e-mail address, writing nothing', async () => {
    const before = (await get(`${E}/orders/`)).body.count;
    const unknown = await post(`${E}/orders/`, {
      positions: [{ item }],
      invoice_address: { transmission_type: 'peppol' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ invoice_address: { transmission_type: ['Unknown transmission type.'] } });
    const bad = await post(`${E}/orders/`, {
      positions: [{ item }],
      invoice_address: { transmission_info: { transmission_email_address: 'nope' } },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.invoice_address)).toEqual(['transmission_info']);
    expect((await get(`${E}/orders/`)).body.count).toBe(before);
  });
});
