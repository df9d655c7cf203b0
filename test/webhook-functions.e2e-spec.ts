import { readdirSync } from 'fs';
import { join } from 'path';
import {
  WEBHOOK_FUNCTION_FILES,
  webhookFunctionDigest,
  WebhookFunctionDigests,
  webhookFunctionSql,
} from '../src/webhooks/webhook-functions';
import { auth, bootstrapOrganizer, createEvent, createSeries } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * The webhook outbox's database functions come from `src/webhooks/sql/*.sql` (pretix-compat.md §5): the newest
 * migration applying a file was written for its current text (a rule changed in a file without a migration
 * re-applying it fails here), the migrated database runs exactly the text of the files, and each payload family of webhook-payload.sql, written through the app's own paths where it has one (orders,
 * check-ins, sub-events, items, vouchers, events, webhooks) or as a log entry (customers, deleted orders).
 */
describe('webhook functions from src/webhooks/sql', () => {
  let t: TestApp;
  let token: string;
  let orgId: number;
  let hookId: number;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/sample`;

  const post = (path: string, body: object) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);

  /** The payloads (as sent: key order kept) and order codes of the deliveries of one action, oldest first. */
  const deliveries = async (action: string) =>
    (
      await t.db.query<{ body: string; order_code: string | null }[]>(
        'SELECT payload::text AS body, order_code FROM webhook_delivery WHERE action = $1 ORDER BY id',
        [action],
      )
    ).map((d) => ({ payload: JSON.parse(d.body) as Record<string, unknown>, code: d.order_code }));

  /** The one delivery of `action`, checked against `expected` key by key, in order. */
  const expectOne = async (action: string, expected: Record<string, unknown>, code: string | null = null) => {
    const found = await deliveries(action);
    expect(found).toHaveLength(1);
    expect(found[0].payload).toEqual(expected);
    expect(Object.keys(found[0].payload)).toEqual(Object.keys(expected));
    expect(found[0].code).toBe(code);
    return found[0].payload;
  };

  /** Inserts a log entry as the audit log does; @returns its id as a number */
  const logAs = async (
    action: string,
    contentType: string,
    eventId: number | null,
    objectId: number | null,
    data: object,
  ): Promise<number> => {
    const [row] = await t.db.query<{ id: string }[]>(
      `INSERT INTO log_entry (organizer_id, event_id, content_type, object_id, action_type, data)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [orgId, eventId, contentType, objectId, action, JSON.stringify(data)],
    );
    return Number(row.id);
  };

  /** The id of the newest log entry of `action`. */
  const entryOf = async (action: string): Promise<number> => {
    const [row] = await t.db.query<{ id: string }[]>(
      'SELECT max(id) AS id FROM log_entry WHERE action_type = $1',
      [action],
    );
    return Number(row.id);
  };

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createSeries(t, token, 'org', { slug: 'series' });
    await createEvent(t, token, 'org', { slug: 'doomed' });
    [{ id: orgId }] = await t.db.query<{ id: number }[]>("SELECT id FROM organizer WHERE slug = 'org'");
    const hook = await post(`${O}/webhooks/`, {
      target_url: 'https://hooks.example.org/in',
      action_types: ['pretix.event.order.placed'],
    });
    expect(hook.status).toBe(201);
    hookId = hook.body.id;
    // Every action of the families below, registered or not (the trigger matches any listed type).
    await t.db.query(
      `UPDATE webhook SET action_types = '{pretix.event.order.placed,pretix.event.order.deleted,
        pretix.event.checkin,pretix.event.checkin.exit,pretix.subevent.*,pretix.event.item.*,pretix.voucher.*,
        pretix.customer.*,pretix.event.changed,pretix.event.deleted,pretix.webhook.*}' WHERE id = $1`,
      [hookId],
    );
  });
  afterAll(() => t.close());

  it('the newest migration applying each SQL file names its current digest', async () => {
    const dir = join(__dirname, '..', 'migrations');
    const newest = new Map<string, { migration: string; digest: string }>();
    for (const name of readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .sort()) {
      const exported = Object.values((await import(join(dir, name))) as Record<string, unknown>);
      for (const cls of exported) {
        if (typeof cls !== 'function') continue;
        const declared = new (cls as new () => { webhookFunctions?: WebhookFunctionDigests })()
          .webhookFunctions;
        for (const [file, digest] of Object.entries(declared ?? {}))
          newest.set(file, { migration: name, digest });
      }
    }
    expect([...newest.keys()].sort()).toEqual([...WEBHOOK_FUNCTION_FILES].sort());
    const stale = WEBHOOK_FUNCTION_FILES.filter(
      (f) => newest.get(f)?.digest !== webhookFunctionDigest(f),
    ).map(
      (f) =>
        `src/webhooks/sql/${f}.sql changed since ${newest.get(f)?.migration} applied it: add a migration ` +
        `re-applying it with webhookFunctions = { '${f}': '${webhookFunctionDigest(f)}' }`,
    );
    expect(stale).toEqual([]);
  });

  it('the deployed webhook_payload and webhook_outbox are exactly the SQL files', async () => {
    const definitions = (runner: { query: (sql: string) => Promise<unknown> }) =>
      runner.query(
        `SELECT p.proname, pg_get_functiondef(p.oid) AS def, p.prosrc FROM pg_proc p
          WHERE p.proname IN ('webhook_payload', 'webhook_outbox') ORDER BY p.proname`,
      ) as Promise<{ proname: string; def: string; prosrc: string }[]>;
    const runner = t.db.createQueryRunner();
    await runner.connect();
    try {
      const deployed = await definitions(runner);
      expect(deployed.map((d) => d.proname)).toEqual(['webhook_outbox', 'webhook_payload']);
      // The body between the dollar quotes is stored as written.
      for (const file of WEBHOOK_FUNCTION_FILES) {
        const body = /AS \$fn\$([\s\S]*)\$fn\$;\s*$/.exec(webhookFunctionSql(file))?.[1];
        expect(typeof body).toBe('string');
        expect(deployed.find((d) => d.proname === file.replace('-', '_'))?.prosrc).toBe(body);
      }
      // The whole definition (arguments, volatility, language) too: apply the files and compare, then roll back.
      await runner.startTransaction();
      for (const file of WEBHOOK_FUNCTION_FILES) await runner.query(webhookFunctionSql(file));
      expect(await definitions(runner)).toEqual(deployed);
      await runner.rollbackTransaction();
      const [trigger] = (await runner.query(
        `SELECT tgname, tgfoid::regproc::text AS fn FROM pg_trigger WHERE tgrelid = 'log_entry'::regclass
            AND NOT tgisinternal`,
      )) as { tgname: string; fn: string }[];
      expect(trigger).toEqual({ tgname: 'webhook_outbox', fn: 'webhook_outbox' });
    } finally {
      await runner.release();
    }
  });

  it('orders: code from the order; a deleted order takes it from the log data', async () => {
    const item = await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00', admission: true });
    expect((await post(`${E}/quotas/`, { name: 'Q', size: 100, items: [item.body.id] })).status).toBe(201);
    const order = await post(`${E}/orders/`, { email: 'a@example.org', positions: [{ item: item.body.id }] });
    expect(order.status).toBe(201);
    const code = order.body.code as string;
    await expectOne(
      'pretix.event.order.placed',
      {
        notification_id: await entryOf('pretix.event.order.placed'),
        organizer: 'org',
        event: 'sample',
        code,
        action: 'pretix.event.order.placed',
      },
      code,
    );
    const [{ id: eventId }] = await t.db.query<{ id: number }[]>(
      "SELECT id FROM event WHERE slug = 'sample'",
    );
    const gone = await logAs('pretix.event.order.deleted', 'order', eventId, 999_999, { code: 'GONE1' });
    await expectOne(
      'pretix.event.order.deleted',
      {
        notification_id: gone,
        organizer: 'org',
        event: 'sample',
        code: 'GONE1',
        action: 'pretix.event.order.deleted',
      },
      'GONE1',
    );
  });

  it('check-ins: position id and positionid, list, type and first_checkin', async () => {
    const item = await post(`${E}/items/`, { name: 'Door', default_price: '0.00', admission: true });
    await post(`${E}/quotas/`, { name: 'Door', size: 10, items: [item.body.id] });
    const order = await post(`${E}/orders/`, {
      email: 'b@example.org',
      status: 'p',
      positions: [{ item: item.body.id }, { item: item.body.id }],
    });
    expect(order.status).toBe(201);
    const second = order.body.positions[1] as { id: number; positionid: number; secret: string };
    expect(second.positionid).toBe(2);
    const list = await post(`${E}/checkinlists/`, { name: 'Door', all_products: true });
    const redeem = (type: string) =>
      post(`${E}/checkinlists/${list.body.id}/positions/${second.secret}/redeem/`, { type });
    expect((await redeem('entry')).status).toBe(201);
    expect((await redeem('exit')).status).toBe(201);
    expect((await redeem('entry')).status).toBe(201);
    const base = { organizer: 'org', event: 'sample', code: order.body.code };
    const at = { orderposition_id: second.id, orderposition_positionid: 2, checkin_list: list.body.id };
    const entries = await deliveries('pretix.event.checkin');
    expect(entries.map((d) => d.payload)).toEqual(
      [
        { ...base, action: 'pretix.event.checkin', ...at, type: 'entry', first_checkin: true },
        { ...base, action: 'pretix.event.checkin', ...at, type: 'entry', first_checkin: false },
      ].map((p, i) => ({ notification_id: entries[i].payload.notification_id, ...p })),
    );
    expect(Object.keys(entries[0].payload)).toEqual([
      'notification_id',
      'organizer',
      'event',
      'code',
      'action',
      'orderposition_id',
      'orderposition_positionid',
      'checkin_list',
      'type',
      'first_checkin',
    ]);
    expect(entries.map((d) => d.code)).toEqual([order.body.code, order.body.code]);
    await expectOne(
      'pretix.event.checkin.exit',
      {
        notification_id: await entryOf('pretix.event.checkin.exit'),
        ...base,
        action: 'pretix.event.checkin.exit',
        ...at,
        type: 'exit',
        first_checkin: false,
      },
      order.body.code,
    );
  });

  it('sub-events, items (and their variations), vouchers: the object id', async () => {
    const date = await post(`${O}/events/series/subevents/`, {
      name: { en: 'Day' },
      date_from: '2030-01-01T19:00:00Z',
    });
    expect(date.status).toBe(201);
    await expectOne('pretix.subevent.added', {
      notification_id: await entryOf('pretix.subevent.added'),
      organizer: 'org',
      event: 'series',
      subevent: date.body.id,
      action: 'pretix.subevent.added',
    });
    const item = await post(`${E}/items/`, { name: 'Shirt', default_price: '20.00', has_variations: true });
    expect(item.status).toBe(201);
    const items = await deliveries('pretix.event.item.added');
    expect(items.at(-1)?.payload).toEqual({
      notification_id: await entryOf('pretix.event.item.added'),
      organizer: 'org',
      event: 'sample',
      item: item.body.id,
      action: 'pretix.event.item.added',
    });
    const variation = await post(`${E}/items/${item.body.id}/variations/`, { value: { en: 'XL' } });
    expect(variation.status).toBe(201);
    await expectOne('pretix.event.item.variation.added', {
      notification_id: await entryOf('pretix.event.item.variation.added'),
      organizer: 'org',
      event: 'sample',
      item: item.body.id,
      action: 'pretix.event.item.variation.added',
    });
    // data.item wins over the entry's object id.
    const [{ id: eventId }] = await t.db.query<{ id: number }[]>(
      "SELECT id FROM event WHERE slug = 'sample'",
    );
    const bundle = await logAs('pretix.event.item.bundles.added', 'item', eventId, 4242, {
      item: item.body.id,
    });
    await expectOne('pretix.event.item.bundles.added', {
      notification_id: bundle,
      organizer: 'org',
      event: 'sample',
      item: item.body.id,
      action: 'pretix.event.item.bundles.added',
    });
    const voucher = await post(`${E}/vouchers/`, { code: 'HOOKED1' });
    expect(voucher.status).toBe(201);
    await expectOne('pretix.voucher.added', {
      notification_id: await entryOf('pretix.voucher.added'),
      organizer: 'org',
      event: 'sample',
      voucher: voucher.body.id,
      action: 'pretix.voucher.added',
    });
  });

  it('customers: the identifier from the log data, no event', async () => {
    const id = await logAs('pretix.customer.created', 'customer', null, 17, { identifier: 'CUST7X' });
    await expectOne('pretix.customer.created', {
      notification_id: id,
      organizer: 'org',
      customer: 'CUST7X',
      action: 'pretix.customer.created',
    });
  });

  it('event-level, organizer-level and a deleted event (its slug from the log data)', async () => {
    const changed = await t
      .http()
      .patch(`${E}/`)
      .set('Authorization', auth(token))
      .send({ location: { en: 'Hall' } });
    expect(changed.status).toBe(200);
    await expectOne('pretix.event.changed', {
      notification_id: await entryOf('pretix.event.changed'),
      organizer: 'org',
      event: 'sample',
      action: 'pretix.event.changed',
    });
    const other = await post(`${O}/webhooks/`, {
      target_url: 'https://hooks.example.org/other',
      action_types: ['pretix.event.order.paid'],
      enabled: false,
    });
    expect(other.status).toBe(201);
    await expectOne('pretix.webhook.created', {
      notification_id: await entryOf('pretix.webhook.created'),
      organizer: 'org',
      action: 'pretix.webhook.created',
    });
    const deleted = await t.http().delete(`${O}/events/doomed/`).set('Authorization', auth(token));
    expect(deleted.status).toBe(204);
    const [{ id: entry }] = await t.db.query<{ id: number }[]>(
      "SELECT id::int FROM log_entry WHERE action_type = 'pretix.event.deleted' AND event_id IS NULL",
    );
    // Without data.slug the payload falls back to data.event.
    const bare = await logAs('pretix.event.deleted', 'event', null, 4243, { event: 'older' });
    expect((await deliveries('pretix.event.deleted')).map((d) => d.payload)).toEqual([
      { notification_id: entry, organizer: 'org', event: 'doomed', action: 'pretix.event.deleted' },
      { notification_id: bare, organizer: 'org', event: 'older', action: 'pretix.event.deleted' },
    ]);
  });
});
