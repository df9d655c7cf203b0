import type { Response } from 'supertest';
import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { sampleLayout } from './seating-fixtures';

interface SeatJson {
  id: number;
  seat_guid: string;
  blocked: boolean;
  orderposition: number | Record<string, unknown> | null;
  cartposition: number | Record<string, unknown> | null;
  voucher: number | Record<string, unknown> | null;
}

/**
 * Seated sales (compat §3.2, §4.4, §3.18; README "Selling without overselling"): orders and cart positions take a
 * seat by guid (required for a seated product, refused for others, of the event or of the position's date), a seat
 * is sold or reserved once, blocked seats are not for sale, the positions show their seat object, seats show what
 * holds them (`expand` included) and `is_available`, canceling or expiring an order frees its seats, and a plan
 * change cannot drop a sold seat.
 */
describe('seated sales', () => {
  let t: TestApp;
  let token: string;
  let stalls: number;
  let balcony: number;
  let plain: number;
  let seriesStalls: number;
  let day1: number;
  let day2: number;
  let plan: number;
  const E = '/api/v1/organizers/org/events/sample';
  const S = '/api/v1/organizers/org/events/series';
  const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object, tok = token) => {
    const req = t.http()[method](path).set('Authorization', auth(tok));
    return body ? req.send(body) : req;
  };
  async function ok(res: Response, status = 201) {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
  const seat = async (guid: string, base = E): Promise<SeatJson> =>
    ((await ok(await call('get', `${base}/seats/?seat_guid=${guid}`), 200)).results as SeatJson[])[0];
  const order = (positions: object[], base = E) =>
    call('post', `${base}/orders/`, { email: 'a@example.org', positions });
  const unavailable = (name: string) => `The selected seat "${name}" is not available.`;
  const liveHolders = async (seatId: number) =>
    (
      await t.db.query<{ orders: number; carts: number }[]>(
        `SELECT (SELECT count(*)::int FROM order_position WHERE live_seat_id = $1) AS orders,
                (SELECT count(*)::int FROM cart_position WHERE seat_id = $1) AS carts`,
        [seatId],
      )
    )[0];

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createSeries(t, token, 'org', { slug: 'series' });
    const item = async (base: string, name: string) =>
      (await ok(await call('post', `${base}/items/`, { name: { en: name }, default_price: '10.00' })))
        .id as number;
    stalls = await item(E, 'Stalls');
    balcony = await item(E, 'Balcony');
    plain = await item(E, 'Parking');
    await ok(await call('post', `${E}/quotas/`, { name: 'All', size: 100, items: [stalls, balcony, plain] }));
    plan = (
      await ok(
        await call('post', '/api/v1/organizers/org/seatingplans/', {
          name: 'Hall',
          layout: sampleLayout(2, 3),
        }),
      )
    ).id as number;
    await ok(
      await call('patch', `${E}/`, {
        seating_plan: plan,
        seat_category_mapping: { Stalls: stalls, Balcony: balcony },
      }),
      200,
    );
    seriesStalls = await item(S, 'Stalls');
    const date = async () =>
      (
        await ok(
          await call('post', `${S}/subevents/`, {
            name: { en: 'Day' },
            date_from: '2030-01-01T19:00:00Z',
            seating_plan: plan,
            seat_category_mapping: { Stalls: seriesStalls },
          }),
        )
      ).id as number;
    day1 = await date();
    day2 = await date();
    for (const d of [day1, day2]) {
      await ok(
        await call('post', `${S}/quotas/`, { name: 'Day', size: 100, items: [seriesStalls], subevent: d }),
      );
    }
  });
  afterAll(() => t.close());

  it('refuses a missing seat, a seat for an unseated product, an unknown, foreign-product or blocked seat', async () => {
    const cases: [object, string][] = [
      [{ item: stalls }, 'The specified product requires to choose a seat.'],
      [{ item: plain, seat: 'r1-s1' }, 'The specified product does not allow to choose a seat.'],
      [{ item: stalls, seat: 'nope' }, 'The specified seat does not exist.'],
      [{ item: stalls, seat: 'r2-s1' }, unavailable('Main, Row 2, Seat 1')],
    ];
    for (const [position, message] of cases) {
      const res = await order([position]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ positions: [{ seat: [message] }] });
    }
    const blocked = await seat('r1-s3');
    await ok(await call('patch', `${E}/seats/${blocked.id}/`, { blocked: true }), 200);
    const res = await order([{ item: stalls, seat: 'r1-s3' }]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ positions: [{ seat: [unavailable('Main, Front, Seat 3')] }] });
    const twice = await order([
      { item: stalls, seat: 'r1-s1' },
      { item: stalls, seat: 'r1-s1' },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({
      positions: [{}, { seat: ['You can not select the same seat multiple times.'] }],
    });
    const rows: { n: number }[] = await t.db.query('SELECT count(*)::int AS n FROM order_position');
    expect(rows[0].n).toBe(0);
    // An unseated product sells without a seat.
    expect((await order([{ item: plain }])).status).toBe(201);
  });

  it('sells a seat once: the position shows it, the seat shows its position and is no longer available', async () => {
    const before = await seat('r1-s2');
    const body = await ok(await order([{ item: stalls, seat: 'r1-s2' }]));
    const position = body.positions[0];
    expect(position.seat).toEqual({ id: before.id, name: 'Main, Front, Seat 2', seat_guid: 'r1-s2' });
    const shown = await ok(await call('get', `${E}/orders/${body.code}/`), 200);
    expect(shown.positions[0].seat).toEqual(position.seat);
    expect((await ok(await call('get', `${E}/orderpositions/${position.id}/`), 200)).seat).toEqual(
      position.seat,
    );
    const after = await seat('r1-s2');
    expect(after).toMatchObject({ orderposition: position.id, cartposition: null, voucher: null });
    const unavailableIds = (
      (await ok(await call('get', `${E}/seats/?is_available=false`), 200)).results as SeatJson[]
    ).map((s) => s.seat_guid);
    expect(unavailableIds).toEqual(['r1-s2', 'r1-s3']);
    const again = await order([{ item: stalls, seat: 'r1-s2' }]);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ positions: [{ seat: [unavailable('Main, Front, Seat 2')] }] });
    expect(await liveHolders(before.id)).toEqual({ orders: 1, carts: 0 });
    // expand: the order position with `order` as {code, event} and without `seat`.
    const expanded = (await ok(
      await call('get', `${E}/seats/${before.id}/?expand=orderposition`),
      200,
    )) as SeatJson;
    const nested = expanded.orderposition as Record<string, unknown>;
    expect(nested).toMatchObject({
      id: position.id,
      order: { code: body.code, event: 'sample' },
      item: stalls,
    });
    expect(nested).not.toHaveProperty('seat');
    const viewer = await teamToken(t, 'org', {
      allEvents: true,
      eventPermissions: ['event.settings.general:read'],
    });
    expect(
      (await call('get', `${E}/seats/${before.id}/?expand=orderposition`, undefined, viewer)).status,
    ).toBe(403);
  });

  it('canceling or expiring an order frees its seats; reviving a canceled order whose seat was resold is refused', async () => {
    const first = await ok(await order([{ item: stalls, seat: 'r1-s1' }]));
    const seatId = first.positions[0].seat.id as number;
    await ok(await call('post', `${E}/orders/${first.code}/mark_canceled/`, { send_email: false }), 200);
    expect(await seat('r1-s1')).toMatchObject({ orderposition: null });
    expect(await liveHolders(seatId)).toEqual({ orders: 0, carts: 0 });
    const canceled = await ok(
      await call('get', `${E}/orders/${first.code}/?include_canceled_positions=true`),
      200,
    );
    expect(canceled.positions[0].seat).toEqual({
      id: seatId,
      name: 'Main, Front, Seat 1',
      seat_guid: 'r1-s1',
    });
    const second = await ok(await order([{ item: stalls, seat: 'r1-s1' }]));
    expect((await seat('r1-s1')).orderposition).toBe(second.positions[0].id);
    const revive = await call('post', `${E}/orders/${first.code}/reactivate/`, {});
    expect(revive.status).toBe(400);
    expect((await ok(await call('get', `${E}/orders/${first.code}/`), 200)).status).toBe('c');
    expect(await liveHolders(seatId)).toEqual({ orders: 1, carts: 0 });
    await ok(await call('post', `${E}/orders/${second.code}/mark_expired/`, {}), 200);
    expect(await seat('r1-s1')).toMatchObject({ orderposition: null });
    expect((await ok(await call('get', `${E}/seats/?is_available=true&seat_guid=r1-s1`), 200)).count).toBe(1);
    const third = await ok(await order([{ item: stalls, seat: 'r1-s1' }]));
    expect((await seat('r1-s1')).orderposition).toBe(third.positions[0].id);
  });

  it('cart positions reserve seats: required for seated products, once, shown both ways, freed on delete', async () => {
    const missing = await call('post', `${E}/cartpositions/`, { item: balcony, price: '10.00' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ seat: ['The specified product requires to choose a seat.'] });
    const notAllowed = await call('post', `${E}/cartpositions/`, {
      item: plain,
      price: '10.00',
      seat: 'r2-s1',
    });
    expect(notAllowed.body).toEqual({ seat: ['The specified product does not allow to choose a seat.'] });
    const cart = await ok(
      await call('post', `${E}/cartpositions/`, { item: balcony, price: '10.00', seat: 'r2-s1' }),
    );
    const seatId = (await seat('r2-s1')).id;
    expect(cart.seat).toEqual({ id: seatId, name: 'Main, Row 2, Seat 1', seat_guid: 'r2-s1' });
    expect((await ok(await call('get', `${E}/cartpositions/${cart.id}/`), 200)).seat).toEqual(cart.seat);
    expect(await seat('r2-s1')).toMatchObject({ cartposition: cart.id, orderposition: null });
    const expanded = (await ok(
      await call('get', `${E}/seats/${seatId}/?expand=cartposition`),
      200,
    )) as SeatJson;
    expect(expanded.cartposition).toMatchObject({ id: cart.id, cart_id: cart.cart_id, item: balcony });
    const taken = await call('post', `${E}/cartpositions/`, { item: balcony, price: '10.00', seat: 'r2-s1' });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ seat: [unavailable('Main, Row 2, Seat 1')] });
    const ordered = await order([{ item: balcony, seat: 'r2-s1' }]);
    expect(ordered.body).toEqual({ positions: [{ seat: [unavailable('Main, Row 2, Seat 1')] }] });
    // The cart's own order takes it over.
    const consumed = await ok(
      await call('post', `${E}/orders/`, {
        positions: [{ item: balcony, seat: 'r2-s1' }],
        consume_carts: [cart.cart_id],
      }),
    );
    expect(await seat('r2-s1')).toMatchObject({
      orderposition: consumed.positions[0].id,
      cartposition: null,
    });
    expect(await liveHolders(seatId)).toEqual({ orders: 1, carts: 0 });
    // Bulk: the same seat twice, a taken one, and a free one.
    const bulk = await ok(
      await call('post', `${E}/cartpositions/bulk_create/`, [
        { item: balcony, price: '10.00', seat: 'r2-s2' },
        { item: balcony, price: '10.00', seat: 'r2-s2' },
        { item: balcony, price: '10.00', seat: 'r2-s1' },
      ]),
      200,
    );
    expect(bulk.results.map((r: { success: boolean }) => r.success)).toEqual([true, false, false]);
    expect(bulk.results[1].errors).toEqual({ seat: ['You can not select the same seat multiple times.'] });
    expect(bulk.results[2].errors).toEqual({ seat: [unavailable('Main, Row 2, Seat 1')] });
    const r2s2 = await seat('r2-s2');
    expect(r2s2.cartposition).toBe(bulk.results[0].data.id);
    expect((await call('delete', `${E}/cartpositions/${bulk.results[0].data.id}/`)).status).toBe(204);
    expect(await seat('r2-s2')).toMatchObject({ cartposition: null });
    // An expired cart position does not hold its seat.
    const expired = await ok(
      await call('post', `${E}/cartpositions/`, {
        item: balcony,
        price: '10.00',
        seat: 'r2-s3',
        expires: '2020-01-01T00:00:00Z',
      }),
    );
    expect(expired.seat.seat_guid).toBe('r2-s3');
    expect((await seat('r2-s3')).cartposition).toBeNull();
    const fresh = await ok(
      await call('post', `${E}/cartpositions/`, { item: balcony, price: '10.00', seat: 'r2-s3' }),
    );
    expect((await seat('r2-s3')).cartposition).toBe(fresh.id);
  });

  it('on a series, the seat is one of the position date; each date sells its own seats', async () => {
    const a = await ok(await order([{ item: seriesStalls, subevent: day1, seat: 'r1-s1' }], S));
    const b = await ok(await order([{ item: seriesStalls, subevent: day2, seat: 'r1-s1' }], S));
    const seat1 = await seat('r1-s1', `${S}/subevents/${day1}`);
    const seat2 = await seat('r1-s1', `${S}/subevents/${day2}`);
    expect(a.positions[0].seat.id).toBe(seat1.id);
    expect(b.positions[0].seat.id).toBe(seat2.id);
    expect(seat1.orderposition).toBe(a.positions[0].id);
    expect(seat2.orderposition).toBe(b.positions[0].id);
    const again = await order([{ item: seriesStalls, subevent: day1, seat: 'r1-s1' }], S);
    expect(again.body).toEqual({ positions: [{ seat: [unavailable('Main, Front, Seat 1')] }] });
    const balconyOnDate = await order([{ item: seriesStalls, subevent: day1, seat: 'r2-s1' }], S);
    // The date maps only Stalls: a Balcony seat sells nothing.
    expect(balconyOnDate.body).toEqual({ positions: [{ seat: [unavailable('Main, Row 2, Seat 1')] }] });
    const otherEvent = await order([{ item: seriesStalls, subevent: day1, seat: 'nope' }], S);
    expect(otherEvent.body).toEqual({ positions: [{ seat: ['The specified seat does not exist.'] }] });
  });

  it('a voucher bound to a seat reserves it (blocked seats too) and sells it to its holder only', async () => {
    const bad: [object, string][] = [
      [{ item: stalls, seat: 'nope' }, 'The specified seat ID "nope" does not exist.'],
      [{ item: stalls, seat: 'r1-s3', max_usages: 2 }, 'Seat-specific vouchers can only be used once.'],
      [
        { item: stalls, seat: 'r1-s2' },
        'The seat "r1-s2" is currently unavailable (blocked, already sold or a different voucher).',
      ],
    ];
    for (const [body, message] of bad) {
      const res = await call('post', `${E}/vouchers/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ seat: [message] });
    }
    const wrongProduct = await call('post', `${E}/vouchers/`, { item: balcony, seat: 'r1-s3' });
    expect(wrongProduct.status).toBe(400);
    expect(wrongProduct.body.seat[0]).toMatch(/^You need to choose the product ".*" for this seat\.$/);
    const noDate = await call('post', `${S}/vouchers/`, { item: seriesStalls, seat: 'r1-s2' });
    expect(noDate.body).toEqual({ seat: ['You need to choose a date if you want to select a seat.'] });
    // r1-s3 is blocked: a voucher may still be bound to it.
    const voucher = await ok(
      await call('post', `${E}/vouchers/`, { code: 'SEAT-R1S3', item: stalls, seat: 'r1-s3' }),
    );
    expect(voucher.seat).toBe('r1-s3');
    expect((await ok(await call('get', `${E}/vouchers/${voucher.id}/`), 200)).seat).toBe('r1-s3');
    const seatId = (await seat('r1-s3')).id;
    expect(await seat('r1-s3')).toMatchObject({ voucher: voucher.id, orderposition: null });
    const expanded = (await ok(await call('get', `${E}/seats/${seatId}/?expand=voucher`), 200)) as SeatJson;
    expect(expanded.voucher).toMatchObject({
      id: voucher.id,
      code: 'SEAT-R1S3',
      seat: 'r1-s3',
      item: stalls,
    });
    const rows: { seat_id: number }[] = await t.db.query('SELECT seat_id FROM voucher WHERE id = $1', [
      voucher.id,
    ]);
    expect(rows[0].seat_id).toBe(seatId);
    const second = await call('post', `${E}/vouchers/`, { item: stalls, seat: 'r1-s3' });
    expect(second.body).toEqual({
      seat: ['The seat "r1-s3" is currently unavailable (blocked, already sold or a different voucher).'],
    });
    // A PATCH that does not send `seat` keeps it.
    expect(
      (await ok(await call('patch', `${E}/vouchers/${voucher.id}/`, { comment: 'VIP' }), 200)).seat,
    ).toBe('r1-s3');
    // Without the voucher the seat is not for sale; the voucher is not valid for another seat.
    const without = await order([{ item: stalls, seat: 'r1-s3' }]);
    expect(without.body).toEqual({ positions: [{ seat: [unavailable('Main, Front, Seat 3')] }] });
    const cart = await call('post', `${E}/cartpositions/`, { item: stalls, price: '10.00', seat: 'r1-s3' });
    expect(cart.body).toEqual({ seat: [unavailable('Main, Front, Seat 3')] });
    const elsewhere = await order([{ item: balcony, seat: 'r2-s2', voucher: voucher.id }]);
    expect(elsewhere.status).toBe(400);
    const sold = await ok(await order([{ item: stalls, seat: 'r1-s3', voucher: voucher.id }]));
    expect(sold.positions[0].seat.seat_guid).toBe('r1-s3');
    const batch = await call('post', `${E}/vouchers/batch_create/`, [
      { item: balcony, seat: 'r2-s2' },
      { item: balcony, seat: 'r2-s2' },
    ]);
    expect(batch.status).toBe(400);
    expect(batch.body).toEqual([{}, { code: ['Duplicate seat ID in request.'] }]);
    expect((await seat('r2-s2')).voucher).toBeNull();
    // Redeemed: the order position holds the seat now, the voucher no more.
    expect(await seat('r1-s3')).toMatchObject({ orderposition: sold.positions[0].id, voucher: null });
  });

  it('a plan change cannot drop a sold seat', async () => {
    const small = (
      await ok(
        await call('post', '/api/v1/organizers/org/seatingplans/', {
          name: 'Small',
          layout: sampleLayout(1, 1),
        }),
      )
    ).id as number;
    const res = await call('patch', `${E}/`, { seating_plan: small });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      seating_plan: [
        'You can not change the plan since seat "r1-s2" is not present in the new plan and is already sold.',
      ],
    });
    expect((await ok(await call('get', `${E}/`), 200)).seating_plan).toBe(plan);
    expect((await ok(await call('get', `${E}/seats/`), 200)).count).toBe(6);
  });
});
