import { Webhook as StandardWebhook } from 'standardwebhooks';
import { AppConfig } from '../src/config/app-config';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { ReceivedHook, startWebhookReceiver, WebhookReceiver } from './webhook-receiver';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

interface DeliveryJson {
  id: string;
  action: string;
  payload: Record<string, unknown>;
  status: string;
  attempts: { datetime: string; response_status: number | null; error: string | null; duration_ms: number }[];
  next_attempt: string | null;
  created: string;
}

/**
 * Webhook deliveries end to end (compat §5; README "Webhooks"): the outbox row written with the order, a real
 * worker process sending it to a real HTTP receiver on a loopback port, signatures verified with the
 * `standardwebhooks` package, retries (`WEBHOOK_RETRY_BASE_S=1`), 410, timeouts (`WEBHOOK_TIMEOUT_MS=1000`),
 * ordering, the worker being down, 100 parallel orders, the delivery log and redelivery.
 */
describe('webhook delivery', () => {
  let t: TestApp;
  let rx: WebhookReceiver;
  let token: string;
  let itemId: number;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/sample`;
  const workerEnv = () => ({
    ...workerEnvFor(t),
    WEBHOOK_RETRY_BASE_S: '1',
    WEBHOOK_TIMEOUT_MS: '1000',
    SCHEDULER_INTERVAL_MS: '1000',
    JOB_LOCK_MS: '5000',
  });
  const post = (path: string, body: object) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));

  /** A webhook to `path` of the receiver; @returns its id and full secret */
  async function hook(path: string, body: object = {}): Promise<{ id: number; secret: string }> {
    const res = await post(`${O}/webhooks/`, {
      target_url: `${rx.url}${path}`,
      action_types: ['pretix.event.order.placed', 'pretix.event.order.paid'],
      ...body,
    });
    if (res.status !== 201) throw new Error(`hook: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: number; secret: string };
  }

  async function order(): Promise<string> {
    const res = await post(`${E}/orders/`, { email: 'buyer@example.org', positions: [{ item: itemId }] });
    if (res.status !== 201) throw new Error(`order: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.code as string;
  }

  const arrived = (path: string, n: number) => () => Promise.resolve(rx.on(path).length >= n && rx.on(path));

  async function deliveries(webhook: number, query = ''): Promise<DeliveryJson[]> {
    const res = await get(`${O}/webhooks/${webhook}/deliveries/?page_size=50${query}`);
    if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.results as DeliveryJson[];
  }

  const verify = (secret: string, r: ReceivedHook) => new StandardWebhook(secret).verify(r.body, r.headers);

  beforeAll(async () => {
    rx = await startWebhookReceiver();
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    const item = await post(`${E}/items/`, { name: { en: 'Ticket' }, default_price: '10.00' });
    itemId = item.body.id as number;
    expect((await post(`${E}/quotas/`, { name: 'Q', size: 1000, items: [itemId] })).status).toBe(201);
    await startWorker(workerEnv());
  }, 120_000);
  afterAll(async () => {
    await stopAllWorkers();
    await t.close();
    await rx.close();
    await deleteQueueKeys(t.app.get(AppConfig).queuePrefix);
  });
  /** Each test listens with its own webhooks only. */
  afterEach(() => t.db.query('UPDATE webhook SET enabled = false'));

  it('an order placed and paid arrives as two signed deliveries, in order, verified with standardwebhooks', async () => {
    const { id, secret } = await hook('/ok');
    const code = await order();
    expect((await post(`${E}/orders/${code}/mark_paid/`, {})).status).toBe(200);
    const [placed, paid] = await eventually(arrived('/ok', 2));
    const payloads = [placed, paid].map((r) => verify(secret, r) as Record<string, unknown>);
    expect(payloads).toEqual([
      {
        notification_id: expect.any(Number),
        organizer: 'org',
        event: 'sample',
        code,
        action: 'pretix.event.order.placed',
      },
      {
        notification_id: expect.any(Number),
        organizer: 'org',
        event: 'sample',
        code,
        action: 'pretix.event.order.paid',
      },
    ]);
    expect(Object.keys(payloads[0])).toEqual(['notification_id', 'organizer', 'event', 'code', 'action']);
    expect(placed.headers['content-type']).toBe('application/json');
    expect(placed.headers['user-agent']).toMatch(/^ticketing-webhooks\//);
    expect(placed.headers['webhook-id']).not.toBe(paid.headers['webhook-id']);
    expect(Math.abs(Number(placed.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(() => verify(`whsec_${Buffer.alloc(24, 1).toString('base64')}`, placed)).toThrow();
    const log = await eventually(async () => {
      const d = await deliveries(id);
      return d.every((x) => x.status === 'succeeded') && d;
    });
    expect(log.map((d) => [d.action, d.status, d.next_attempt])).toEqual([
      ['pretix.event.order.paid', 'succeeded', null],
      ['pretix.event.order.placed', 'succeeded', null],
    ]);
    // `webhook-id` is the change's id (the change feed's `id`); the delivery keeps its own id.
    expect(placed.headers['webhook-id']).toBe(`chg_${String(payloads[0].notification_id)}`);
    expect(paid.headers['webhook-id']).toBe(`chg_${String(payloads[1].notification_id)}`);
    expect(log[1].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(log[1].payload).toEqual(payloads[0]);
    expect(log[0].attempts).toEqual([
      { datetime: expect.any(String), response_status: 200, error: null, duration_ms: expect.any(Number) },
    ]);
    expect((await deliveries(id, '&action=pretix.event.order.placed')).map((d) => d.id)).toEqual([log[1].id]);
    expect(await deliveries(id, '&status=failed')).toEqual([]);
    expect(
      await deliveries(
        id,
        `&created_since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
      ),
    ).toEqual([]);
    expect((await get(`${O}/webhooks/${id}/deliveries/?status=nope`)).body).toEqual({
      status: ['Select a valid choice. nope is not one of the available choices.'],
    });
  });

  it('a receiver answering 500 then 200 gets the retry: same id and body, fresh signature', async () => {
    rx.answer('/flaky', (_r, n) => (n === 0 ? 500 : 200));
    const { id, secret } = await hook('/flaky', { action_types: ['pretix.event.order.placed'] });
    await order();
    const [first, second] = await eventually(arrived('/flaky', 2));
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    expect(second.at - first.at).toBeGreaterThanOrEqual(700);
    expect(verify(secret, second)).toEqual(JSON.parse(first.body));
    const [d] = await eventually(async () => {
      const list = await deliveries(id);
      return list[0]?.status === 'succeeded' && list;
    });
    expect(d.attempts.map((a) => [a.response_status, a.error])).toEqual([
      [500, 'HTTP 500'],
      [200, null],
    ]);
  });

  it('410 Gone fails the delivery and disables the webhook', async () => {
    rx.answer('/gone', () => 410);
    const { id } = await hook('/gone', { action_types: ['pretix.event.order.placed'] });
    await order();
    await eventually(arrived('/gone', 1));
    await eventually(async () => (await get(`${O}/webhooks/${id}/`)).body.enabled === false);
    const [d] = await eventually(async () => {
      const list = await deliveries(id);
      return list[0]?.status === 'failed' && list;
    });
    expect(d.attempts.map((a) => a.response_status)).toEqual([410]);
    await order();
    await new Promise((r) => setTimeout(r, 1500));
    expect(rx.on('/gone')).toHaveLength(1);
  });

  it('a receiver that never answers times out and is retried, without delaying another webhook', async () => {
    rx.answer('/hang', (_r, n) => (n === 0 ? 'hang' : 204));
    const { id } = await hook('/hang', { action_types: ['pretix.event.order.placed'] });
    await hook('/fast', { action_types: ['pretix.event.order.placed'] });
    await order();
    // The hanging receiver does not hold up the other webhook: it gets its delivery during the hang.
    const [fast] = await eventually(arrived('/fast', 1));
    const [hung] = await eventually(arrived('/hang', 1));
    expect(fast.at - hung.at).toBeLessThan(900);
    const [d] = await eventually(async () => {
      const list = await deliveries(id);
      return list[0]?.status === 'succeeded' && list;
    }, 20_000);
    expect(d.attempts.map((a) => [a.response_status, a.error])).toEqual([
      [null, 'Connection failed.'],
      [204, null],
    ]);
    expect(d.attempts[0].duration_ms).toBeGreaterThanOrEqual(900);
    expect(rx.on('/hang')).toHaveLength(2);
  });

  it('limit_events, action types and disabled webhooks are honoured', async () => {
    await hook('/limited', { limit_events: ['other'] });
    await hook('/paid-only', { action_types: ['pretix.event.order.paid'] });
    const off = await hook('/disabled');
    expect((await t.http().delete(`${O}/webhooks/${off.id}/`).set('Authorization', auth(token))).status).toBe(
      204,
    );
    await hook('/wanted', { limit_events: ['sample'], action_types: ['pretix.event.order.placed'] });
    await order();
    await eventually(arrived('/wanted', 1));
    await new Promise((r) => setTimeout(r, 1500));
    expect([rx.on('/limited'), rx.on('/paid-only'), rx.on('/disabled')]).toEqual([[], [], []]);
  });

  it('a change made while the worker is down is delivered once it is back', async () => {
    await stopAllWorkers();
    await hook('/later', { action_types: ['pretix.event.order.placed'] });
    const code = await order();
    await new Promise((r) => setTimeout(r, 1000));
    expect(rx.on('/later')).toEqual([]);
    await startWorker(workerEnv());
    const [r] = await eventually(arrived('/later', 1));
    expect(JSON.parse(r.body)).toMatchObject({ code, action: 'pretix.event.order.placed' });
  });

  it('100 orders placed in parallel give 100 deliveries: none lost, none duplicated with different bodies', async () => {
    await hook('/bulk', { action_types: ['pretix.event.order.placed'] });
    const codes = await Promise.all(Array.from({ length: 100 }, () => order()));
    await eventually(
      async () => new Set(rx.on('/bulk').map((r) => r.headers['webhook-id'])).size >= 100,
      60_000,
    );
    const byId = new Map<string, Set<string>>();
    for (const r of rx.on('/bulk'))
      byId.set(r.headers['webhook-id'], (byId.get(r.headers['webhook-id']) ?? new Set()).add(r.body));
    expect(byId.size).toBe(100);
    expect([...byId.values()].every((bodies) => bodies.size === 1)).toBe(true);
    const received = [...byId.values()].map((b) => (JSON.parse([...b][0]) as { code: string }).code).sort();
    expect(received).toEqual([...codes].sort());
  }, 90_000);

  it('redeliver answers 202 and sends the same payload with the same webhook-id and a fresh signature', async () => {
    const { id, secret } = await hook('/again', { action_types: ['pretix.event.order.placed'] });
    await order();
    const [first] = await eventually(arrived('/again', 1));
    const [d] = await eventually(async () => {
      const list = await deliveries(id);
      return list[0]?.status === 'succeeded' && list;
    });
    await new Promise((r) => setTimeout(r, 1100));
    const res = await post(`${O}/webhooks/${id}/deliveries/${d.id}/redeliver/`, {});
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: d.id, status: 'pending' });
    const [, second] = await eventually(arrived('/again', 2));
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    expect(second.headers['webhook-timestamp']).not.toBe(first.headers['webhook-timestamp']);
    expect(verify(secret, second)).toEqual(JSON.parse(first.body));
    expect(
      (await post(`${O}/webhooks/${id}/deliveries/00000000-0000-0000-0000-000000000000/redeliver/`, {}))
        .status,
    ).toBe(404);
    expect((await post(`${O}/webhooks/999999/deliveries/${d.id}/redeliver/`, {})).status).toBe(403);
  });

  it('a worker with WEBHOOK_ALLOW_PRIVATE_TARGETS=false refuses a loopback target at delivery time', async () => {
    await stopAllWorkers();
    await startWorker({ ...workerEnv(), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
    const { id } = await hook('/private', { action_types: ['pretix.event.order.placed'] });
    await order();
    const [d] = await eventually(async () => {
      const list = await deliveries(id);
      return list[0]?.status === 'failed' && list;
    });
    expect(d.attempts.map((a) => [a.response_status, a.error])).toEqual([
      [null, 'Webhook targets on private, link-local or loopback addresses are not allowed.'],
    ]);
    expect(rx.on('/private')).toEqual([]);
  });
});
