import type { Response } from 'supertest';
import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { sampleLayout } from './seating-fixtures';

/**
 * `POST E/orderpositions/` and `DELETE E/orderpositions/{id}/` (compat §4.4; pretix
 * `OrderPositionCreateForExistingOrderSerializer` and the position's destroy), thin wrappers over the order
 * change; and the seats and dates of `POST E/orders/{code}/change/` (swaps, taken seats, a new date keeping the
 * seat's guid). Permission `event.orders:write`.
 */
describe('order position writes and seated changes', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const S = '/api/v1/organizers/org/events/series';
  const post = (path: string, body: object = {}, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  const del = (path: string, tok = token) => t.http().delete(path).set('Authorization', auth(tok));
  async function ok(res: Response, status = 201) {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
  type OrderBody = {
    code: string;
    total: string;
    positions: { id: number; positionid: number; seat: { seat_guid: string } | null; canceled: boolean }[];
  };
  const order = async (positions: object[], base = E) =>
    (await ok(await post(`${base}/orders/`, { email: 'a@example.org', positions }))) as OrderBody;

  let item: number;
  let quota: number;
  let stalls: number;
  let plain: number;
  let seriesStalls: number;
  let day1: number;
  let day2: number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createSeries(t, token, 'org', { slug: 'series' });
    const mk = async (base: string, name: string) =>
      (await ok(await post(`${base}/items/`, { name: { en: name }, default_price: '23.00' }))).id as number;
    item = await mk(E, 'Budget Ticket');
    quota = (await ok(await post(`${E}/quotas/`, { name: 'Budget Quota', size: 200, items: [item] })))
      .id as number;
    stalls = await mk(E, 'Stalls');
    plain = await mk(E, 'Parking');
    await ok(await post(`${E}/quotas/`, { name: 'Hall', size: 100, items: [stalls, plain] }));
    const plan = (
      await ok(
        await post('/api/v1/organizers/org/seatingplans/', { name: 'Hall', layout: sampleLayout(2, 3) }),
      )
    ).id as number;
    await ok(
      await t
        .http()
        .patch(`${E}/`)
        .set('Authorization', auth(token))
        .send({ seating_plan: plan, seat_category_mapping: { Stalls: stalls } }),
      200,
    );
    seriesStalls = await mk(S, 'Stalls');
    const date = async () =>
      (
        await ok(
          await post(`${S}/subevents/`, {
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
      await ok(await post(`${S}/quotas/`, { name: 'Day', size: 100, items: [seriesStalls], subevent: d }));
    }
  });
  afterAll(() => t.close());

  describe('POST E/orderpositions/', () => {
    it('adds a position at the listed price with attendee, answers and validity; 201 with the position', async () => {
      const o = await order([{ item }, { item }]);
      await ok(await del(`${E}/orderpositions/${o.positions[1].id}/`), 204);
      const res = await post(`${E}/orderpositions/`, {
        order: o.code,
        item,
        attendee_name: 'John Doe',
        valid_from: '2022-12-12T12:12:12+00:00',
        valid_until: '2022-12-12T13:12:12+00:00',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        order: o.code,
        positionid: 3,
        item,
        price: '23.00',
        attendee_name: 'John Doe',
        valid_from: '2022-12-12T12:12:12Z',
        valid_until: '2022-12-12T13:12:12Z',
        canceled: false,
      });
      expect((await ok(await get(`${E}/orders/${o.code}/`), 200)).total).toBe('46.00');
      const priced = await post(`${E}/orderpositions/`, { order: o.code, item, price: '99.99' });
      expect(priced.body).toMatchObject({ positionid: 4, price: '99.99' });
    });

    it('answers field errors at the root and pretix messages as a bare list', async () => {
      const o = await order([{ item }]);
      const full = (await ok(await post(`${E}/items/`, { name: 'Full', default_price: '1.00' })))
        .id as number;
      await ok(await post(`${E}/quotas/`, { name: 'Empty', size: 0, items: [full] }));
      const cases: [string, object, unknown][] = [
        ['', { order: 'NOPE1', item }, { order: ['Object with code=NOPE1 does not exist.'] }],
        ['', { order: o.code, item: 999999 }, { item: ['Invalid pk "999999" - object does not exist.'] }],
        [
          '',
          { order: o.code, item, addon_to: 7 },
          { addon_to: ['addon_to refers to an unknown position ID for this order.'] },
        ],
        [
          '',
          { order: o.code, item: full },
          ['The quota Empty does not have enough capacity left to perform the operation.'],
        ],
        [
          '?check_quotas=true',
          { order: o.code, item: full },
          ['The quota Empty does not have enough capacity left to perform the operation.'],
        ],
        ['', { order: o.code, item: stalls }, ['The selected product requires you to select a seat.']],
        [
          '',
          { order: o.code, item: plain, seat: 'r1-s1' },
          ['The selected product does not allow to select a seat.'],
        ],
        ['', { order: o.code }, { item: ['This field is required.'] }],
      ];
      for (const [query, body, expected] of cases) {
        const res = await post(`${E}/orderpositions/${query}`, body);
        expect([body, res.status, res.body]).toEqual([body, 400, expected]);
      }
      expect(
        (await post(`${E}/orderpositions/?check_quotas=false`, { order: o.code, item: full })).status,
      ).toBe(201);
      const reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
      expect((await post(`${E}/orderpositions/`, { order: o.code, item }, reader)).status).toBe(403);
    });
  });

  describe('DELETE E/orderpositions/{id}/', () => {
    it('cancels the position (its place is free at once); refuses the last one; 404 for unknown', async () => {
      const o = await order([{ item }, { item }]);
      const before = await ok(await get(`${E}/quotas/${quota}/availability/`), 200);
      expect((await del(`${E}/orderpositions/${o.positions[0].id}/`)).status).toBe(204);
      expect((await get(`${E}/orderpositions/${o.positions[0].id}/`)).status).toBe(404);
      const after = await ok(await get(`${E}/quotas/${quota}/availability/`), 200);
      expect(after.available_number).toBe(before.available_number + 1);
      expect((await ok(await get(`${E}/orders/${o.code}/`), 200)).total).toBe('23.00');
      const last = await del(`${E}/orderpositions/${o.positions[1].id}/`);
      expect([last.status, last.body]).toEqual([
        400,
        ['This operation would leave the order empty. Please cancel the order itself instead.'],
      ]);
      expect((await del(`${E}/orderpositions/${o.positions[0].id}/`)).status).toBe(404);
      expect((await del(`${E}/orderpositions/999999/`)).status).toBe(404);
      const reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
      expect((await del(`${E}/orderpositions/${o.positions[1].id}/`, reader)).status).toBe(403);
      const cancels = await t.db.query<{ action_type: string }[]>(
        `SELECT action_type FROM log_entry WHERE content_type = 'order' AND action_type LIKE 'pretix.event.order.changed.%'
           AND (data->>'position')::int = $1`,
        [o.positions[0].id],
      );
      expect(cancels).toEqual([{ action_type: 'pretix.event.order.changed.cancel' }]);
    });
  });

  describe('seats', () => {
    it('swaps the seats of two positions, refuses a taken seat, frees the seat of a canceled position', async () => {
      const o = await order([
        { item: stalls, seat: 'r1-s1' },
        { item: stalls, seat: 'r1-s2' },
      ]);
      await order([{ item: stalls, seat: 'r1-s3' }]);
      const [p, q] = o.positions;
      const res = await post(`${E}/orders/${o.code}/change/`, {
        patch_positions: [
          { position: p.id, body: { seat: 'r1-s2' } },
          { position: q.id, body: { seat: 'r1-s1' } },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body.positions.map((x: OrderBody['positions'][number]) => x.seat?.seat_guid)).toEqual([
        'r1-s2',
        'r1-s1',
      ]);
      const taken = await post(`${E}/orders/${o.code}/change/`, {
        patch_positions: [{ position: p.id, body: { seat: 'r1-s3' } }],
      });
      expect(taken.status).toBe(400);
      expect(JSON.stringify(taken.body)).toContain('is not available');
      await ok(await post(`${E}/orders/${o.code}/change/`, { cancel_positions: [{ position: q.id }] }), 200);
      await order([{ item: stalls, seat: 'r1-s1' }]);
    });

    it('moves a position to another date keeping its seat guid, or refuses when the guid has no seat there', async () => {
      const o = await order([{ item: seriesStalls, subevent: day1, seat: 'r1-s1' }], S);
      const p = o.positions[0].id;
      const res = await post(`${S}/orders/${o.code}/change/`, {
        patch_positions: [{ position: p, body: { subevent: day2 } }],
      });
      expect(res.status).toBe(200);
      expect(res.body.positions[0]).toMatchObject({
        subevent: day2,
        seat: expect.objectContaining({ seat_guid: 'r1-s1' }),
      });
      // The seat on day 1 is free again.
      await order([{ item: seriesStalls, subevent: day1, seat: 'r1-s1' }], S);
      const missing = await post(`${S}/orders/${o.code}/change/`, {
        patch_positions: [{ position: p, body: { subevent: day1, seat: 'nope' } }],
      });
      expect(missing.status).toBe(400);
      expect(JSON.stringify(missing.body)).toContain('seat');
    });
  });
});
