import { DataSource } from 'typeorm';
import { AppConfig } from '../src/config/app-config';
import { ChangeEntryFacts, changeTargetOf, RESOURCE_OF_CONTENT_TYPE } from '../src/sync/change-resources';
import { RESOURCE_SQL } from '../src/sync/logs/audit-log.queries';
import { auth, bootstrapOrganizer, createDevice, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { agentOf, consent, login, redirectParams, userWithApp } from './oauth-helpers';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

/**
 * The audit log API (README "Audit log"; issue 27 §4): `O/logs/`, `E/logs/`, `E/orders/{code}/logs/` show the
 * entries the writes made, with their actor (a team token, a user through OAuth after the full authorization code
 * flow, a device, the system: order expiry run by a real worker's scheduler), the object (resource and key), the
 * old and new values of an update, filters (wildcards as on webhooks), per-resource permissions and team limits,
 * and never a secret (a run that creates tokens, webhooks, devices and orders is scanned in the database and on
 * the wire).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire bodies, checked by the assertions
type Json = Record<string, any>;

describe('audit log API', () => {
  let t: TestApp;
  let prefix: string;
  let admin: string;
  let teamId: number;
  let oauth: { userId: number; applicationId: number; accessToken: string };
  const ORG = '/api/v1/organizers/org';
  const E = `${ORG}/events/sample`;
  const OTHER = `${ORG}/events/other`;
  const as = (token: string) => ({
    get: (path: string) => t.http().get(path).set('Authorization', auth(token)),
    post: (path: string, body: object = {}) =>
      t.http().post(path).set('Authorization', auth(token)).send(body),
    patch: (path: string, body: object) => t.http().patch(path).set('Authorization', auth(token)).send(body),
  });
  const bearer = (path: string) => t.http().get(path).set('Authorization', `Bearer ${oauth.accessToken}`);

  /** Every entry of a log list (all pages). */
  async function all(path: string, token = admin): Promise<Json[]> {
    const out: Json[] = [];
    let url: string | null = path;
    while (url) {
      const res = await t
        .http()
        .get(url.replace(/^https?:\/\/[^/]+/, ''))
        .set('Authorization', auth(token));
      expect(res.status).toBe(200);
      out.push(...(res.body.results as Json[]));
      url = res.body.next as string | null;
    }
    return out;
  }

  let item: Json;
  let quota: Json;
  let otherItem: Json;
  let code: string;
  const secrets: string[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    prefix = t.app.get(AppConfig).queuePrefix;
    ({ token: admin, teamId } = await bootstrapOrganizer(t, 'org'));
    secrets.push(admin);
    await createEvent(t, admin, 'org', { slug: 'sample' });
    await createEvent(t, admin, 'org', { slug: 'other' });
    item = (await as(admin).post(`${E}/items/`, { name: { en: 'Ticket' }, default_price: '10.00' })).body;
    quota = (await as(admin).post(`${E}/quotas/`, { name: 'Q', size: 10, items: [item.id] })).body;
    otherItem = (await as(admin).post(`${OTHER}/items/`, { name: { en: 'Other' }, default_price: '5.00' }))
      .body;

    // A user acting through OAuth: member of the admin team, token from the authorization code flow.
    const app = await userWithApp(t, 'alice@example.com');
    await t.db.query('INSERT INTO team_member (team_id, user_id) VALUES ($1, $2)', [teamId, app.userId]);
    const agent = agentOf(t);
    expect((await login(agent, 'alice@example.com', 'password123')).status).toBe(303);
    const params = {
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: 'http://127.0.0.1:9/cb',
      state: 's',
      scope: 'read write',
    };
    const consented = await consent(agent, params, ['org']);
    expect(consented.status).toBe(302);
    const exchanged = await t
      .http()
      .post('/api/v1/oauth/token')
      .set('Authorization', `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`)
      .type('form')
      .send({
        grant_type: 'authorization_code',
        code: redirectParams(consented.headers.location).get('code')!,
        redirect_uri: 'http://127.0.0.1:9/cb',
      });
    expect(exchanged.status).toBe(200);
    oauth = {
      userId: app.userId,
      applicationId: app.applicationId,
      accessToken: exchanged.body.access_token,
    };
    secrets.push(app.clientSecret, exchanged.body.access_token, exchanged.body.refresh_token);

    await startWorker({ ...workerEnvFor(t), SCHEDULER_INTERVAL_MS: '500', SCHEDULER_WATCH_MS: '500' });
  });

  afterAll(async () => {
    await stopAllWorkers();
    await t?.close();
    await deleteQueueKeys(prefix);
  });

  it('a PATCH by a team token: actor token with its name, object item, old and new values', async () => {
    const res = await as(admin).patch(`${E}/items/${item.id}/`, {
      name: { en: 'Renamed' },
      default_price: '12.50',
    });
    expect(res.status).toBe(200);
    const [entry] = await all(`${E}/logs/?action_type=pretix.event.item.changed`);
    expect(entry).toMatchObject({
      action_type: 'pretix.event.item.changed',
      actor: { type: 'token', name: 'test' },
      object: { resource: 'item', key: { id: item.id } },
      event: 'sample',
    });
    expect(typeof entry.id).toBe('number');
    expect(entry.actor.id).toEqual(expect.any(Number));
    expect(entry.data.name).toEqual({ old: { en: 'Ticket' }, new: { en: 'Renamed' } });
    expect(Number(entry.data.default_price.old)).toBe(10);
    expect(Number(entry.data.default_price.new)).toBe(12.5);
    // Stored the same way: the entry carries the changes.
    const [row] = await t.db.query('SELECT changes FROM log_entry WHERE id = $1', [entry.id]);
    expect(row.changes.name).toEqual({ old: { en: 'Ticket' }, new: { en: 'Renamed' } });
  });

  it('a PATCH by a user through OAuth: actor oauth_application naming the application and the user', async () => {
    const res = await t
      .http()
      .patch(`${E}/quotas/${quota.id}/`)
      .set('Authorization', `Bearer ${oauth.accessToken}`)
      .send({ size: 20 });
    expect(res.status).toBe(200);
    const [entry] = await all(
      `${E}/logs/?action_type=pretix.event.quota.changed&actor_type=oauth_application`,
    );
    expect(entry).toMatchObject({
      actor: {
        type: 'oauth_application',
        id: oauth.applicationId,
        name: 'app of alice@example.com',
        user: { id: oauth.userId, email: 'alice@example.com' },
      },
      object: { resource: 'quota', key: { id: quota.id } },
      data: { size: { old: 10, new: 20 } },
    });
    const [row] = await t.db.query('SELECT user_id, oauth_application_id FROM log_entry WHERE id = $1', [
      entry.id,
    ]);
    expect(row).toEqual({ user_id: oauth.userId, oauth_application_id: oauth.applicationId });
    // The same list read through OAuth.
    const read = await bearer(`${E}/logs/?actor_type=oauth_application`);
    expect(read.status).toBe(200);
    expect(read.body.results.map((e: Json) => e.id)).toEqual([entry.id]);
  });

  it('a device: actor device with its number and name; organizer logs show it', async () => {
    const device = await createDevice(t, admin, 'org', { name: 'Door 1' });
    secrets.push(device.apiToken);
    const res = await t
      .http()
      .post('/api/v1/device/update')
      .set('Authorization', `Device ${device.apiToken}`)
      .send({
        hardware_brand: 'Zebra',
        hardware_model: 'TC26',
        software_brand: 'pretixSCAN',
        software_version: '1.22.0',
      });
    expect(res.status).toBe(200);
    const [entry] = await all(`${ORG}/logs/?action_type=pretix.device.updated`);
    expect(entry).toMatchObject({
      actor: { type: 'device', id: device.deviceId, name: 'Door 1' },
      object: { resource: 'device', key: { device_id: device.deviceId } },
      event: null,
    });
    expect(entry.data.hardware_model).toEqual({ old: 'TC25', new: 'TC26' });
    expect((await all(`${ORG}/logs/?actor_type=device`)).map((e) => e.id)).toContain(entry.id);
  });

  it('order logs: placed and contact change by the token, expiry by the system (real worker)', async () => {
    const placed = await as(admin).post(`${E}/orders/`, {
      email: 'a@example.org',
      positions: [{ item: item.id }],
    });
    expect(placed.status).toBe(201);
    code = placed.body.code;
    secrets.push(placed.body.secret, ...placed.body.positions.map((p: Json) => p.secret));
    const changed = await as(admin).patch(`${E}/orders/${code}/`, { email: 'b@example.org' });
    expect(changed.status).toBe(200);
    await t.db.query(`UPDATE orders SET expires = now() - interval '1 second' WHERE code = $1`, [code]);
    await eventually(async () => (await as(admin).get(`${E}/orders/${code}/`)).body.status === 'e');

    const entries = await all(`${E}/orders/${code}/logs/`);
    expect(entries.map((e) => e.action_type)).toEqual([
      'pretix.event.order.expired',
      'pretix.event.order.contact.changed',
      'pretix.event.order.placed',
    ]);
    for (const e of entries) expect(e.object).toEqual({ resource: 'order', key: { code } });
    expect(entries[0].actor).toEqual({ type: 'system', id: null, name: null });
    // The expiry logs before it updates the order: its entry still gets the status change.
    expect(entries[0].data.status).toEqual({ old: 'n', new: 'e' });
    expect(entries[1].actor.type).toBe('token');
    expect(entries[1].data.email).toEqual({ old: 'a@example.org', new: 'b@example.org' });
    const system = await all(`${E}/logs/?actor_type=system`);
    expect(system.map((e) => e.action_type)).toContain('pretix.event.order.expired');
    expect(system.every((e) => e.actor.type === 'system')).toBe(true);
    // Unknown order: 404.
    expect((await as(admin).get(`${E}/orders/NOPE1/logs/`)).status).toBe(404);
  });

  it('filters: action types with wildcards as webhooks match them, resource, dates, ordering; bad values 400', async () => {
    const items = await all(`${E}/logs/?action_type=pretix.event.item.*`);
    expect(items.length).toBeGreaterThanOrEqual(2);
    expect(items.every((e) => e.action_type.startsWith('pretix.event.item.'))).toBe(true);
    // `pretix.event.order.*` matches `pretix.event.order.placed`, not `pretix.event.order` itself; two values: any.
    const two = await all(
      `${E}/logs/?action_type=pretix.event.order.*&action_type=pretix.event.quota.changed`,
    );
    const types = new Set(two.map((e) => e.action_type));
    expect(types.has('pretix.event.order.placed')).toBe(true);
    expect(types.has('pretix.event.quota.changed')).toBe(true);
    expect(types.has('pretix.event.item.changed')).toBe(false);
    expect(await all(`${E}/logs/?action_type=pretix.event.order`)).toEqual([]);

    const orders = await all(`${E}/logs/?resource=order`);
    expect(orders.length).toBe(3);
    expect(orders.every((e) => e.object.resource === 'order')).toBe(true);
    const both = await all(`${E}/logs/?resource=order&resource=quota`);
    expect(new Set(both.map((e) => e.object.resource))).toEqual(new Set(['order', 'quota']));

    const everything = await all(`${E}/logs/`);
    // Newest first by default; `ordering=id` is oldest first.
    const ids = everything.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const ascending = (await all(`${E}/logs/?ordering=id`)).map((e) => e.id);
    expect(ascending).toEqual([...ids].reverse());
    expect((await all(`${E}/logs/?ordering=datetime`)).map((e) => e.id)).toEqual([...ids].reverse());

    const middle = everything[Math.floor(everything.length / 2)];
    const since = await all(`${E}/logs/?datetime_since=${encodeURIComponent(middle.datetime)}`);
    expect(since.every((e) => e.datetime >= middle.datetime)).toBe(true);
    expect(since.map((e) => e.id)).toContain(middle.id);
    const until = await all(`${E}/logs/?datetime_until=${encodeURIComponent(middle.datetime)}`);
    expect(until.every((e) => e.datetime <= middle.datetime)).toBe(true);
    expect(until.map((e) => e.id)).toContain(middle.id);
    expect(await all(`${E}/logs/?datetime_since=2100-01-01T00:00:00Z`)).toEqual([]);

    expect((await all(`${E}/logs/?actor_type=token`)).every((e) => e.actor.type === 'token')).toBe(true);

    for (const [query, field] of [
      ['action_type=pretix.*.placed', 'action_type'],
      ['action_type=*', 'action_type'],
      ['actor_type=robot', 'actor_type'],
      ['resource=nothing', 'resource'],
      ['datetime_since=yesterday', 'datetime_since'],
    ]) {
      const res = await as(admin).get(`${E}/logs/?${query}`);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual([field]);
    }
    // Entries of the other event stay in its own log.
    expect((await all(`${E}/logs/`)).every((e) => e.event === 'sample')).toBe(true);
    expect((await all(`${OTHER}/logs/`)).map((e) => e.object?.key)).toContainEqual({ id: otherItem.id });
  });

  it('permissions: settings permission for O/logs, orders read for order logs, entries filtered per resource and team limits', async () => {
    // A team limited to `sample`, with organizer settings but neither orders nor vouchers nor teams permissions.
    const limited = await teamToken(t, 'org', {
      limitEvents: ['sample'],
      eventPermissions: ['event.items:write'],
      organizerPermissions: ['organizer.settings.general:write'],
    });
    const orgEntries = await all(`${ORG}/logs/`, limited);
    expect(orgEntries.length).toBeGreaterThan(0);
    expect(orgEntries.some((e) => e.event === 'other')).toBe(false);
    expect(orgEntries.some((e) => e.event === 'sample')).toBe(true);
    for (const e of orgEntries) {
      expect(['order', 'orderposition', 'checkin', 'team', 'device', 'voucher']).not.toContain(
        e.object?.resource,
      );
    }
    const eventEntries = await all(`${E}/logs/`, limited);
    expect(eventEntries.some((e) => e.object?.resource === 'order')).toBe(false);
    expect(eventEntries.some((e) => e.object?.resource === 'item')).toBe(true);
    // The admin sees the order entries that were left out.
    expect((await all(`${E}/logs/`)).some((e) => e.object?.resource === 'order')).toBe(true);
    // The other event: not reachable.
    expect((await as(limited).get(`${OTHER}/logs/`)).status).toBe(403);
    // Order logs need the orders read permission.
    expect((await as(limited).get(`${E}/orders/${code}/logs/`)).status).toBe(403);
    // Organizer logs need the settings permission.
    const reader = await teamToken(t, 'org', { allEvents: true, eventPermissions: ['event.orders:read'] });
    expect((await as(reader).get(`${ORG}/logs/`)).status).toBe(403);
    const orderEntries = await all(`${E}/orders/${code}/logs/`, reader);
    expect(orderEntries).toHaveLength(3);
    // With orders read, the event log shows the order entries too.
    expect((await all(`${E}/logs/`, reader)).some((e) => e.object?.resource === 'order')).toBe(true);
  });

  it('no secret in any entry: tokens, webhooks, devices and orders leave none in the database or on the wire', async () => {
    const created = await as(admin).post(`${ORG}/teams/${teamId}/tokens/`, { name: 'second' });
    expect(created.status).toBe(201);
    secrets.push(created.body.token);
    const webhook = await as(admin).post(`${ORG}/webhooks/`, {
      target_url: 'https://example.org/hook',
      action_types: ['pretix.event.order.placed'],
      all_events: true,
    });
    expect(webhook.status).toBe(201);
    secrets.push(webhook.body.secret);
    const rotated = await as(admin).post(`${ORG}/webhooks/${webhook.body.id}/rotate_secret/`);
    expect(rotated.status).toBe(200);
    secrets.push(rotated.body.secret);
    const device = await as(admin).post(`${ORG}/devices/`, {
      name: 'Box',
      all_events: true,
      limit_events: [],
    });
    expect(device.status).toBe(201);
    secrets.push(device.body.initialization_token);
    const init = await t.http().post('/api/v1/device/initialize').send({
      token: device.body.initialization_token,
      hardware_brand: 'Zebra',
      hardware_model: 'TC25',
      software_brand: 'pretixSCAN',
      software_version: '1.21.0',
    });
    expect(init.status).toBe(200);
    secrets.push(init.body.api_token);
    const roll = await t
      .http()
      .post('/api/v1/device/roll')
      .set('Authorization', `Device ${init.body.api_token}`);
    expect(roll.status).toBe(200);
    secrets.push(roll.body.api_token);
    const order = await as(admin).post(`${E}/orders/`, {
      email: 'c@example.org',
      positions: [{ item: item.id }],
    });
    secrets.push(order.body.secret, ...order.body.positions.map((p: Json) => p.secret));
    const regenerated = await as(admin).post(`${E}/orders/${order.body.code}/regenerate_secrets/`);
    expect(regenerated.status).toBe(200);
    const after = await as(admin).get(`${E}/orders/${order.body.code}/`);
    secrets.push(after.body.secret, ...after.body.positions.map((p: Json) => p.secret));

    const values = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);
    expect(values.length).toBeGreaterThanOrEqual(12);
    const rows: { text: string }[] = await t.db.query(
      `SELECT coalesce(data::text, '') || coalesce(changes::text, '') AS text FROM log_entry`,
    );
    const stored = rows.map((r) => r.text).join('\n');
    const wire = JSON.stringify([...(await all(`${ORG}/logs/`)), ...(await all(`${E}/logs/`))]);
    for (const secret of values) {
      expect(stored.includes(secret)).toBe(false);
      expect(wire.includes(secret)).toBe(false);
    }
    // The webhook's rotation is logged, its secret redacted.
    const rotation = (await all(`${ORG}/logs/?resource=webhook`)).find((e) => 'secret' in e.data);
    expect(rotation?.data.secret).toEqual({ new: '[redacted]' });
  });
});

