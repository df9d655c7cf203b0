import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { listStatements } from './sql-count';

/**
 * `O/orderpositions/` (pretix 2026.01): the positions of all events of the organizer the credential may read
 * orders of, with the event list's filters plus `event`; each position carries its event's slug; a fixed number
 * of statements per page.
 */
describe('organizer-wide order positions', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org/orderpositions/';
  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const codes: Record<string, string> = {};
  const ids = (res: { body: { results: { id: number }[] } }) => res.body.results.map((p) => p.id);
  const positionIds: Record<string, number[]> = {};

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    const other = await bootstrapOrganizer(t, 'org2');
    await createEvent(t, other.token, 'org2', { slug: 'foreign' });
    const fi = await t
      .http()
      .post('/api/v1/organizers/org2/events/foreign/items/')
      .set('Authorization', auth(other.token))
      .send({ name: 'T', default_price: '1.00' });
    await t
      .http()
      .post('/api/v1/organizers/org2/events/foreign/quotas/')
      .set('Authorization', auth(other.token))
      .send({ name: 'Q', size: null, items: [fi.body.id] });
    await t
      .http()
      .post('/api/v1/organizers/org2/events/foreign/orders/')
      .set('Authorization', auth(other.token))
      .send({ positions: [{ item: fi.body.id }] });
    for (const slug of ['one', 'two']) {
      await createEvent(t, token, 'org', { slug });
      const E = `/api/v1/organizers/org/events/${slug}`;
      const item = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' })).body.id as number;
      await post(`${E}/quotas/`, { name: 'Q', size: null, items: [item] });
      const order = await post(`${E}/orders/`, {
        email: `${slug}@example.org`,
        positions: [{ item, attendee_email: `a-${slug}@example.org` }, { item }],
      });
      expect(order.status).toBe(201);
      codes[slug] = order.body.code as string;
      positionIds[slug] = (order.body.positions as { id: number }[]).map((p) => p.id);
    }
  });
  afterAll(() => t.close());

  it('lists the positions of all events of the organizer with their event slug', async () => {
    const res = await get(O);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(4);
    expect(ids(res)).toEqual([...positionIds.one, ...positionIds.two]);
    const first = res.body.results[0] as Record<string, unknown>;
    expect(first).toMatchObject({ event: 'one', order: codes.one, positionid: 1, plugin_data: {} });
    // The same position as the event list shows, plus `event`.
    const detail = await get(`/api/v1/organizers/org/events/one/orderpositions/${positionIds.one[0]}/`);
    expect(first).toEqual({ ...detail.body, event: 'one' });
  });

  it('filters by event, order, attendee_email and the other event-list filters', async () => {
    expect(ids(await get(`${O}?event=two`))).toEqual(positionIds.two);
    expect(ids(await get(`${O}?event=foreign`))).toEqual([]);
    expect(ids(await get(`${O}?order=${codes.one.toLowerCase()}`))).toEqual(positionIds.one);
    expect(ids(await get(`${O}?attendee_email=A-TWO@example.org`))).toEqual([positionIds.two[0]]);
    expect(ids(await get(`${O}?order__status=n&ordering=-id`))).toEqual(
      [...positionIds.one, ...positionIds.two].reverse(),
    );
    expect(ids(await get(`${O}?order__status=p`))).toEqual([]);
    const bad = await get(`${O}?item=abc`);
    expect(bad.status).toBe(400);
  });

  it('shows only events where the credential may read orders', async () => {
    const limited = await teamToken(t, 'org', {
      limitEvents: ['two'],
      eventPermissions: ['event.orders:read'],
    });
    expect(ids(await get(O, limited))).toEqual(positionIds.two);
    const noOrders = await teamToken(t, 'org', {
      allEvents: true,
      eventPermissions: ['event.vouchers:read'],
    });
    const res = await get(O, noOrders);
    expect([res.status, res.body.count]).toEqual([200, 0]);
    expect((await t.http().get(O)).status).toBe(401);
    expect((await get('/api/v1/organizers/org2/orderpositions/')).status).toBe(403);
  });

  it('runs a fixed number of statements whatever the page size', async () => {
    const one = await listStatements(() => get(`${O}?page_size=1`));
    const all = await listStatements(() => get(`${O}?page_size=50`));
    expect([one.rows, all.rows]).toEqual([1, 4]);
    expect(all.statements).toBe(one.statements);
    expect(all.statements).toBeLessThanOrEqual(4);
  });
});
