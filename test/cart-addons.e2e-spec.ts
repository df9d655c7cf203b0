import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Add-ons of API cart positions (`POST E/cartpositions/` with `addons`; compat §3.2, §3.12): created in the
 * parent's cart and linked to it, checked against the item's add-on configurations (category, min/max count,
 * multi_allowed; price included), drawing quota like the parent, in one transaction.
 */
describe('cart positions: add-ons', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const post = (path: string, body: unknown) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(token))
      .send(body as object);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  const del = (path: string) => t.http().delete(path).set('Authorization', auth(token));
  async function ok(res: { status: number; body: unknown }, status = 201): Promise<Record<string, unknown>> {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown>;
  }
  let ticket: number;
  let vip: number;
  let shirt: number;
  let bag: number;
  let bagQuota: number;
  const count = async () =>
    (await t.db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM cart_position'))[0].n;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    const extras = (await ok(await post(`${E}/categories/`, { name: 'Extras', is_addon: true })))
      .id as number;
    const item = async (name: string, price: string, category?: number) =>
      (await ok(await post(`${E}/items/`, { name, default_price: price, category: category ?? null })))
        .id as number;
    ticket = await item('Ticket', '10.00');
    vip = await item('VIP', '50.00');
    shirt = await item('Shirt', '5.00', extras);
    bag = await item('Bag', '3.00', extras);
    await ok(await post(`${E}/quotas/`, { name: 'Main', size: 100, items: [ticket, vip, shirt] }));
    bagQuota = (await ok(await post(`${E}/quotas/`, { name: 'Bags', size: 1, items: [bag] }))).id as number;
    await ok(
      await post(`${E}/items/${ticket}/addons/`, { addon_category: extras, min_count: 0, max_count: 2 }),
    );
    await ok(
      await post(`${E}/items/${vip}/addons/`, {
        addon_category: extras,
        min_count: 1,
        max_count: 3,
        price_included: true,
        multi_allowed: true,
      }),
    );
  });
  afterAll(() => t.close());

  it('creates the add-ons in the parent cart, linked to it; a missing price is the listed one', async () => {
    const res = await ok(
      await post(`${E}/cartpositions/`, {
        item: ticket,
        price: '10.00',
        expires: '2031-01-01T10:00:00Z',
        addons: [
          { item: shirt, attendee_name: 'Ann' },
          { item: bag, price: '1.50' },
        ],
      }),
    );
    const addons = res.addons as Record<string, unknown>[];
    expect(addons).toHaveLength(2);
    for (const a of addons) {
      expect(a).toMatchObject({ addon_to: res.id, cart_id: res.cart_id, expires: '2031-01-01T10:00:00Z' });
    }
    expect(addons.map((a) => [a.item, a.price, a.attendee_name])).toEqual([
      [shirt, '5.00', 'Ann'],
      [bag, '1.50', null],
    ]);
    expect(res.bundled).toEqual([]);
    for (const a of addons) {
      const { addons: _a, bundled: _b, ...shown } = a;
      expect((await get(`${E}/cartpositions/${a.id as number}/`)).body).toEqual(shown);
    }
    // The bag took the last place of its quota.
    const avail = await get(`${E}/quotas/${bagQuota}/availability/`);
    expect(avail.body).toMatchObject({ cart_positions: 1, available_number: 0 });
    // Deleting the parent deletes its add-ons.
    expect((await del(`${E}/cartpositions/${res.id as number}/`)).status).toBe(204);
    expect((await get(`${E}/cartpositions/${addons[0].id as number}/`)).status).toBe(404);
    expect((await get(`${E}/quotas/${bagQuota}/availability/`)).body).toMatchObject({ available_number: 1 });
  });

  it('prices add-ons of a configuration that includes the price at 0 (a sent price wins)', async () => {
    const res = await ok(
      await post(`${E}/cartpositions/`, {
        item: vip,
        price: '50.00',
        addons: [{ item: shirt }, { item: shirt, price: '2.00' }],
      }),
    );
    expect((res.addons as { price: string }[]).map((a) => a.price)).toEqual(['0.00', '2.00']);
    await del(`${E}/cartpositions/${res.id as number}/`);
  });

  it('refuses add-ons against the configuration, invalid add-on entries and lacking quota; nothing is written', async () => {
    const before = await count();
    const cases: [object, unknown][] = [
      [
        { item: ticket, price: '1', addons: [{ item: vip }] },
        { addons: ['The product "VIP" can not be used as an add-on product for "Ticket".'] },
      ],
      [
        { item: ticket, price: '1', addons: [{ item: shirt }, { item: bag }, { item: shirt }] },
        { addons: ['You can select at most 2 add-ons from the category Extras for the product Ticket.'] },
      ],
      [
        { item: ticket, price: '1', addons: [{ item: shirt }, { item: shirt }] },
        {
          addons: [
            'You can select every add-ons from the category Extras for the product Ticket at most once.',
          ],
        },
      ],
      [
        { item: vip, price: '1', addons: [] },
        { addons: ['You need to select at least 1 add-ons from the category Extras for the product VIP.'] },
      ],
      [
        { item: ticket, price: '1', addons: [{ item: shirt }, { item: 999999 }] },
        { addons: [{}, { item: ['Invalid pk "999999" - object does not exist.'] }] },
      ],
      [
        { item: ticket, price: '1', addons: [{ price: '1' }] },
        { addons: [{ item: ['This field is required.'] }] },
      ],
      [{ item: ticket, price: '1', addons: [{ item: bag }, { item: shirt }] }, null],
    ];
    // The last case fits once; occupy the bag's only place first so that it lacks quota.
    const holder = await ok(
      await post(`${E}/cartpositions/`, { item: ticket, price: '1', addons: [{ item: bag }] }),
    );
    cases[cases.length - 1][1] = [
      'There is not enough quota available on quota "Bags" to perform the operation.',
    ];
    const start = await count();
    expect(start).toBe(before + 2);
    for (const [body, errors] of cases) {
      const res = await post(`${E}/cartpositions/`, body);
      expect([body, res.status, res.body]).toEqual([body, 400, errors]);
    }
    expect(await count()).toBe(start);
    await del(`${E}/cartpositions/${holder.id as number}/`);
    // Without `addons`, an item whose configuration needs add-ons is still accepted (min_count is checked on sent add-ons).
    const plain = await ok(await post(`${E}/cartpositions/`, { item: vip, price: '1' }));
    expect(plain.addons).toEqual([]);
  });

  it('bulk_create refuses entries with add-ons, creating the others', async () => {
    const res = await post(`${E}/cartpositions/bulk_create/`, [
      { item: ticket, price: '1', addons: [{ item: shirt }] },
      { item: ticket, price: '1' },
    ]);
    expect(res.status).toBe(200);
    const results = res.body.results as { success: boolean; errors: unknown }[];
    expect(results.map((r) => r.success)).toEqual([false, true]);
    expect(results[0].errors).toEqual({
      addons: [
        'Add-on products are not supported by bulk_create; create this position with POST …/cartpositions/.',
      ],
    });
  });
});
