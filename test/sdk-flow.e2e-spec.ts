import {
  createTicketingClient,
  entityTagOf,
  isNotModified,
  isPreconditionFailed,
  type Schema,
  type TicketingClient,
} from '../sdk/typescript/src';
import { bootstrapOrganizer } from './factories';
import { startTestApp, type TestApp } from './harness';

/**
 * The generated TypeScript SDK (sdk/typescript: openapi-typescript types + openapi-fetch) against the running
 * server (README "API conventions"): a whole sale through typed calls only (no casts, no `any`, no non-null
 * assertions), and the typed fields compared with the live JSON. A call the types refuse, or an answer they
 * mistype, is a defect of the document.
 */
describe('TypeScript SDK flow', () => {
  let t: TestApp;
  let client: TicketingClient;
  let baseUrl: string;
  let token: string;
  const organizer = 'sdk-org';
  const MONEY = /^-?\d+\.\d{2}$/;
  const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

  beforeAll(async () => {
    t = await startTestApp();
    token = (await bootstrapOrganizer(t, organizer)).token;
    await t.app.listen(0, '127.0.0.1');
    baseUrl = await t.app.getUrl();
    client = createTicketingClient({ baseUrl, token });
  });

  afterAll(async () => {
    await t?.close();
  });

  /** The answer's body, or a failure naming the status and the error body. */
  function expectData<T>(result: { data?: T; error?: unknown; response: Response }): T {
    if (result.data === undefined)
      throw new Error(`${result.response.status}: ${JSON.stringify(result.error ?? null)}`);
    return result.data;
  }

  it('creates an event, a category, an item, a quota, a voucher and an order, marks it paid and lists it', async () => {
    const created = await client.POST('/api/v1/organizers/{organizer}/events/', {
      params: { path: { organizer } },
      body: {
        name: { en: 'SDK Conference' },
        slug: 'sdkconf',
        currency: 'EUR',
        date_from: '2030-06-01T10:00:00Z',
      },
    });
    const event: Schema<'EventJson'> = expectData(created);
    expect(created.response.status).toBe(201);
    expect(event.slug).toBe('sdkconf');
    expect(event.name.en).toBe('SDK Conference');
    expect(event.date_from).toMatch(DATE_TIME);
    const path = { organizer, event: event.slug };

    const category = expectData(
      await client.POST('/api/v1/organizers/{organizer}/events/{event}/categories/', {
        params: { path },
        body: { name: { en: 'Tickets' } },
      }),
    );
    expect(typeof category.id).toBe('number');

    const item = expectData(
      await client.POST('/api/v1/organizers/{organizer}/events/{event}/items/', {
        params: { path },
        body: { name: { en: 'Regular ticket' }, default_price: '25.00', category: category.id },
      }),
    );
    expect(item.default_price).toBe('25.00');
    expect(item.default_price).toMatch(MONEY);
    expect(item.category).toBe(category.id);

    const quota = expectData(
      await client.POST('/api/v1/organizers/{organizer}/events/{event}/quotas/', {
        params: { path },
        body: { name: 'All tickets', size: 10, items: [item.id] },
      }),
    );
    expect(quota.size).toBe(10);
    expect(quota.items).toEqual([item.id]);

    const voucher = expectData(
      await client.POST('/api/v1/organizers/{organizer}/events/{event}/vouchers/', {
        params: { path },
        body: { code: 'SDKDISCOUNT', item: item.id, price_mode: 'set', value: '20.00', max_usages: 5 },
      }),
    );
    expect(voucher.code).toBe('SDKDISCOUNT');
    expect(voucher.price_mode).toBe('set');
    expect(voucher.value).toMatch(MONEY);

    const placed = await client.POST('/api/v1/organizers/{organizer}/events/{event}/orders/', {
      params: { path },
      body: {
        email: 'buyer@example.org',
        locale: 'en',
        payment_provider: 'banktransfer',
        positions: [{ item: item.id, voucher: voucher.code, attendee_name: 'Ada Lovelace' }],
      },
    });
    const order: Schema<'OrderJson'> = expectData(placed);
    expect(placed.response.status).toBe(201);
    // Compile-time: the status is the documented enum, money is a string (a change of the document that
    // widened or changed them would fail the type check of this file).
    const status: 'n' | 'p' | 'e' | 'c' = order.status;
    const total: string = order.total;
    expect(status).toBe('n');
    expect(total).toMatch(MONEY);
    expect(order.total).toBe('20.00');
    expect(order.positions).toHaveLength(1);
    const [position] = order.positions;
    expect(position.item).toBe(item.id);
    expect(position.voucher).toBe(voucher.id);
    expect(position.price).toMatch(MONEY);
    expect(position.price).toBe('20.00');

    const paid = expectData(
      await client.POST('/api/v1/organizers/{organizer}/events/{event}/orders/{code}/mark_paid/', {
        params: { path: { ...path, code: order.code } },
      }),
    );
    expect(paid.code).toBe(order.code);
    expect(paid.status).toBe('p');
    const confirmed = paid.payments.filter((p) => p.state === 'confirmed');
    expect(confirmed).toHaveLength(1);
    expect(confirmed[0].amount).toBe('20.00');

    const second = expectData(
      await client.POST('/api/v1/organizers/{organizer}/events/{event}/orders/', {
        params: { path },
        body: { email: 'other@example.org', positions: [{ item: item.id }] },
      }),
    );
    expect([second.status, second.total]).toEqual(['n', '25.00']);

    const listed = expectData(
      await client.GET('/api/v1/organizers/{organizer}/events/{event}/orders/', {
        params: { path, query: { status: 'p' } },
      }),
    );
    expect(listed.count).toBe(1);
    expect(listed.next).toBeNull();
    expect(listed.results.map((o) => [o.code, o.status, o.total])).toEqual([[order.code, 'p', '20.00']]);

    // A list parameter documented `explode: false` goes comma-separated (`ordering=-datetime,code`).
    const all = expectData(
      await client.GET('/api/v1/organizers/{organizer}/events/{event}/orders/', {
        params: { path, query: { ordering: ['-datetime', 'code'], page_size: 10 } },
      }),
    );
    expect(all.results.map((o) => o.code)).toEqual([second.code, order.code]);
    const oldestFirst = expectData(
      await client.GET('/api/v1/organizers/{organizer}/events/{event}/orders/', {
        params: { path, query: { ordering: ['datetime'] } },
      }),
    );
    expect(oldestFirst.results.map((o) => o.code)).toEqual([order.code, second.code]);

    // The typed answer is the live JSON: the same order fetched without the SDK.
    const url = `${baseUrl}/api/v1/organizers/${organizer}/events/sdkconf/orders/${order.code}/`;
    const raw: unknown = await (await fetch(url, { headers: { Authorization: `Token ${token}` } })).json();
    expect(raw).toEqual(listed.results[0]);
  });

  it('reads ETags, gets 304 for If-None-Match and 412 for a stale If-Match', async () => {
    const path = { organizer, event: 'sdkconf' };
    const category = expectData(
      await client.POST('/api/v1/organizers/{organizer}/events/{event}/categories/', {
        params: { path },
        body: { name: { en: 'Conditional' } },
      }),
    );
    const detail = '/api/v1/organizers/{organizer}/events/{event}/categories/{id}/';
    const read = await client.GET(detail, { params: { path: { ...path, id: category.id } } });
    const tag = entityTagOf(read);
    if (tag === null) throw new Error('no ETag');
    const cached = await client.GET(detail, {
      params: { path: { ...path, id: category.id }, header: { 'If-None-Match': tag } },
    });
    expect(isNotModified(cached)).toBe(true);
    expect(cached.data).toBeUndefined();
    expect(entityTagOf(cached)).toBe(tag);

    const changed = await client.PATCH(detail, {
      params: { path: { ...path, id: category.id }, header: { 'If-Match': tag } },
      body: { name: { en: 'Changed' } },
    });
    expect(expectData(changed).name.en).toBe('Changed');
    const newTag = entityTagOf(changed);
    expect(newTag).not.toBe(tag);
    const stale = await client.PATCH(detail, {
      params: { path: { ...path, id: category.id }, header: { 'If-Match': tag } },
      body: { name: { en: 'Lost' } },
    });
    expect(isPreconditionFailed(stale)).toBe(true);
    expect(stale.error).toEqual({ detail: 'Precondition failed.' });
    expect(entityTagOf(stale)).toBe(newTag);
  });

  it('answers a typed error body for a refused request', async () => {
    const refused = await client.POST('/api/v1/organizers/{organizer}/events/{event}/items/', {
      params: { path: { organizer, event: 'sdkconf' } },
      body: { name: { en: 'Broken' }, default_price: 'ten euros' },
    });
    expect(refused.data).toBeUndefined();
    expect(refused.response.status).toBe(400);
    const error = refused.error;
    if (error === undefined || Array.isArray(error) || !('default_price' in error))
      throw new Error('no field error');
    expect(error.default_price).toHaveLength(1);
  });
});
