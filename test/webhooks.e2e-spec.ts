import request from 'supertest';
import { createApiApp } from '../src/app.factory';
import { AppConfig } from '../src/config/app-config';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { listStatements } from './sql-count';

/**
 * `O/webhooks/` configuration (compat §3.27; README "Webhooks"): fields, pretix's validation messages, DELETE
 * disables, the secret (full once, masked after, rotated), the SSRF refusal of private targets, permissions, and
 * the outbox rows the audit log trigger writes in the change's transaction.
 */
describe('webhooks configuration', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let eventsOnly: string;
  const O = '/api/v1/organizers/org';
  const O2 = '/api/v1/organizers/org2';
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;
  const MASKED = /^whsec_\*{8}.{4}$/;

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const put = (path: string, body: object, tok = token) =>
    t.http().put(path).set('Authorization', auth(tok)).send(body);
  const del = (path: string, tok = token) => t.http().delete(path).set('Authorization', auth(tok));

  const BODY = { target_url: 'https://hooks.example.org/in', action_types: ['pretix.event.order.placed'] };

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    ({ token: otherToken } = await bootstrapOrganizer(t, 'org2'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'second' });
    await createEvent(t, otherToken, 'org2', { slug: 'foreign' });
    eventsOnly = await teamToken(t, 'org', {
      allEvents: true,
      allEventPermissions: true,
      organizerPermissions: ['organizer.events:create', 'organizer.teams:write'],
    });
  });
  afterAll(() => t.close());

  it('creates a webhook with defaults, the secret in full once, masked afterwards; logged', async () => {
    const res = await post(`${O}/webhooks/`, { ...BODY, comment: 'CRM', secret: 'ignored', id: 999 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      enabled: true,
      target_url: 'https://hooks.example.org/in',
      all_events: true,
      limit_events: [],
      action_types: ['pretix.event.order.placed'],
      comment: 'CRM',
      secret: expect.stringMatching(SECRET),
    });
    expect(res.body.id).not.toBe(999);
    const again = await get(`${O}/webhooks/${res.body.id}/`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...res.body, secret: expect.stringMatching(MASKED) });
    expect(again.body.secret.slice(-4)).toBe(res.body.secret.slice(-4));
    const log: { action_type: string }[] = await t.db.query(
      "SELECT action_type FROM log_entry WHERE content_type = 'webhook' AND object_id = $1",
      [res.body.id],
    );
    expect(log).toEqual([{ action_type: 'pretix.webhook.created' }]);
  });

  it("answers pretix's validation messages and writes nothing", async () => {
    const before = await t.db.query<{ n: string }[]>('SELECT count(*) AS n FROM webhook');
    const cases: [object, object][] = [
      [{ action_types: ['pretix.event.order.placed'] }, { target_url: ['This field is required.'] }],
      [{ ...BODY, target_url: 'ftp://x.example.org/' }, { target_url: ['Enter a valid URL.'] }],
      [{ ...BODY, target_url: 'not a url' }, { target_url: ['Enter a valid URL.'] }],
      [{ ...BODY, action_types: ['pretix.nope'] }, { action_types: ['Invalid action type "pretix.nope".'] }],
      [
        { ...BODY, limit_events: ['foreign'], all_events: false },
        { limit_events: ['One or more events do not belong to this organizer.'] },
      ],
      [
        { ...BODY, limit_events: ['sample'], all_events: true },
        { non_field_errors: ['You can set either limit_events or all_events.'] },
      ],
    ];
    for (const [body, errors] of cases) {
      const res = await post(`${O}/webhooks/`, body);
      expect({ status: res.status, body: res.body as object }).toEqual({ status: 400, body: errors });
    }
    expect(await t.db.query('SELECT count(*) AS n FROM webhook')).toEqual(before);
  });

  it('limit_events alone implies all_events false; PATCH replaces action types; PUT resets omitted fields', async () => {
    const res = await post(`${O}/webhooks/`, { ...BODY, limit_events: ['second', 'sample'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ all_events: false, limit_events: ['sample', 'second'] });
    const p = await patch(`${O}/webhooks/${res.body.id}/`, {
      action_types: ['pretix.event.order.paid', 'pretix.event.order.changed.*'],
    });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({
      action_types: ['pretix.event.order.changed.*', 'pretix.event.order.paid'],
      limit_events: ['sample', 'second'],
      secret: expect.stringMatching(MASKED),
    });
    const r = await put(`${O}/webhooks/${res.body.id}/`, { ...BODY, target_url: 'https://b.example.org/' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ all_events: true, limit_events: [], comment: null, enabled: true });
    expect((await get(`${O}/webhooks/${res.body.id}/`)).body).toEqual(r.body);
  });

  it('DELETE answers 204 and only disables the webhook (still listed)', async () => {
    const res = await post(`${O}/webhooks/`, BODY);
    expect((await del(`${O}/webhooks/${res.body.id}/`)).status).toBe(204);
    const again = await get(`${O}/webhooks/${res.body.id}/`);
    expect(again.status).toBe(200);
    expect(again.body.enabled).toBe(false);
    const list = await get(`${O}/webhooks/?page_size=50`);
    expect(list.body.results.map((w: { id: number }) => w.id)).toContain(res.body.id);
  });

  it('rotate_secret answers the new secret in full; the stored secret changes', async () => {
    const res = await post(`${O}/webhooks/`, BODY);
    const rotated = await post(`${O}/webhooks/${res.body.id}/rotate_secret/`, {});
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(SECRET);
    expect(rotated.body.secret).not.toBe(res.body.secret);
    const [row] = await t.db.query<{ secret: string }[]>('SELECT secret FROM webhook WHERE id = $1', [res.body.id]);
    expect(row.secret).toBe(rotated.body.secret);
    expect((await post(`${O}/webhooks/999999/rotate_secret/`, {})).status).toBe(404);
  });

  it('permissions: organizer.settings.general:write for reads and writes; other organizers invisible', async () => {
    const res = await post(`${O}/webhooks/`, BODY);
    expect(await get(`${O}/webhooks/`, eventsOnly).then((r) => [r.status, r.body])).toEqual([403, DENIED]);
    expect((await post(`${O}/webhooks/`, BODY, eventsOnly)).status).toBe(403);
    expect((await get(`${O}/webhooks/${res.body.id}/deliveries/`, eventsOnly)).status).toBe(403);
    expect((await get(`${O2}/webhooks/${res.body.id}/`, otherToken)).status).toBe(404);
    expect((await get(`${O2}/webhooks/${res.body.id}/deliveries/`, otherToken)).status).toBe(403);
    expect((await get(`${O}/webhooks/`, otherToken)).status).toBe(403);
  });

  it('list runs a fixed number of statements whatever the page size', async () => {
    for (let i = 0; i < 3; i++) await post(`${O}/webhooks/`, { ...BODY, limit_events: ['sample'] });
    const one = await listStatements(() => get(`${O}/webhooks/?page_size=1`));
    const many = await listStatements(() => get(`${O}/webhooks/?page_size=50`));
    expect(many.rows).toBeGreaterThan(one.rows);
    expect(many.statements).toBe(one.statements);
  });

  it('documents what a receiver gets (x-webhooks: payload schemas and the signature headers)', async () => {
    const doc = (await t.http().get('/api/v1/openapi.json')).body as {
      'x-webhooks': Record<string, { post: { parameters: { name: string }[]; requestBody: object } }>;
      components: { schemas: Record<string, { required?: string[] }> };
    };
    expect(Object.keys(doc['x-webhooks']).sort()).toEqual(['checkin', 'customer', 'object', 'order']);
    expect(doc['x-webhooks'].order.post.parameters.map((p) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'user-agent',
    ]);
    expect(doc.components.schemas.WebhookOrderPayload.required).toEqual([
      'notification_id',
      'organizer',
      'event',
      'code',
      'action',
    ]);
  });

  describe('the outbox trigger on the audit log', () => {
    let orgId: number;
    let eventId: number;
    const deliveries = (logId: string) =>
      t.db.query<{ webhook_id: number; action: string; payload: object; order_code: string | null }[]>(
        'SELECT webhook_id, action, payload, order_code FROM webhook_delivery WHERE log_entry_id = $1 ORDER BY webhook_id',
        [logId],
      );
    const logAs = async (action: string, event: number | null, objectId: number | null, data = {}) => {
      const [row] = await t.db.query<{ id: string }[]>(
        `INSERT INTO log_entry (organizer_id, event_id, content_type, object_id, action_type, data)
         VALUES ($1, $2, 'order', $3, $4, $5) RETURNING id`,
        [orgId, event, objectId, action, JSON.stringify(data)],
      );
      return row.id;
    };

    beforeAll(async () => {
      await t.db.query('UPDATE webhook SET enabled = false');
      [{ id: orgId }] = await t.db.query<{ id: number }[]>("SELECT id FROM organizer WHERE slug = 'org'");
      [{ id: eventId }] = await t.db.query<{ id: number }[]>(
        "SELECT id FROM event WHERE slug = 'sample' AND organizer_id = $1",
        [orgId],
      );
    });

    it('fans one entry out to each matching enabled webhook (wildcards, limit_events, disabled ones skipped)', async () => {
      const all = await post(`${O}/webhooks/`, { ...BODY, action_types: ['pretix.event.order.changed.*'] });
      const limited = await post(`${O}/webhooks/`, {
        ...BODY,
        action_types: ['pretix.event.order.changed.*'],
        limit_events: ['second'],
      });
      const disabled = await post(`${O}/webhooks/`, {
        ...BODY,
        enabled: false,
        action_types: ['pretix.event.order.changed.*'],
      });
      expect([all.status, limited.status, disabled.status]).toEqual([201, 201, 201]);
      const id = await logAs('pretix.event.order.changed.item', eventId, null, { code: 'ABC12' });
      expect(await deliveries(id)).toEqual([
        {
          webhook_id: all.body.id,
          action: 'pretix.event.order.changed.item',
          order_code: 'ABC12',
          payload: {
            notification_id: Number(id),
            organizer: 'org',
            event: 'sample',
            code: 'ABC12',
            action: 'pretix.event.order.changed.item',
          },
        },
      ]);
      expect(await deliveries(await logAs('pretix.event.order.changed', eventId, null, { code: 'X' }))).toEqual([]);
      await t.db.query('UPDATE webhook SET enabled = false');
    });

    it('check-in entries carry the check-in fields; event entries only the event', async () => {
      const hook = await post(`${O}/webhooks/`, {
        ...BODY,
        action_types: ['pretix.event.checkin', 'pretix.event.live.activated'],
      });
      expect(hook.status).toBe(201);
      const id = await logAs('pretix.event.checkin', eventId, null, {
        position: 77,
        list: 5,
        type: 'exit',
        first: true,
        code: 'CHK01',
      });
      const [d] = await deliveries(id);
      expect(d.payload).toEqual({
        notification_id: Number(id),
        organizer: 'org',
        event: 'sample',
        code: 'CHK01',
        action: 'pretix.event.checkin',
        orderposition_id: 77,
        orderposition_positionid: null,
        checkin_list: 5,
        type: 'exit',
        first_checkin: true,
      });
      const [{ id: live }] = await t.db.query<{ id: string }[]>(
        `INSERT INTO log_entry (organizer_id, event_id, content_type, object_id, action_type, data)
         VALUES ($1, $2, 'event', $2, 'pretix.event.live.activated', '{}') RETURNING id`,
        [orgId, eventId],
      );
      expect((await deliveries(live)).map((x) => x.payload)).toEqual([
        { notification_id: Number(live), organizer: 'org', event: 'sample', action: 'pretix.event.live.activated' },
      ]);
      await t.db.query('UPDATE webhook SET enabled = false');
    });

    it('fires for entries written in the statement of their change (a cart position and its entry)', async () => {
      // Cart positions are not among the actions a webhook may ask for; a row set by SQL shows that the trigger
      // sees entries written together with their change (AuditLogService.recordEach) like any other.
      const hook = await post(`${O}/webhooks/`, BODY);
      expect(hook.status).toBe(201);
      await t.db.query(
        "UPDATE webhook SET action_types = '{pretix.event.cartposition.added}' WHERE id = $1",
        [hook.body.id],
      );
      const E = `${O}/events/sample`;
      const item = await post(`${E}/items/`, { name: 'Hooked', default_price: '5.00' });
      expect(item.status).toBe(201);
      expect((await post(`${E}/quotas/`, { name: 'Hooked', size: 5, items: [item.body.id] })).status).toBe(
        201,
      );
      const cart = await post(`${E}/cartpositions/`, { item: item.body.id, price: '5.00' });
      expect(cart.status).toBe(201);
      const [entry] = await t.db.query<{ id: string }[]>(
        "SELECT id FROM log_entry WHERE content_type = 'cartposition' AND object_id = $1",
        [cart.body.id],
      );
      expect(await deliveries(entry.id)).toEqual([
        {
          webhook_id: hook.body.id,
          action: 'pretix.event.cartposition.added',
          order_code: null,
          payload: {
            notification_id: Number(entry.id),
            organizer: 'org',
            event: 'sample',
            action: 'pretix.event.cartposition.added',
          },
        },
      ]);
      await t.db.query('UPDATE webhook SET enabled = false');
    });

    it('writes nothing when the change rolls back', async () => {
      await post(`${O}/webhooks/`, { ...BODY, action_types: ['pretix.event.order.paid'] });
      const before = await t.db.query('SELECT count(*) FROM webhook_delivery');
      const runner = t.db.createQueryRunner();
      await runner.startTransaction();
      await runner.query(
        `INSERT INTO log_entry (organizer_id, event_id, content_type, object_id, action_type, data)
         VALUES ($1, $2, 'order', NULL, 'pretix.event.order.paid', '{"code":"RB"}')`,
        [orgId, eventId],
      );
      expect((await runner.query('SELECT count(*) FROM webhook_delivery'))[0].count).not.toBe(before[0].count);
      await runner.rollbackTransaction();
      await runner.release();
      expect(await t.db.query('SELECT count(*) FROM webhook_delivery')).toEqual(before);
      await t.db.query('UPDATE webhook SET enabled = false');
    });
  });

  // Last: a second API app on the same database (closing it ends shared process state the first app uses).
  it('refuses private targets when WEBHOOK_ALLOW_PRIVATE_TARGETS is off', async () => {
    // A second API process on the same database with the guard on.
    const app = await createApiApp({
      databaseUrl: (t.db.options as { url: string }).url,
      queuePrefix: t.app.get(AppConfig).queuePrefix,
      logLevel: 'error',
      webhookAllowPrivateTargets: false,
    });
    const strict = { http: () => request(app.getHttpServer()) };
    try {
      for (const target_url of ['http://127.0.0.1:9000/', 'http://[::1]/', 'http://localhost/', 'http://10.0.0.8/']) {
        const res = await strict
          .http()
          .post(`${O}/webhooks/`)
          .set('Authorization', auth(token))
          .send({ ...BODY, target_url });
        expect([target_url, res.status, res.body]).toEqual([
          target_url,
          400,
          { target_url: ['Webhook targets on private, link-local or loopback addresses are not allowed.'] },
        ]);
      }
      const ok = await strict.http().post(`${O}/webhooks/`).set('Authorization', auth(token)).send(BODY);
      expect(ok.status).toBe(201);
    } finally {
      await app.close();
    }
  });

});
