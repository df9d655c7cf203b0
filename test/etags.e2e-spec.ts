import { readFileSync } from 'fs';
import { join } from 'path';
import type { Response } from 'supertest';
import { resourceRouteOf } from '../src/common/http/conditional-writes';
import { RouteRegistry } from '../src/common/http/route-registry';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { sampleLayout } from './seating-fixtures';

/**
 * ETags and conditional requests (issue 27 §2; README "Sync and concurrency"): every JSON GET answers a strong
 * `ETag` and honours `If-None-Match` (304); `PATCH`/`PUT`/`DELETE` and action POSTs honour `If-Match` (412 with the
 * current `ETag`, nothing changed), serialized so that two writers with one tag never both win. Driven from the
 * route table: every detail GET and every conditional write whose parameters the fixture can fill.
 */
describe('ETags and conditional requests', () => {
  let t: TestApp;
  let token: string;
  const ORG = '/api/v1/organizers/org';
  const E = `${ORG}/events/sample`;
  const TAG = /^"[A-Za-z0-9_-]{43}"$/;
  const STALE = '"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"';
  /** Route parameter values by name, and ids by the collection segment before `:id`/`:code`. */
  const params: Record<string, string> = { organizer: 'org', event: 'sample' };
  const ids: Record<string, string> = {};

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire bodies, checked by the assertions
  const send = async (path: string, body: unknown): Promise<Record<string, any>> => {
    const res = await t
      .http()
      .post(path)
      .set('Authorization', auth(token))
      .send(body as object);
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown>;
  };
  const get = (url: string, headers: Record<string, string> = {}) => {
    const req = t.http().get(url).set('Authorization', auth(token));
    for (const [k, v] of Object.entries(headers)) req.set(k, v);
    return req;
  };
  const write = (method: string, url: string, headers: Record<string, string>, body: object = {}) => {
    const agent = t.http();
    const req =
      method === 'PATCH'
        ? agent.patch(url)
        : method === 'PUT'
          ? agent.put(url)
          : method === 'DELETE'
            ? agent.delete(url)
            : agent.post(url);
    req.set('Authorization', auth(token));
    for (const [k, v] of Object.entries(headers)) req.set(k, v);
    return method === 'DELETE' ? req : req.send(body);
  };
  const etagOf = async (url: string): Promise<string> => {
    const res = await get(url);
    expect(res.status).toBe(200);
    return res.headers.etag;
  };

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    const rule = await send(`${E}/taxrules/`, { name: 'VAT', rate: '19.00' });
    const category = await send(`${E}/categories/`, { name: 'Tickets' });
    const item = await send(`${E}/items/`, {
      name: 'Ticket',
      default_price: '50.00',
      tax_rule: rule.id,
      category: category.id,
      variations: [{ value: 'Early' }, { value: 'Late', default_price: '60.00' }],
    });
    const other = await send(`${E}/items/`, { name: 'Other', default_price: '10.00' });
    const question = await send(`${E}/questions/`, {
      question: 'Size?',
      type: 'C',
      items: [item.id],
      options: [{ answer: 'S' }, { answer: 'M' }],
    });
    const quota = await send(`${E}/quotas/`, {
      name: 'All',
      size: 100,
      items: [item.id, other.id],
      variations: (item.variations as { id: number }[]).map((v) => v.id),
    });
    const voucher = await send(`${E}/vouchers/`, { code: 'VOUCHER1', item: item.id, max_usages: 5 });
    const discount = await send(`${E}/discounts/`, { internal_name: 'Group', condition_min_count: 2 });
    const orders: Record<string, unknown>[] = [];
    for (let i = 0; i < 3; i++) {
      orders.push(
        await send(`${E}/orders/`, {
          email: `buyer${i}@example.com`,
          status: i === 2 ? 'p' : 'n',
          payment_provider: 'banktransfer',
          positions: [{ item: other.id }],
        }),
      );
    }
    const position = (orders[0].positions as { id: number }[])[0].id;
    const paidPosition = (orders[2].positions as { id: number }[])[0].id;
    const giftcard = await send(`${ORG}/giftcards/`, { currency: 'EUR', value: '50.00' });
    const checkinList = await send(`${E}/checkinlists/`, { name: 'Main', all_products: true });
    const webhook = await send(`${ORG}/webhooks/`, {
      target_url: 'https://hooks.example.org/in',
      action_types: ['pretix.event.order.placed'],
    });
    const membership = await send(`${ORG}/membershiptypes/`, { name: { en: 'Annual pass' } });
    const customer = await send(`${ORG}/customers/`, { email: 'customer@example.org' });
    const property = await send(`${ORG}/event_meta_properties/`, { name: 'kind' });
    const mailRule = await send(`${E}/sendmail_rules/`, {
      subject: 'Hi',
      template: 'Hi {name}',
      send_date: '2031-01-01T10:00:00Z',
    });
    const team = await send(`${ORG}/teams/`, { name: 'Crew', all_events: true });
    const gate = await send(`${ORG}/gates/`, { name: 'North' });
    const payment = await send(`${E}/orders/${orders[0].code as string}/payments/`, {
      state: 'created',
      amount: '1.00',
      provider: 'manual',
    });
    // Further kinds: item parts, check-ins, money, organizer resources (bodies as in test/statement-counts).
    const addonCategory = await send(`${E}/categories/`, { name: 'Extras', is_addon: true });
    const bundled = await send(`${E}/items/`, { name: 'Included', default_price: '5.00' });
    const addon = await send(`${E}/items/${item.id}/addons/`, {
      addon_category: addonCategory.id,
      max_count: 1,
    });
    const bundle = await send(`${E}/items/${item.id}/bundles/`, { bundled_item: bundled.id, count: 1 });
    const programTime = await send(`${E}/items/${item.id}/program_times/`, {
      start: '2030-01-01T10:00:00Z',
      end: '2030-01-01T12:00:00Z',
    });
    const metaProperty = await send(`${E}/item_meta_properties/`, {
      name: 'color',
      default: 'red',
      allowed_values: ['red', 'blue'],
    });
    const autoRule = await send(`${E}/auto_checkin_rules/`, { list: checkinList.id });
    const refund = await send(`${E}/orders/${orders[0].code as string}/refunds/`, {
      state: 'created',
      source: 'admin',
      amount: '1.00',
      provider: 'manual',
    });
    const cart = await send(`${E}/cartpositions/`, { item: other.id, price: '10.00' });
    await t
      .http()
      .post(`${E}/checkinlists/${checkinList.id}/positions/${paidPosition}/redeem/`)
      .set('Authorization', auth(token))
      .send({ ignore_unpaid: true });
    const [checkin] = await t.db.query<{ id: number }[]>('SELECT id FROM checkin ORDER BY id LIMIT 1');
    const [transaction] = await t.db.query<{ id: number }[]>(
      'SELECT id FROM order_transaction ORDER BY id LIMIT 1',
    );
    const [waiting] = await t.db.query<{ id: number }[]>(
      `INSERT INTO waiting_list_entry (event_id, email, item_id)
       SELECT e.id, 'waiting@example.org', $1 FROM event e WHERE e.slug = 'sample' RETURNING id`,
      [item.id],
    );
    const membershipRow = await send(`${ORG}/memberships/`, {
      customer: customer.identifier,
      membership_type: membership.id,
      date_start: '2030-01-01T00:00:00Z',
      date_end: '2030-12-31T00:00:00Z',
    });
    const medium = await send(`${ORG}/reusablemedia/`, { type: 'barcode', identifier: 'CARD-1' });
    const plan = await send(`${ORG}/seatingplans/`, { name: 'Hall', layout: sampleLayout() });
    const invite = await send(`${ORG}/teams/${team.id}/invites/`, { email: 'carol@example.com' });
    const teamToken = await send(`${ORG}/teams/${team.id}/tokens/`, { name: 'one' });
    const device = await send(`${ORG}/devices/`, { name: 'Scanner', all_events: true, limit_events: [] });
    Object.assign(ids, {
      addons: String(addon.id),
      bundles: String(bundle.id),
      program_times: String(programTime.id),
      item_meta_properties: String(metaProperty.id),
      auto_checkin_rules: String(autoRule.id),
      refunds: String(refund.local_id),
      cartpositions: String(cart.id),
      ...(checkin ? { checkins: String(checkin.id) } : {}),
      transactions: String(transaction.id),
      waitinglistentries: String(waiting.id),
      memberships: String(membershipRow.id),
      reusablemedia: String(medium.id),
      seatingplans: String(plan.id),
      invites: String(invite.id),
      tokens: String(teamToken.id),
      devices: String(device.device_id),
      saleschannels: 'web',
      exporters: 'orderlist',
      positions: String(paidPosition),
    });
    Object.assign(params, {
      item: String(item.id),
      question: String(question.id),
      team: String(team.id),
      list: String(checkinList.id),
      customer: customer.identifier as string,
      code: orders[0].code as string,
    });
    Object.assign(ids, {
      taxrules: String(rule.id),
      categories: String(category.id),
      items: String(item.id),
      variations: String((item.variations as { id: number }[])[0].id),
      questions: String(question.id),
      options: String((question.options as { id: number }[])[0].id),
      quotas: String(quota.id),
      vouchers: String(voucher.id),
      discounts: String(discount.id),
      orders: orders[0].code as string,
      orderpositions: String(position),
      giftcards: String(giftcard.id),
      checkinlists: String(checkinList.id),
      webhooks: String(webhook.id),
      membershiptypes: String(membership.id),
      customers: customer.identifier as string,
      event_meta_properties: String(property.id),
      sendmail_rules: String(mailRule.id),
      teams: String(team.id),
      gates: String(gate.id),
      payments: String(payment.local_id),
    });
  });

  afterAll(() => t?.close());

  /** The route table's routes whose parameters the fixture fills, with their URL. */
  function routes(filter: (r: { method: string; path: string }) => boolean): { path: string; url: string }[] {
    const table = JSON.parse(readFileSync(join(__dirname, 'route-table.json'), 'utf8')) as {
      method: string;
      path: string;
      access: { kind: string };
    }[];
    const out: { path: string; url: string }[] = [];
    for (const r of table.filter((x) => x.access.kind !== 'public' && filter(x))) {
      if (!r.path.startsWith('/api/v1/organizers/:organizer') || r.path.includes(':subevent')) continue;
      // A file download (not JSON, no ETag): test/stored-files.e2e-spec.ts.
      if (r.path.includes('/answer/:question/')) continue;
      const segments = r.path.split('/');
      const filled = segments.map((s, i) => {
        if (!s.startsWith(':')) return s;
        const name = s.slice(1);
        if (['id', 'code', 'identifier'].includes(name)) return ids[segments[i - 1]];
        return params[name];
      });
      if (filled.some((s) => s === undefined)) continue;
      out.push({ path: r.path, url: filled.join('/') });
    }
    return out;
  }
  /** A detail GET: ends with a parameter, or a singleton (`E/`, `O/`, `settings/`). */
  const isDetail = (path: string) => /\/:[a-z_]+\/$/.test(path) || path.endsWith('/settings/');

  it('answers a strong ETag on every detail GET, the same until a change, and 304 for If-None-Match', async () => {
    const details = routes((r) => r.method === 'GET' && isDetail(r.path));
    expect(details.length).toBeGreaterThan(40);
    const failures: string[] = [];
    for (const { path, url } of details) {
      const first = await get(url);
      if (first.status !== 200) {
        failures.push(`${path}: ${first.status}`);
        continue;
      }
      const tag = first.headers.etag;
      if (!TAG.test(tag ?? '')) failures.push(`${path}: ETag ${tag}`);
      const again = await get(url);
      if (again.headers.etag !== tag) failures.push(`${path}: ETag changed without a change`);
      const cached = await get(url, { 'If-None-Match': `"other", ${tag}` });
      if (cached.status !== 304 || cached.text !== '' || cached.headers.etag !== tag) {
        failures.push(`${path}: If-None-Match ${cached.status} ${cached.text}`);
      }
      if ((await get(url, { 'If-None-Match': `W/${tag}` })).status !== 304) failures.push(`${path}: W/ tag`);
      if ((await get(url, { 'If-None-Match': '*' })).status !== 304) failures.push(`${path}: *`);
      if ((await get(url, { 'If-None-Match': STALE })).status !== 200) failures.push(`${path}: stale tag`);
    }
    expect(failures).toEqual([]);
  });

  it('leaves answers that are not JSON alone: a file download has no ETag and its bytes are intact', async () => {
    const fileQuestion = await send(`${E}/questions/`, { question: 'Photo', type: 'F', items: [] });
    await t.db.query(
      `WITH f AS (
         INSERT INTO stored_file (id, kind, filename, content_type, content, size, organizer_id)
         SELECT gen_random_uuid(), 'answer_file', 'photo.png', 'image/png', '\\x89504e47'::bytea, 4, e.organizer_id
           FROM event e WHERE e.slug = 'sample' RETURNING id)
       INSERT INTO question_answer (order_position_id, question_id, answer) SELECT $1, $2, 'file://' || f.id FROM f`,
      [ids.orderpositions, fileQuestion.id],
    );
    const file = await get(`${E}/orderpositions/${ids.orderpositions}/answer/${fileQuestion.id}/`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toMatch(/^image\/png/);
    expect(file.headers.etag).toBeUndefined();
    expect((file.body as Buffer).toString('hex')).toBe('89504e47');
  });

  it('answers an ETag on list GETs and 304 until the list changes', async () => {
    const first = await get(`${E}/items/`);
    expect(first.headers.etag).toMatch(TAG);
    const tag = first.headers.etag;
    expect((await get(`${E}/items/`, { 'If-None-Match': tag })).status).toBe(304);
    // Another page is another representation.
    expect((await get(`${E}/items/?page_size=1`)).headers.etag).not.toBe(tag);
    await send(`${E}/items/`, { name: 'Later', default_price: '1.00' });
    const changed = await get(`${E}/items/`, { 'If-None-Match': tag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(tag);
    // If-None-Match takes precedence over If-Modified-Since (RFC 9110 §13.1.3) on the conditional lists.
    const lastModified = changed.headers['last-modified'];
    expect((await get(`${E}/items/`, { 'If-Modified-Since': lastModified })).status).toBe(304);
    const both = await get(`${E}/items/`, { 'If-Modified-Since': lastModified, 'If-None-Match': tag });
    expect(both.status).toBe(200);
  });

  it('keeps an ETag when an unrelated row changes and changes it when a field of the answer does', async () => {
    const url = `${E}/items/${ids.items}/`;
    const tag = await etagOf(url);
    await write('PATCH', `${E}/taxrules/${ids.taxrules}/`, {}, { name: 'Other VAT' }).expect(200);
    await send(`${E}/items/`, { name: 'Unrelated', default_price: '2.00' });
    expect(await etagOf(url)).toBe(tag);
    await write('PATCH', url, {}, { position: 3 }).expect(200);
    const changed = await etagOf(url);
    expect(changed).not.toBe(tag);
    // A field of an embedded row (a variation) is a field of the answer.
    await write('PATCH', `${E}/items/${ids.items}/variations/${ids.variations}/`, {}, { position: 9 }).expect(
      200,
    );
    expect(await etagOf(url)).not.toBe(changed);
  });

  it('answers 412 with the current ETag and changes nothing for a stale If-Match on every conditional write', async () => {
    const registry = t.app.get(RouteRegistry);
    const failures: string[] = [];
    let checked = 0;
    for (const route of registry.routes) {
      const resource = resourceRouteOf(registry.routes, route);
      if (!resource) continue;
      const [url] = routes((r) => r.method === route.method && r.path === `${route.path}/`).map((r) => r.url);
      const [resourceUrl] = routes((r) => r.method === 'GET' && r.path === `${resource.path}/`).map(
        (r) => r.url,
      );
      if (!url || !resourceUrl) continue;
      const before = await get(resourceUrl);
      if (before.status !== 200) continue;
      const res = await write(route.method, url, { 'If-Match': STALE });
      checked++;
      if (res.status !== 412 || (res.body as { detail?: string }).detail !== 'Precondition failed.') {
        failures.push(`${route.method} ${route.path}: ${res.status} ${res.text}`);
      } else if (res.headers.etag !== before.headers.etag) {
        failures.push(`${route.method} ${route.path}: ETag ${res.headers.etag} is not the current one`);
      }
      const after = await get(resourceUrl);
      if (after.headers.etag !== before.headers.etag) failures.push(`${route.method} ${route.path}: changed`);
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });

  it.each([
    ['taxrules', { name: 'Reduced' }],
    ['categories', { name: 'Passes' }],
    ['items', { name: 'Renamed' }],
    ['questions', { question: 'Colour?' }],
    ['quotas', { size: 80 }],
    ['vouchers', { comment: 'changed' }],
    ['discounts', { internal_name: 'Groups' }],
    ['checkinlists', { name: 'Entrance' }],
    ['sendmail_rules', { subject: 'Hello' }],
  ])('PATCH E/%s/{id}/ with the current tag succeeds and answers the new ETag', async (kind, body) => {
    const url = `${E}/${kind}/${ids[kind]}/`;
    const tag = await etagOf(url);
    const res = await write('PATCH', url, { 'If-Match': tag }, body);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toMatch(TAG);
    expect(res.headers.etag).not.toBe(tag);
    expect(res.headers.etag).toBe(await etagOf(url));
    // The old tag is stale now.
    const stale = await write('PATCH', url, { 'If-Match': tag }, body);
    expect(stale.status).toBe(412);
    expect(stale.headers.etag).toBe(res.headers.etag);
  });

  it('PATCH on organizer resources and the event with the current tag and with *', async () => {
    for (const [url, body] of [
      [`${ORG}/webhooks/${ids.webhooks}/`, { target_url: 'https://hooks.example.org/other' }],
      [`${ORG}/membershiptypes/${ids.membershiptypes}/`, { name: { en: 'Season pass' } }],
      [`${ORG}/giftcards/${ids.giftcards}/`, { comment: 'VIP' }],
      [`${E}/`, { name: { en: 'Renamed Conference' } }],
    ] as const) {
      const tag = await etagOf(url);
      const res = await write('PATCH', url, { 'If-Match': tag }, body);
      expect([url, res.status]).toEqual([url, 200]);
      expect(res.headers.etag).toBe(await etagOf(url));
      expect((await write('PATCH', url, { 'If-Match': '*' }, body)).status).toBe(200);
    }
  });

  it('an order action with a stale tag answers 412 and leaves the order as it was; with the current one it runs', async () => {
    const code = ids.orders;
    const url = `${E}/orders/${code}/`;
    const state = () =>
      t.db.query<{ status: string }[]>('SELECT status FROM orders WHERE code = $1', [code]).then((r) => r[0]);
    const before = await get(url);
    expect(before.body.status).toBe('n');
    const stale = await write('POST', `${url}mark_paid/`, { 'If-Match': STALE });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ detail: 'Precondition failed.' });
    expect(stale.headers.etag).toBe(before.headers.etag);
    expect(await state()).toEqual({ status: 'n' });
    expect((await get(url)).headers.etag).toBe(before.headers.etag);
    const paid = await write('POST', `${url}mark_paid/`, { 'If-Match': before.headers.etag });
    expect(paid.status).toBe(200);
    expect(await state()).toEqual({ status: 'p' });
    expect(paid.headers.etag).toBe(await etagOf(url));
    expect(paid.headers.etag).not.toBe(before.headers.etag);
  });

  it('gift card transact honours If-Match', async () => {
    const url = `${ORG}/giftcards/${ids.giftcards}/`;
    const tag = await etagOf(url);
    const value = async () => ((await get(url)).body as { value: string }).value;
    const before = await value();
    expect((await write('POST', `${url}transact/`, { 'If-Match': STALE }, { value: '-1.00' })).status).toBe(
      412,
    );
    expect(await value()).toBe(before);
    const done = await write('POST', `${url}transact/`, { 'If-Match': tag }, { value: '-1.00' });
    expect(done.status).toBe(200);
    expect(await value()).not.toBe(before);
  });

  it('DELETE with a stale tag keeps the object; with the current tag deletes it; a missing object answers 404 or 412', async () => {
    const created = await send(`${E}/categories/`, { name: 'Doomed' });
    const url = `${E}/categories/${created.id}/`;
    expect((await write('DELETE', url, { 'If-Match': STALE })).status).toBe(412);
    expect((await get(url)).status).toBe(200);
    const gone = await write('DELETE', url, { 'If-Match': await etagOf(url) });
    expect(gone.status).toBe(204);
    expect(gone.headers.etag).toBeUndefined();
    expect((await get(url)).status).toBe(404);
    const again = await write('DELETE', url, { 'If-Match': '*' });
    expect(again.status).toBe(412);
    expect(again.headers.etag).toBeUndefined();
  });

  it('two clients editing one item with the same If-Match: one wins, one gets 412, the item shows the winner', async () => {
    const url = `${E}/items/${ids.items}/`;
    for (let round = 0; round < 5; round++) {
      const tag = await etagOf(url);
      const names = [`A${round}`, `B${round}`];
      const answers: Response[] = await Promise.all(
        names.map((name) => write('PATCH', url, { 'If-Match': tag }, { name: { en: name } })),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([200, 412]);
      const winner = names[answers.findIndex((a) => a.status === 200)];
      const now = await get(url);
      expect((now.body as { name: { en: string } }).name.en).toBe(winner);
      expect(answers.find((a) => a.status === 412)!.headers.etag).toBe(now.headers.etag);
    }
  });

  it('a keyed write with a stale tag stores the 412 and replays it with the ETag', async () => {
    const url = `${E}/quotas/${ids.quotas}/`;
    const headers = { 'If-Match': STALE, 'X-Idempotency-Key': 'etag-stale-1' };
    const first = await write('PATCH', url, headers, { size: 70 });
    expect(first.status).toBe(412);
    const replay = await write('PATCH', url, headers, { size: 70 });
    expect(replay.status).toBe(412);
    expect(replay.headers.etag).toBe(first.headers.etag);
    const tag = await etagOf(url);
    const keyed = { 'If-Match': tag, 'X-Idempotency-Key': 'etag-current-1' };
    const ok = await write('PATCH', url, keyed, { size: 71 });
    expect(ok.status).toBe(200);
    const okReplay = await write('PATCH', url, keyed, { size: 71 });
    expect(okReplay.status).toBe(200);
    expect(okReplay.headers.etag).toBe(ok.headers.etag);
  });

  it('writes without If-Match and routes without a resource ignore conditional headers as before', async () => {
    expect((await write('PATCH', `${E}/quotas/${ids.quotas}/`, {}, { size: 72 })).status).toBe(200);
    // A create on a list is no conditional write.
    const created = await write('POST', `${E}/categories/`, { 'If-Match': STALE }, { name: 'Any' });
    expect(created.status).toBe(201);
  });
});
