import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * Exited tickets on quotas with `release_after_exit` (spec "Quota"): a paid ticket whose last successful scan
 * is an exit frees its place; a later entry takes it again. Scans are written as check-in rows (the check-in
 * API comes later).
 */
describe('quota engine: exits', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  let item: number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
    const res = await t
      .http()
      .post(`${E}/items/`)
      .set('Authorization', auth(token))
      .send({ name: 'Ticket', default_price: '10.00' });
    item = res.body.id;
  });
  afterAll(() => t.close());

  const availability = async (quota: number) =>
    (await t.http().get(`${E}/quotas/${quota}/availability/`).set('Authorization', auth(token))).body;
  const scan = (position: number, type: 'entry' | 'exit', at: string, successful = true) =>
    t.db.query('INSERT INTO checkin (position_id, type, datetime, successful) VALUES ($1, $2, $3, $4)', [
      position,
      type,
      at,
      successful,
    ]);

  it('frees the place of a paid ticket whose last scan was an exit, only with release_after_exit', async () => {
    const releasing = (
      await t
        .http()
        .post(`${E}/quotas/`)
        .set('Authorization', auth(token))
        .send({ name: 'R', size: 2, items: [item], release_after_exit: true })
    ).body.id;
    const keeping = (
      await t
        .http()
        .post(`${E}/quotas/`)
        .set('Authorization', auth(token))
        .send({ name: 'K', size: 5, items: [item] })
    ).body.id;
    const order = await t
      .http()
      .post(`${E}/orders/`)
      .set('Authorization', auth(token))
      .send({ status: 'p', positions: [{ item }, { item }] });
    expect(order.status).toBe(201);
    const [first, second] = order.body.positions.map((p: { id: number }) => p.id);

    expect(await availability(releasing)).toMatchObject({
      paid_orders: 2,
      exited_orders: 0,
      available_number: 0,
    });

    await scan(first, 'entry', '2030-01-01T10:00:00Z');
    await scan(first, 'exit', '2030-01-01T12:00:00Z');
    await scan(second, 'exit', '2030-01-01T09:00:00Z');
    await scan(second, 'entry', '2030-01-01T11:00:00Z'); // came back in: still inside
    await scan(second, 'exit', '2030-01-01T13:00:00Z', false); // failed scan: ignored
    expect(await availability(releasing)).toMatchObject({
      paid_orders: 2,
      exited_orders: 1,
      available: true,
      available_number: 1,
    });
    // Without release_after_exit the exit is reported but frees nothing.
    expect(await availability(keeping)).toMatchObject({
      paid_orders: 2,
      exited_orders: 1,
      available_number: 3,
    });

    await scan(first, 'entry', '2030-01-01T14:00:00Z');
    expect(await availability(releasing)).toMatchObject({
      exited_orders: 0,
      available: false,
      available_number: 0,
    });
  });
});
