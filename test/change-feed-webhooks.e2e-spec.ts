import { Webhook as StandardWebhook } from 'standardwebhooks';
import { AppConfig } from '../src/config/app-config';
import { pullAll } from './change-feed-client';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { startWebhookReceiver, WebhookReceiver } from './webhook-receiver';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

/**
 * A webhook delivery and the change feed's entry of the same change share their id (issue 27 §1): `webhook-id`
 * (sent by a real worker to a real receiver, signed with it) equals the feed's `id`, so a receiver that gets
 * both de-duplicates them against each other. The worker's tick also numbers the feed without any reader.
 */
describe('change feed and webhooks', () => {
  let t: TestApp;
  let rx: WebhookReceiver;
  let token: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/sample`;
  const post = (path: string, body: object) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);

  beforeAll(async () => {
    rx = await startWebhookReceiver();
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await startWorker({ ...workerEnvFor(t), SCHEDULER_INTERVAL_MS: '1000', JOB_LOCK_MS: '5000' });
  }, 120_000);
  afterAll(async () => {
    await stopAllWorkers();
    await t.close();
    await rx.close();
    await deleteQueueKeys(t.app.get(AppConfig).queuePrefix);
  });

  it('sends the change id as webhook-id, the same as the feed entry of the change', async () => {
    const hook = await post(`${O}/webhooks/`, {
      target_url: `${rx.url}/feed`,
      action_types: ['pretix.event.order.placed', 'pretix.event.item.*'],
    });
    expect(hook.status).toBe(201);
    const item = await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' });
    expect((await post(`${E}/quotas/`, { name: 'Q', size: 10, items: [item.body.id] })).status).toBe(201);
    const order = await post(`${E}/orders/`, { email: 'a@example.org', positions: [{ item: item.body.id }] });
    expect(order.status).toBe(201);
    const received = await eventually(
      () => Promise.resolve(rx.on('/feed').length >= 2 && rx.on('/feed')),
      60_000,
    );
    const webhook = new StandardWebhook(hook.body.secret as string);
    const byAction = new Map(
      received.map((r) => [
        (webhook.verify(r.body, r.headers) as { action: string }).action,
        r.headers['webhook-id'],
      ]),
    );
    // The worker's tick numbers the feed too: wait for the order's entry without reading the feed.
    await eventually(async () => {
      const [{ n }] = await t.db.query<{ n: number }[]>(
        "SELECT count(*)::int AS n FROM change_feed_entry WHERE action = 'pretix.event.order.placed'",
      );
      return n > 0;
    }, 90_000);
    const { changes } = await pullAll(t, token, 'org', null);
    const placed = changes.find((c) => c.action === 'pretix.event.order.placed')!;
    const added = changes.find((c) => c.action === 'pretix.event.item.added')!;
    expect(placed.key).toEqual({ code: order.body.code });
    expect(byAction.get('pretix.event.order.placed')).toBe(placed.id);
    expect(byAction.get('pretix.event.item.added')).toBe(added.id);
    expect(placed.id).toMatch(/^chg_\d+$/);
  }, 180_000);
});
