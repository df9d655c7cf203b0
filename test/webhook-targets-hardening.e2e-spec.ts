import { AppConfig, loadConfig } from '../src/config/app-config';
import { freePort } from './api-process';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { startWebhookReceiver, WebhookReceiver } from './webhook-receiver';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

/**
 * README "Security", "Webhooks": webhook targets on private, loopback, link-local and special IPv6 ranges are
 * refused by default (`WEBHOOK_ALLOW_PRIVATE_TARGETS` defaults to false), and the delivery log does not tell
 * connection failures apart (refused port, timeout, TLS error all read "Connection failed."), so it cannot serve
 * as a port scanner.
 */

const O = '/api/v1/organizers/org';
const E = `${O}/events/sample`;
const REFUSED = {
  target_url: ['Webhook targets on private, link-local or loopback addresses are not allowed.'],
};
const BODY = { action_types: ['pretix.event.order.placed'] };

interface DeliveryJson {
  status: string;
  attempts: { response_status: number | null; error: string | null }[];
}

describe('webhook targets by default (WEBHOOK_ALLOW_PRIVATE_TARGETS unset)', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    // The configuration's own default, not the harness's test override.
    t = await startTestApp({ webhookAllowPrivateTargets: loadConfig({}).webhookAllowPrivateTargets });
    ({ token } = await bootstrapOrganizer(t, 'org'));
  });
  afterAll(() => t.close());

  it('defaults to false', () => {
    expect(new AppConfig().webhookAllowPrivateTargets).toBe(false);
    expect(loadConfig({}).webhookAllowPrivateTargets).toBe(false);
    expect(t.app.get(AppConfig).webhookAllowPrivateTargets).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhookAllowPrivateTargets).toBe(true);
  });

  const targets: [range: string, url: string][] = [
    ['IPv4 loopback', 'http://127.0.0.1:9000/'],
    ['IPv4 private', 'http://10.0.0.8/'],
    ['IPv4 private 192.168/16', 'http://192.168.1.1/'],
    ['IPv4 link-local (metadata)', 'http://169.254.169.254/latest/'],
    ['localhost', 'http://localhost:3000/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['IPv6 unique local', 'http://[fd00::1]/'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/'],
    ['::/96 (IPv4-compatible)', 'http://[::a00:1]/'],
    ['::ffff:0:0:0/96 (IPv4-translated)', 'http://[::ffff:0:a00:1]/'],
    ['fec0::/10 (site-local)', 'http://[fec0::1]/'],
    ['2002::/16 (6to4 of 10.0.0.1)', 'http://[2002:a00:1::1]/'],
    ['2002::/16 (6to4 of 127.0.0.1)', 'https://[2002:7f00:1::]:8443/'],
    ['64:ff9b::/96 (NAT64)', 'http://[64:ff9b::a00:1]/'],
    ['100::/64 (discard)', 'http://[100::1]/'],
  ];

  it.each(targets)(
    'refuses a webhook to %s (%s): 400 naming target_url, nothing stored',
    async (_range, url) => {
      const post = (body: object) =>
        t.http().post(`${O}/webhooks/`).set('Authorization', auth(token)).send(body);
      const before = await t.db.query<{ count: string }[]>('SELECT count(*) FROM webhook');
      const res = await post({ ...BODY, target_url: url });
      expect([res.status, res.body]).toEqual([400, REFUSED]);
      expect(await t.db.query('SELECT count(*) FROM webhook')).toEqual(before);
    },
  );

  it('refuses them on PATCH and PUT too; a public target is accepted', async () => {
    const created = await t
      .http()
      .post(`${O}/webhooks/`)
      .set('Authorization', auth(token))
      .send({ ...BODY, target_url: 'https://hooks.example.org/in' });
    expect(created.status).toBe(201);
    const path = `${O}/webhooks/${created.body.id}/`;
    for (const [, url] of targets) {
      const patch = await t.http().patch(path).set('Authorization', auth(token)).send({ target_url: url });
      expect([url, patch.status, patch.body]).toEqual([url, 400, REFUSED]);
      const put = await t
        .http()
        .put(path)
        .set('Authorization', auth(token))
        .send({ ...BODY, target_url: url });
      expect([url, put.status, put.body]).toEqual([url, 400, REFUSED]);
    }
    const after = await t.http().get(path).set('Authorization', auth(token));
    expect(after.body.target_url).toBe('https://hooks.example.org/in');
  });
});

describe('delivery log of unreachable targets (private targets allowed, as in development)', () => {
  let t: TestApp;
  let rx: WebhookReceiver;
  let token: string;
  let itemId: number;
  const post = (path: string, body: object) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);

  beforeAll(async () => {
    rx = await startWebhookReceiver();
    t = await startTestApp({ webhookAllowPrivateTargets: true });
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    itemId = (await post(`${E}/items/`, { name: { en: 'Ticket' }, default_price: '10.00' })).body
      .id as number;
    expect((await post(`${E}/quotas/`, { name: 'Q', size: 100, items: [itemId] })).status).toBe(201);
    await startWorker({
      ...workerEnvFor(t),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_BASE_S: '60',
      WEBHOOK_TIMEOUT_MS: '1000',
      SCHEDULER_INTERVAL_MS: '1000',
    });
  }, 120_000);
  afterAll(async () => {
    await stopAllWorkers();
    await t.close();
    await rx.close();
    await deleteQueueKeys(t.app.get(AppConfig).queuePrefix);
  });

  it('a closed port, a hanging receiver and a TLS failure all read "Connection failed."; an HTTP status is kept', async () => {
    rx.answer('/hang', () => 'hang');
    rx.answer('/boom', () => 500);
    const closed = await freePort();
    const rxPort = new URL(rx.url).port;
    const targets = {
      closedPort: `http://127.0.0.1:${closed}/in`,
      timeout: `${rx.url}/hang`,
      tlsToPlainHttp: `https://127.0.0.1:${rxPort}/tls`,
      http500: `${rx.url}/boom`,
    };
    const ids: Record<string, number> = {};
    for (const [name, target_url] of Object.entries(targets)) {
      const res = await post(`${O}/webhooks/`, { ...BODY, target_url });
      expect(res.status).toBe(201);
      ids[name] = res.body.id as number;
    }
    expect(
      (await post(`${E}/orders/`, { email: 'buyer@example.org', positions: [{ item: itemId }] })).status,
    ).toBe(201);
    const firstAttempts: Record<string, [number | null, string | null]> = {};
    for (const [name, id] of Object.entries(ids)) {
      const [d] = await eventually(async () => {
        const res = await t.http().get(`${O}/webhooks/${id}/deliveries/`).set('Authorization', auth(token));
        const list = res.body.results as DeliveryJson[];
        return list[0]?.attempts.length > 0 && list;
      }, 20_000);
      firstAttempts[name] = [d.attempts[0].response_status, d.attempts[0].error];
    }
    expect(firstAttempts).toEqual({
      closedPort: [null, 'Connection failed.'],
      timeout: [null, 'Connection failed.'],
      tlsToPlainHttp: [null, 'Connection failed.'],
      http500: [500, 'HTTP 500'],
    });
  });
});
