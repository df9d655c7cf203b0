import { AppConfig } from '../src/config/app-config';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

/**
 * Automatic check-out (spec "Check-in list" `exit_all_at`): a real worker's scheduler writes an exit for every
 * ticket inside the list at that time, moves `exit_all_at` one day on without touching the list's modification
 * time, and the places come free on a quota with `release_after_exit`.
 */
describe('exit_all_at', () => {
  let t: TestApp;
  let token: string;
  const E = '/api/v1/organizers/org/events/sample';
  const post = (path: string, body: object = {}) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
  });
  afterAll(async () => {
    await stopAllWorkers();
    await deleteQueueKeys(t.app.get(AppConfig).queuePrefix);
    await t.close();
  });

  it('checks everybody inside out at exit_all_at and moves it one day on', async () => {
    const item = (await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' })).body.id;
    const quota = (
      await post(`${E}/quotas/`, { name: 'Q', size: 3, items: [item], release_after_exit: true })
    ).body.id;
    const exitAt = new Date(Date.now() - 60_000);
    const list = (
      await post(`${E}/checkinlists/`, {
        name: 'Hall',
        all_products: true,
        exit_all_at: exitAt.toISOString(),
      })
    ).body;
    const order = await post(`${E}/orders/`, { status: 'p', positions: [{ item }, { item }, { item }] });
    const [inside, left, never] = order.body.positions.map((p: { id: number }) => p.id);
    const before = new Date(exitAt.getTime() - 10 * 60_000).toISOString();
    for (const p of [inside, left]) {
      expect(
        (await post(`${E}/checkinlists/${list.id}/positions/${p}/redeem/`, { datetime: before })).status,
      ).toBe(201);
    }
    await post(`${E}/checkinlists/${list.id}/positions/${left}/redeem/`, { type: 'exit', datetime: before });
    const modified: { last_modified: Date }[] = await t.db.query(
      'SELECT last_modified FROM checkin_list WHERE id = $1',
      [list.id],
    );
    expect((await get(`${E}/quotas/${quota}/availability/`)).body).toMatchObject({ available_number: 1 });

    await startWorker({ ...workerEnvFor(t), SCHEDULER_INTERVAL_MS: '500', SCHEDULER_WATCH_MS: '500' });
    const moved = await eventually(async () => {
      const l = (await get(`${E}/checkinlists/${list.id}/`)).body as { exit_all_at: string };
      return l.exit_all_at !== list.exit_all_at ? l : null;
    });
    expect(new Date(moved.exit_all_at).getTime() - exitAt.getTime()).toBe(24 * 3600 * 1000);
    const autos: { position_id: number; type: string; datetime: Date }[] = await t.db.query(
      'SELECT position_id, type, datetime FROM checkin WHERE list_id = $1 AND auto_checked_in ORDER BY id',
      [list.id],
    );
    expect(autos).toEqual([{ position_id: inside, type: 'exit', datetime: exitAt }]);
    expect(
      await t.db.query('SELECT count(*)::int AS n FROM checkin WHERE position_id = $1', [never]),
    ).toEqual([{ n: 0 }]);
    expect(await t.db.query('SELECT last_modified FROM checkin_list WHERE id = $1', [list.id])).toEqual(
      modified,
    );
    expect((await get(`${E}/quotas/${quota}/availability/`)).body).toMatchObject({
      exited_orders: 2,
      available_number: 2,
    });
  });
});
