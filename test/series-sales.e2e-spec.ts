import { auth, bootstrapOrganizer, createEvent, createSeries } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Selling on an event series (spec "Sub-event"; compat §3.17): quotas, orders and cart positions take a date of
 * the series (400 without one, for a date of another event, and for a date on a single event); each date's quota
 * counts only its own sales; an order's price applies the date's price override.
 */
describe('selling on a series', () => {
  let t: TestApp;
  let token: string;
  const S = '/api/v1/organizers/org/events/series';
  const post = (path: string, body: object) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  let item: number;
  let day1: number;
  let day2: number;
  let quota1: number;
  let quota2: number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createSeries(t, token, 'org', { slug: 'series' });
    await createEvent(t, token, 'org', { slug: 'single' });
    item = (await post(`${S}/items/`, { name: 'Ticket', default_price: '10.00' })).body.id;
    const date = async (day: string, overrides: object[] = []) => {
      const res = await post(`${S}/subevents/`, {
        name: { en: day },
        date_from: `2030-01-0${day === 'Day 1' ? 1 : 2}T18:00:00Z`,
        active: true,
        item_price_overrides: overrides,
      });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    day1 = await date('Day 1');
    day2 = await date('Day 2', [{ item, price: '15.00' }]);
    const quota = async (subevent: number) => {
      const res = await post(`${S}/quotas/`, { name: `Q${subevent}`, size: 2, items: [item], subevent });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    quota1 = await quota(day1);
    quota2 = await quota(day2);
  });
  afterAll(() => t.close());

  it('a quota of a series needs a date of that series', async () => {
    expect((await post(`${S}/quotas/`, { name: 'No date', size: 1, items: [item] })).status).toBe(400);
    const single = await post('/api/v1/organizers/org/events/single/quotas/', {
      name: 'Dated',
      size: 1,
      items: [],
      subevent: day1,
    });
    expect(single.status).toBe(400);
    expect(single.body).toEqual({ non_field_errors: ['The subevent does not belong to a event series.'] });
  });

  it('orders need a date, are priced with its override and count on its quota only', async () => {
    const none = await post(`${S}/orders/`, { positions: [{ item }] });
    expect(none.status).toBe(400);
    expect(none.body.positions[0]).toHaveProperty('subevent');
    const foreign = await post('/api/v1/organizers/org/events/single/orders/', {
      positions: [{ item, subevent: day1 }],
    });
    expect(foreign.status).toBe(400);

    const first = await post(`${S}/orders/`, { positions: [{ item, subevent: day1 }] });
    expect(first.status).toBe(201);
    expect(first.body.positions[0]).toMatchObject({ subevent: day1, price: '10.00' });
    const second = await post(`${S}/orders/`, { positions: [{ item, subevent: day2 }] });
    expect(second.status).toBe(201);
    expect(second.body.positions[0]).toMatchObject({ subevent: day2, price: '15.00' });

    expect((await get(`${S}/quotas/${quota1}/availability/`)).body).toMatchObject({
      pending_orders: 1,
      available_number: 1,
    });
    expect((await get(`${S}/quotas/${quota2}/availability/`)).body).toMatchObject({
      pending_orders: 1,
      available_number: 1,
    });
  });

  it("cart positions take a date and fill only that date's quota", async () => {
    expect((await post(`${S}/cartpositions/`, { item, price: '10.00' })).status).toBe(400);
    const cart = await post(`${S}/cartpositions/`, { item, price: '10.00', subevent: day1 });
    expect(cart.status).toBe(201);
    expect((await get(`${S}/quotas/${quota1}/availability/`)).body).toMatchObject({
      cart_positions: 1,
      available_number: 0,
    });
    const full = await post(`${S}/orders/`, { positions: [{ item, subevent: day1 }] });
    expect(full.status).toBe(400);
    expect((await post(`${S}/orders/`, { positions: [{ item, subevent: day2 }] })).status).toBe(201);
  });
});