describe('audit log API: old and new values on the common PATCH paths', () => {
  let t: TestApp;
  let admin: string;
  let teamId: number;
  const ORG = '/api/v1/organizers/org';
  const E = `${ORG}/events/sample`;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token: admin, teamId } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, admin, 'org', { slug: 'sample' });
  });
  afterAll(() => t?.close());

  const send = async (method: 'post' | 'patch', path: string, body: object): Promise<Json> => {
    const res = await t.http()[method](path).set('Authorization', auth(admin)).send(body);
    expect([200, 201]).toContain(res.status);
    return res.body as Json;
  };

  it('the SQL resource of an entry is the one changeTargetOf gives (one mapping, two forms)', async () => {
    const cases: ChangeEntryFacts[] = [
      ...Object.keys(RESOURCE_OF_CONTENT_TYPE).map((contentType) => facts(contentType, 'pretix.x', {})),
      facts('order', 'pretix.event.checkin', { checkin: 5, position: 3 }),
      facts('order', 'pretix.event.checkin.reverted', { checkin: '7' }),
      facts('order', 'pretix.event.checkin', { position: 3 }),
      facts('order', 'pretix.event.checkin', { checkin: 0 }),
      facts('order', 'pretix.event.checkin', { checkin: '1234567890123456' }),
      facts('order', 'pretix.event.checkin', { checkin: 2.5 }),
      facts('order', 'pretix.event.order.paid', { checkin: 5 }),
      facts('customer', 'pretix.customer.membership.created', { id: 9 }),
      facts('customer', 'pretix.customer.membership.changed', {}),
      facts('customer', 'pretix.customer.changed', { id: 9 }),
      facts('unknown_thing', 'pretix.x', {}),
    ];
    const rows: { resource: string }[] = await t.app.get(DataSource).query(
      `SELECT ${RESOURCE_SQL} AS resource
         FROM jsonb_to_recordset($1::jsonb) AS le(n int, content_type text, action_type text, data jsonb)
        ORDER BY le.n`,
      [
        JSON.stringify(
          cases.map((c, n) => ({ n, content_type: c.contentType, action_type: c.actionType, data: c.data })),
        ),
      ],
    );
    const expected = cases.map((c) => changeTargetOf(c)?.resource ?? '');
    expect(rows.map((r) => r.resource)).toEqual(expected);
    // prettier-ignore
    expect(expected.slice(-11)).toEqual([
      'checkin', 'checkin', 'order', 'order', 'order', 'order', 'order', 'membership', 'customer', 'customer', '',
    ]);
  });

  it('each PATCH logs {"old", "new"} of the fields it changed, and only those', async () => {
    const item = await send('post', `${E}/items/`, { name: { en: 'T' }, default_price: '10.00' });
    const cases: [string, string, object, string, unknown, unknown][] = [];
    const voucher = await send('post', `${E}/vouchers/`, { code: 'AUDIT1', max_usages: 1, item: item.id });
    cases.push([
      `${E}/vouchers/${voucher.id}/`,
      'pretix.voucher.changed',
      { max_usages: 5 },
      'max_usages',
      1,
      5,
    ]);
    const category = await send('post', `${E}/categories/`, { name: { en: 'Cat' } });
    cases.push([
      `${E}/categories/${category.id}/`,
      'pretix.event.category.changed',
      { name: { en: 'Dog' } },
      'name',
      { en: 'Cat' },
      { en: 'Dog' },
    ]);
    const question = await send('post', `${E}/questions/`, { question: { en: 'Q?' }, type: 'S', items: [] });
    cases.push([
      `${E}/questions/${question.id}/`,
      'pretix.event.question.changed',
      { required: true },
      'required',
      false,
      true,
    ]);
    const list = await send('post', `${E}/checkinlists/`, { name: 'Main', all_products: true });
    cases.push([
      `${E}/checkinlists/${list.id}/`,
      'pretix.event.checkinlist.changed',
      { name: 'Side' },
      'name',
      'Main',
      'Side',
    ]);
    cases.push([
      `${E}/`,
      'pretix.event.changed',
      { location: { en: 'Berlin' } },
      'location',
      null,
      { en: 'Berlin' },
    ]);
    cases.push([
      `${ORG}/teams/${teamId}/`,
      'pretix.team.changed',
      { name: 'Admins 2' },
      'name',
      undefined,
      'Admins 2',
    ]);
    for (const [path, action, body, field, oldValue, newValue] of cases) {
      await send('patch', path, body);
      const res = await t.http().get(`${ORG}/logs/?action_type=${action}`).set('Authorization', auth(admin));
      expect(res.status).toBe(200);
      const [entry] = res.body.results as Json[];
      expect(entry).toMatchObject({ action_type: action, datetime: expect.any(String) });
      expect(Object.keys(entry.data)).toEqual([field]);
      if (oldValue !== undefined) expect(entry.data[field].old).toEqual(oldValue);
      expect(entry.data[field].new).toEqual(newValue);
    }
  });
});

/** An entry's facts for the mapping (event 1, object 1). */
function facts(contentType: string, actionType: string, data: Record<string, unknown>): ChangeEntryFacts {
  return { contentType, objectId: 1, actionType, eventId: 1, data };
}
