import type { Response } from 'supertest';
import type { OrderJson, OrderPositionJson } from '../src/orders/presentation/order.presenter';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { listStatements } from './sql-count';

/**
 * `E/orderpositions/` and `E/orderpositions/{id}/` (compat §4.4 "Position fields"): read-only list with filters
 * and ordering, detail, canceled positions hidden by default, 405 for PUT, permission `event.orders:read`.
 */
describe('order positions', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const OTHER = '/api/v1/organizers/org/events/other';
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const NOT_FOUND = { detail: 'Not found.' };

  const get = (path: string, as = token) => t.http().get(path).set('Authorization', auth(as));
  const post = (path: string, body: unknown) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(token))
      .send(body as object);

  /** The body of a response that must have the given status (untyped: the assertions check it). */
  async function ok(res: Response, status = 201) {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  let ticket: number;
  let shirt: number;
  let small: number;
  let large: number;
  let first: OrderJson;
  let second: OrderJson;
  let foreign: OrderJson;
  let voucherId: number;
  const all = (): OrderPositionJson[] => [...first.positions, ...second.positions];
  const ids = (res: { body: { results: { id: number }[] } }) => res.body.results.map((p) => p.id);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    ticket = (await ok(await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' }))).id;
    const shirtBody = await ok(
      await post(`${E}/items/`, {
        name: 'Shirt',
        default_price: '20.00',
        has_variations: true,
        variations: [{ value: 'S' }, { value: 'L' }],
      }),
    );
    shirt = shirtBody.id;
    const variations = (await ok(await get(`${E}/items/${shirt}/`), 200)).variations as { id: number }[];
    [small, large] = variations.map((v) => v.id);
    await ok(
      await post(`${E}/quotas/`, {
        name: 'Q',
        size: null,
        items: [ticket, shirt],
        variations: [small, large],
      }),
    );
    voucherId = (await ok(await post(`${E}/vouchers/`, { code: 'POSVOUCH', max_usages: 5 }))).id;
    const question = await ok(await post(`${E}/questions/`, { question: 'Q', type: 'S', items: [ticket] }));
    first = await ok(
      await post(`${E}/orders/`, {
        code: 'FRST1',
        status: 'p',
        positions: [
          {
            positionid: 1,
            item: ticket,
            attendee_email: 'Ann@Example.org',
            secret: 'secret-one',
            voucher: voucherId,
          },
          { positionid: 2, item: shirt, variation: small, addon_to: 1 },
          { positionid: 3, item: ticket, answers: [{ question: question.id, answer: 'x' }] },
        ],
      }),
    );
    second = await ok(
      await post(`${E}/orders/`, {
        code: 'SCND2',
        positions: [
          { item: shirt, variation: large },
          { item: ticket, attendee_email: 'bob@example.org' },
        ],
      }),
    );
    const otherItem = (await ok(await post(`${OTHER}/items/`, { name: 'T', default_price: '1.00' }))).id;
    await ok(await post(`${OTHER}/quotas/`, { name: 'Q', size: null, items: [otherItem] }));
    foreign = await ok(await post(`${OTHER}/orders/`, { positions: [{ item: otherItem }] }));
  });
  afterAll(() => t.close());

  it('lists the positions of the event by id, as the orders show them', async () => {
    const res = await get(`${E}/orderpositions/`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 5, next: null, previous: null, results: all() });
    expect(res.body.results[0]).toMatchObject({ order: 'FRST1', positionid: 1, voucher: voucherId });
  });

  it('filters by order, order__status, item, variation, addon_to, voucher, attendee_email, secret', async () => {
    const [p1, p2, p3] = first.positions.map((p: OrderPositionJson) => p.id);
    const [q1, q2] = second.positions.map((p: OrderPositionJson) => p.id);
    const cases: [string, number[]][] = [
      ['order=frst1', [p1, p2, p3]],
      ['order=SCND2', [q1, q2]],
      [`order=${foreign.code}`, []],
      ['order__status=n', [q1, q2]],
      [`item=${ticket}`, [p1, p3, q2]],
      [`variation=${large}`, [q1]],
      [`addon_to=${p1}`, [p2]],
      [`voucher=${voucherId}`, [p1]],
      ['attendee_email=ann@example.ORG', [p1]],
      ['secret=secret-one', [p1]],
      ['secret=secret', []],
      [`pseudonymization_id=${second.positions[1].pseudonymization_id}`, [q2]],
      ['ordering=-id', [q2, q1, p3, p2, p1]],
      ['ordering=positionid', [p1, q1, p2, q2, p3]],
      ['ordering=-positionid,-id', [p3, q2, p2, q1, p1]],
    ];
    for (const [query, expected] of cases) {
      const res = await get(`${E}/orderpositions/?${query}`);
      expect([query, res.status, ids(res)]).toEqual([query, 200, expected]);
    }
    for (const [query, body] of [
      ['item=x', { item: ['Enter a whole number.'] }],
      ['canceled=perhaps', { canceled: ['Must be a valid boolean.'] }],
    ] as const) {
      const res = await get(`${E}/orderpositions/?${query}`);
      expect([res.status, res.body]).toEqual([400, body]);
    }
  });

  it('hides canceled positions unless include_canceled_positions=true or canceled is filtered on', async () => {
    const target = second.positions[0].id;
    await t.db.query('UPDATE order_position SET canceled = true WHERE id = $1', [target]);
    try {
      expect(ids(await get(`${E}/orderpositions/?order=SCND2`))).toEqual([second.positions[1].id]);
      expect(ids(await get(`${E}/orderpositions/?order=SCND2&include_canceled_positions=true`))).toEqual([
        target,
        second.positions[1].id,
      ]);
      expect(ids(await get(`${E}/orderpositions/?canceled=true`))).toEqual([target]);
      expect((await get(`${E}/orderpositions/${target}/`)).status).toBe(404);
      const shown = await get(`${E}/orderpositions/${target}/?include_canceled_positions=true`);
      expect([shown.status, shown.body.canceled]).toEqual([200, true]);
    } finally {
      await t.db.query('UPDATE order_position SET canceled = false WHERE id = $1', [target]);
    }
  });

  it('shows one position; unknown ids, ids of another event and malformed ids are 404', async () => {
    const position = first.positions[2];
    expect((await get(`${E}/orderpositions/${position.id}/`)).body).toEqual(position);
    for (const id of [999999, foreign.positions[0].id, 'abc', -1]) {
      const res = await get(`${E}/orderpositions/${id}/`);
      expect([id, res.status, res.body]).toEqual([id, 404, NOT_FOUND]);
    }
  });

  it('answers 405 to PUT (PATCH: order-position-edits; POST and DELETE: order-position-writes)', async () => {
    const id = first.positions[0].id;
    for (const [method, path] of [
      ['put', `${E}/orderpositions/${id}/`],
    ] as const) {
      const res = await t.http()[method](path).set('Authorization', auth(token)).send({});
      expect([method, res.status, res.body]).toEqual([
        method,
        405,
        { detail: `Method "${method.toUpperCase()}" not allowed.` },
      ]);
    }
    expect((await get(`${E}/orderpositions/${id}/`)).status).toBe(200);
  });

  it('needs event.orders:read', async () => {
    expect((await t.http().get(`${E}/orderpositions/`)).status).toBe(401);
    const vouchers = await teamToken(t, 'org', {
      allEvents: true,
      eventPermissions: ['event.vouchers:read'],
    });
    for (const path of [`${E}/orderpositions/`, `${E}/orderpositions/${first.positions[0].id}/`]) {
      const res = await get(path, vouchers);
      expect([res.status, res.body]).toEqual([403, DENIED]);
    }
    const reader = await teamToken(t, 'org', {
      limitEvents: ['sample'],
      eventPermissions: ['event.orders:read'],
    });
    expect((await get(`${E}/orderpositions/`, reader)).body.count).toBe(5);
    expect((await get(`${OTHER}/orderpositions/`, reader)).status).toBe(403);
  });

  it('costs the same number of SQL statements for page sizes 1 and 4', async () => {
    const one = await listStatements(() => get(`${E}/orderpositions/?page_size=1`));
    const four = await listStatements(() => get(`${E}/orderpositions/?page_size=4`));
    expect([one.rows, four.rows]).toEqual([1, 4]);
    expect(four.statements).toBe(one.statements);
  });
});
