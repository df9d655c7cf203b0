import { auth, bootstrapOrganizer, createSeries } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * `item_price_overrides[]` / `variation_price_overrides[]` of a date carry `disabled`, `available_from` and
 * `available_until` (pretix 2026 `SubEventItemSerializer`; compat §3.17): written on create, PUT and PATCH,
 * answered on reads, and enforced by order creation and cart positions with pretix's message.
 */
describe('sub-event override availability', () => {
  let t: TestApp;
  let token: string;
  const S = '/api/v1/organizers/org/events/series';
  const send = (method: 'post' | 'patch' | 'put', path: string, body: object) =>
    t.http()[method](path).set('Authorization', auth(token)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  let item: number;
  let shirt: number;
  let size: number;
  let day: number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createSeries(t, token, 'org', { slug: 'series' });
    item = (await send('post', `${S}/items/`, { name: 'Budget Ticket', default_price: '10.00' })).body.id;
    const s = await send('post', `${S}/items/`, {
      name: 'Shirt',
      default_price: '20.00',
      variations: [{ value: 'S' }],
    });
    shirt = s.body.id;
    size = s.body.variations[0].id;
    const res = await send('post', `${S}/subevents/`, {
      name: { en: 'Day' },
      date_from: '2030-01-01T18:00:00Z',
      active: true,
      item_price_overrides: [{ item, price: '12.00', disabled: true }],
      variation_price_overrides: [
        { variation: size, price: null, available_until: '2001-01-01T00:00:00+01:00' },
      ],
    });
    expect(res.status).toBe(201);
    day = res.body.id;
    expect(res.body.item_price_overrides).toEqual([
      { item, price: '12.00', disabled: true, available_from: null, available_until: null },
    ]);
    expect(res.body.variation_price_overrides).toEqual([
      {
        variation: size,
        price: null,
        disabled: false,
        available_from: null,
        available_until: '2000-12-31T23:00:00Z',
      },
    ]);
    const quota = await send('post', `${S}/quotas/`, {
      name: 'Q',
      size: 10,
      items: [item, shirt],
      variations: [size],
      subevent: day,
    });
    expect(quota.status).toBe(201);
  });
  afterAll(() => t.close());

  const notOnDate = (name: string) => `The product "${name}" is not available on this date.`;

  it('orders and carts refuse a disabled item and a variation outside its window', async () => {
    const order = await send('post', `${S}/orders/`, { positions: [{ item, subevent: day }] });
    expect(order.status).toBe(400);
    expect(order.body).toEqual({ positions: [{ item: [notOnDate('Budget Ticket')] }] });
    const variation = await send('post', `${S}/orders/`, {
      positions: [{ item: shirt, variation: size, subevent: day }],
    });
    expect(variation.status).toBe(400);
    expect(variation.body).toEqual({ positions: [{ item: [notOnDate('Shirt')] }] });
    const cart = await send('post', `${S}/cartpositions/`, { item, subevent: day, price: '12.00' });
    expect(cart.status).toBe(400);
    expect(cart.body).toEqual({ item: [notOnDate('Budget Ticket')] });
    // force skips the rule, as in pretix
    const forced = await send('post', `${S}/orders/`, { force: true, positions: [{ item, subevent: day }] });
    expect(forced.status).toBe(201);
    expect(forced.body.positions[0].price).toBe('12.00');
    expect((await get(`${S}/orders/`)).body.count).toBe(1);
  });

  it('PATCH replaces the lists; a future window refuses, an open one sells', async () => {
    const future = await send('patch', `${S}/subevents/${day}/`, {
      item_price_overrides: [{ item, available_from: '2999-01-01T00:00:00Z' }],
    });
    expect(future.status).toBe(200);
    expect(future.body.item_price_overrides).toEqual([
      { item, price: null, disabled: false, available_from: '2999-01-01T00:00:00Z', available_until: null },
    ]);
    // the variation list was not sent: kept
    expect(future.body.variation_price_overrides).toHaveLength(1);
    const refused = await send('post', `${S}/orders/`, { positions: [{ item, subevent: day }] });
    expect(refused.body).toEqual({ positions: [{ item: [notOnDate('Budget Ticket')] }] });

    const open = await send('patch', `${S}/subevents/${day}/`, {
      item_price_overrides: [
        { item, price: '11.00', available_from: '2000-01-01T00:00:00Z', available_until: null },
      ],
      variation_price_overrides: [],
    });
    expect(open.status).toBe(200);
    const sold = await send('post', `${S}/orders/`, {
      positions: [
        { item, subevent: day },
        { item: shirt, variation: size, subevent: day },
      ],
    });
    expect(sold.status).toBe(201);
    expect(sold.body.positions.map((p: { price: string }) => p.price)).toEqual(['11.00', '20.00']);
    const cart = await send('post', `${S}/cartpositions/`, { item, subevent: day, price: '11.00' });
    expect(cart.status).toBe(201);
    const read = await get(`${S}/subevents/${day}/`);
    expect(read.body.item_price_overrides).toEqual([
      {
        item,
        price: '11.00',
        disabled: false,
        available_from: '2000-01-01T00:00:00Z',
        available_until: null,
      },
    ]);
    expect(read.body.variation_price_overrides).toEqual([]);
  });

  it('PUT resets omitted entry fields to their defaults; bad values are 400 naming the field', async () => {
    const put = await send('put', `${S}/subevents/${day}/`, {
      name: { en: 'Day' },
      date_from: '2030-01-01T18:00:00Z',
      active: true,
      item_price_overrides: [{ item }],
    });
    expect(put.status).toBe(200);
    expect(put.body.item_price_overrides).toEqual([
      { item, price: null, disabled: false, available_from: null, available_until: null },
    ]);
    const bad = await send('patch', `${S}/subevents/${day}/`, {
      item_price_overrides: [{ item, disabled: 'maybe', available_from: 'soon' }],
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.item_price_overrides[0]).sort()).toEqual(['available_from', 'disabled']);
    const after = await get(`${S}/subevents/${day}/`);
    expect(after.body.item_price_overrides[0].disabled).toBe(false);
  });
});
