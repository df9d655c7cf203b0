import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Deleting an event cannot destroy orders (compat §4.2): the sales keys are RESTRICT, and the delete re-checks
 * "has orders" under the event row's lock, which order creation share-locks first. Raced for real: whichever wins,
 * either the event is gone and no order was created, or the delete answered 403 and the order exists.
 */
describe('event delete racing order creation', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org/events';
  const HAS_ORDERS =
    "The event can not be deleted as it already contains orders. Please set 'live' to false to hide the event and take the shop offline instead.";

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
  });
  afterAll(() => t.close());

  async function eventWithProduct(slug: string): Promise<{ id: number; item: number }> {
    await createEvent(t, token, 'org', { slug });
    const item = await t
      .http()
      .post(`${O}/${slug}/items/`)
      .set('Authorization', auth(token))
      .send({ name: { en: 'Ticket' }, default_price: '10.00' });
    await t
      .http()
      .post(`${O}/${slug}/quotas/`)
      .set('Authorization', auth(token))
      .send({ name: 'All', size: 10, items: [item.body.id] });
    const [{ id }]: { id: number }[] = await t.db.query('SELECT id FROM event WHERE slug = $1', [slug]);
    return { id, item: item.body.id as number };
  }

  it('never loses an order: 403 for the delete when the order won, no order when the delete won', async () => {
    const outcomes = { deleteWon: 0, orderWon: 0 };
    for (let round = 0; round < 12; round++) {
      const slug = `race${round}`;
      const { id, item } = await eventWithProduct(slug);
      const order = t
        .http()
        .post(`${O}/${slug}/orders/`)
        .set('Authorization', auth(token))
        .send({ email: 'a@example.org', positions: [{ item }] });
      const remove = t.http().delete(`${O}/${slug}/`).set('Authorization', auth(token));
      const [created, deleted] =
        round % 2 === 0 ? await Promise.all([order, remove]) : (await Promise.all([remove, order])).reverse();
      const orders: unknown[] = await t.db.query('SELECT id FROM orders WHERE event_id = $1', [id]);
      const events: unknown[] = await t.db.query('SELECT id FROM event WHERE id = $1', [id]);
      if (deleted.status === 204) {
        outcomes.deleteWon++;
        expect(events).toHaveLength(0);
        expect(orders).toHaveLength(0);
        expect(created.status).toBeGreaterThanOrEqual(400);
        expect(created.status).toBeLessThan(500);
      } else {
        outcomes.orderWon++;
        expect(deleted.status).toBe(403);
        expect(deleted.body).toEqual({ detail: HAS_ORDERS });
        expect(created.status).toBe(201);
        expect(orders).toHaveLength(1);
        expect(events).toHaveLength(1);
      }
    }
    expect(outcomes.deleteWon + outcomes.orderWon).toBe(12);
  });

  it('the database refuses to delete an event with orders, whatever the application does', async () => {
    const { id, item } = await eventWithProduct('guarded');
    const created = await t
      .http()
      .post(`${O}/guarded/orders/`)
      .set('Authorization', auth(token))
      .send({ email: 'b@example.org', positions: [{ item }] });
    expect(created.status).toBe(201);
    await expect(t.db.query('DELETE FROM event WHERE id = $1', [id])).rejects.toThrow(/foreign key/);
    const rows: unknown[] = await t.db.query('SELECT id FROM orders WHERE event_id = $1', [id]);
    expect(rows).toHaveLength(1);
  });
});
