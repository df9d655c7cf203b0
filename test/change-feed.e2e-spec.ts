import { Client } from 'pg';
import { Change, pullAll, settle } from './change-feed-client';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { AppConfig } from '../src/config/app-config';
import { ChangeSequencer } from '../src/sync/changes/change-sequencer.service';

/**
 * `GET O/changes/` (issue 27 §1): shape, data as the detail GET answers it, deletions as tombstones, the cursor
 * (also on an empty page), filters, page size, permission filtering in SQL, 410 after pruning, and gap-freedom
 * with a writer that commits after later ones were read.
 */
describe('change feed', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org';
  const A = `${O}/events/alpha`;
  const B = `${O}/events/beta`;

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object) =>
    t.http().patch(path).set('Authorization', auth(token)).send(body);
  const del = (path: string) => t.http().delete(path).set('Authorization', auth(token));
  async function created(path: string, body: object): Promise<Record<string, unknown> & { id: number }> {
    const res = await post(path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
  /** The feed from the start (or `cursor`), every page read. */
  const feed = (query = '', tok = token, cursor: string | null = null) =>
    pullAll(t, tok, 'org', cursor, query);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'alpha' });
    await createEvent(t, token, 'org', { slug: 'beta' });
  });
  afterAll(() => t.close());

  it('lists a create, an update and a delete with data as the detail GET answers it', async () => {
    const { cursor } = await feed();
    const category = await created(`${A}/categories/`, { name: { en: 'Merch' } });
    expect((await patch(`${A}/categories/${category.id}/`, { position: 3 })).status).toBe(200);
    const item = await created(`${A}/items/`, { name: { en: 'Shirt' }, default_price: '10.00' });
    const { changes } = await feed('', token, cursor);
    const detail = (await get(`${A}/items/${item.id}/`)).body;
    const forItem = changes.filter((c) => c.resource === 'item');
    expect(forItem).toEqual([
      {
        id: expect.stringMatching(/^chg_\d+$/),
        sequence: expect.any(Number),
        action: 'pretix.event.item.added',
        resource: 'item',
        event: 'alpha',
        key: { id: item.id },
        occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        data: detail,
        deleted: false,
      },
    ]);
    const forCategory = changes.filter((c) => c.resource === 'category');
    expect(forCategory.map((c) => c.action)).toEqual([
      'pretix.event.category.added',
      'pretix.event.category.changed',
    ]);
    // Both entries carry the state at reading time.
    expect(forCategory.map((c) => c.data?.position)).toEqual([3, 3]);
    const sequences = changes.map((c) => c.sequence);
    expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
    expect(new Set(changes.map((c) => c.id)).size).toBe(changes.length);

    expect((await del(`${A}/categories/${category.id}/`)).status).toBe(204);
    const after = await feed('resource=category', token, cursor);
    expect(after.changes.map((c) => [c.action, c.deleted, c.data])).toEqual([
      ['pretix.event.category.added', true, null],
      ['pretix.event.category.changed', true, null],
      ['pretix.event.category.deleted', true, null],
    ]);
    expect(after.changes.every((c) => c.key.id === category.id)).toBe(true);
  });

  it('renders devices, gates, webhooks, e-mail rules, customers and sales channels as their detail GET', async () => {
    const { cursor } = await feed();
    const gate = await created(`${O}/gates/`, { name: 'North' });
    const device = await created(`${O}/devices/`, {
      name: 'Box',
      all_events: true,
      limit_events: [],
      gate: gate.id,
    });
    const hook = await created(`${O}/webhooks/`, {
      target_url: 'https://hooks.example.org/feed',
      action_types: ['pretix.event.order.placed'],
      all_events: false,
      limit_events: ['alpha'],
    });
    const rule = await created(`${A}/sendmail_rules/`, {
      subject: 'Hi',
      template: 'T',
      send_date: '2031-01-01T10:00:00Z',
    });
    const customer = await created(`${O}/customers/`, { email: 'feed@example.org', is_active: true });
    const identifier = String(customer.identifier);
    const deviceId = Number(device.device_id);
    expect((await patch(`${O}/customers/${identifier}/`, { email: 'feed2@example.org' })).status).toBe(200);
    const channel = await created(`${O}/saleschannels/`, { identifier: 'api.feed', label: 'Feed' });
    const details: Record<string, [string, unknown]> = {
      gate: [`${O}/gates/${gate.id}/`, { id: gate.id }],
      device: [`${O}/devices/${deviceId}/`, { device_id: deviceId }],
      webhook: [`${O}/webhooks/${hook.id}/`, { id: hook.id }],
      sendmailrule: [`${A}/sendmail_rules/${rule.id}/`, { id: rule.id }],
      customer: [`${O}/customers/${identifier}/`, { identifier }],
      saleschannel: [`${O}/saleschannels/api.feed/`, { identifier: 'api.feed' }],
    };
    const { changes } = await feed(
      Object.keys(details)
        .map((r) => `resource=${r}`)
        .join('&'),
      token,
      cursor,
    );
    expect(new Set(changes.map((c) => c.resource))).toEqual(new Set(Object.keys(details)));
    expect(changes.filter((c) => c.resource === 'customer')).toHaveLength(2);
    for (const [resource, [path, key]] of Object.entries(details)) {
      const detail = await get(path);
      expect(detail.status).toBe(200);
      for (const change of changes.filter((c) => c.resource === resource)) {
        expect({ resource, key: change.key, data: change.data, deleted: change.deleted }).toEqual({
          resource,
          key,
          data: detail.body,
          deleted: false,
        });
      }
    }
    expect(channel.identifier).toBe('api.feed');
  });

  it('answers the next cursor on an empty page too, and the same page again for the same cursor', async () => {
    const { cursor } = await feed();
    const empty = await get(`${O}/changes/?cursor=${cursor}`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ next: cursor, results: [] });
    await created(`${B}/quotas/`, { name: 'Q', size: 10, items: [] });
    await settle(t);
    const one = await get(`${O}/changes/?cursor=${cursor}`);
    const two = await get(`${O}/changes/?cursor=${cursor}`);
    expect(one.body.results).toHaveLength(1);
    expect(two.body).toEqual(one.body);
    expect(one.body.next).not.toBe(cursor);
    expect((await get(`${O}/changes/?cursor=${one.body.next}`)).body).toEqual({
      next: one.body.next,
      results: [],
    });
  });

  it('filters by resource (repeatable) and event, pages up to 1,000, and refuses bad parameters', async () => {
    const { cursor } = await feed();
    await created(`${A}/quotas/`, { name: 'QA', size: 1, items: [] });
    await created(`${B}/quotas/`, { name: 'QB', size: 1, items: [] });
    await created(`${B}/categories/`, { name: 'CB' });
    const beta = await feed('event=beta', token, cursor);
    expect(beta.changes.map((c) => [c.resource, c.event])).toEqual([
      ['quota', 'beta'],
      ['category', 'beta'],
    ]);
    const two = await feed('resource=quota&resource=category', token, cursor);
    expect(two.changes.map((c) => c.resource)).toEqual(['quota', 'quota', 'category']);
    expect((await feed('resource=voucher', token, cursor)).changes).toEqual([]);
    expect((await get(`${O}/changes/?resource=nope`)).body).toEqual({
      resource: ['Unknown resource "nope".'],
    });
    expect((await get(`${O}/changes/?page_size=1001`)).status).toBe(400);
    expect((await get(`${O}/changes/?cursor=bogus`)).body).toEqual({ cursor: ['Invalid cursor.'] });

    const vouchers = await post(
      `${A}/vouchers/batch_create/`,
      Array.from({ length: 1100 }, () => ({})),
    );
    expect(vouchers.status).toBe(201);
    await settle(t);
    const page = await get(`${O}/changes/?cursor=${two.cursor}&page_size=1000&resource=voucher`);
    expect(page.status).toBe(200);
    expect(page.body.results).toHaveLength(1000);
    const rest = await get(`${O}/changes/?cursor=${page.body.next}&page_size=1000&resource=voucher`);
    expect(rest.body.results).toHaveLength(100);
    const ids = [...page.body.results, ...rest.body.results].map((c: Change) => c.key.id);
    expect(new Set(ids).size).toBe(1100);
    expect(page.body.results[0].data).toEqual((await get(`${A}/vouchers/${ids[0]}/`)).body);
  }, 60_000);

  it('returns only what the credential may read: limited events, per-resource permissions, no tombstones', async () => {
    const { cursor } = await feed();
    const limited = await teamToken(t, 'org', {
      limitEvents: ['alpha'],
      eventPermissions: ['event.orders:read'],
    });
    const itemsOnly = await teamToken(t, 'org', { allEvents: true, eventPermissions: [] });
    const ticket = await created(`${A}/items/`, { name: 'T', default_price: '5.00' });
    await created(`${A}/quotas/`, { name: 'QT', size: 10, items: [ticket.id] });
    await created(`${B}/categories/`, { name: 'Hidden' });
    const voucher = await created(`${A}/vouchers/`, {});
    expect((await del(`${A}/vouchers/${voucher.id}/`)).status).toBe(204);
    const order = await created(`${A}/orders/`, { email: 'a@example.org', positions: [{ item: ticket.id }] });
    await created(`${O}/giftcards/`, { currency: 'EUR', value: '5.00' });

    const all = (await feed('', token, cursor)).changes.map((c) => c.resource);
    // A new card logs its creation and the transaction of its initial value.
    expect(all).toEqual(['item', 'quota', 'category', 'voucher', 'voucher', 'order', 'giftcard', 'giftcard']);
    const seen = (await feed('', limited, cursor)).changes;
    expect(seen.map((c) => [c.resource, c.event])).toEqual([
      ['item', 'alpha'],
      ['quota', 'alpha'],
      ['order', 'alpha'],
    ]);
    expect(seen[2].key).toEqual({ code: (order as unknown as { code: string }).code });
    expect((await feed('', itemsOnly, cursor)).changes.map((c) => c.resource)).toEqual([
      'item',
      'quota',
      'category',
    ]);
  });

  it('never skips a change whose transaction commits after later ones were read', async () => {
    const { cursor } = await feed();
    const [{ id: organizerId }] = await t.db.query<{ id: number }[]>(
      "SELECT id FROM organizer WHERE slug = 'org'",
    );
    const [{ id: eventId }] = await t.db.query<{ id: number }[]>("SELECT id FROM event WHERE slug = 'alpha'");
    const late = new Client({ connectionString: t.app.get(AppConfig).databaseUrl });
    await late.connect();
    try {
      await late.query('BEGIN');
      // Takes its log entry id (and transaction id) now, commits last.
      await late.query(
        `INSERT INTO log_entry (organizer_id, event_id, content_type, object_id, action_type, data)
         VALUES ($1, $2, 'itemcategory', 999999, 'pretix.event.category.changed', '{}')`,
        [organizerId, eventId],
      );
      const early = await created(`${A}/categories/`, { name: 'Early' });
      // The reader sees nothing past the open transaction, and hands out no cursor beyond it.
      const first = await get(`${O}/changes/?cursor=${cursor}&resource=category`);
      expect(first.body.results).toEqual([]);
      await late.query('COMMIT');
      const { changes } = await feed('resource=category', token, first.body.next);
      expect(changes.map((c) => c.key.id)).toEqual([999999, early.id]);
      expect(changes[0]).toMatchObject({ deleted: true, data: null });
    } finally {
      await late.end();
    }
  });

  it('answers 410 for a cursor whose following changes were pruned', async () => {
    const { cursor } = await feed();
    await created(`${A}/categories/`, { name: 'Old' });
    const { cursor: later } = await feed();
    await t.db.query("UPDATE change_feed_entry SET sequenced_at = now() - interval '31 days'");
    expect(await t.app.get(ChangeSequencer).prune()).toBeGreaterThan(0);
    const gone = await get(`${O}/changes/?cursor=${cursor}`);
    expect(gone.status).toBe(410);
    expect(gone.body.detail).toMatch(/older than the change feed keeps/);
    expect((await get(`${O}/changes/?cursor=${later}`)).status).toBe(200);
    expect((await get(`${O}/changes/`)).status).toBe(200);
  });
});
