import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

type Json = Record<string, unknown>;

/**
 * `POST E/clone/` (compat §4.2; pretix `CloneEventSerializer` + `Event.copy_data_from`): the new event takes the
 * body's fields and the source's catalogue, quotas (reopened), discounts, questions, check-in lists and invoice
 * settings, every reference pointed at the copies; it sells at once and its quotas count on their own.
 */
describe('cloning an event', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org';
  const S = `${O}/events/source`;
  const C = `${O}/events/copy`;
  const post = (path: string, body: object, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  const ok = async (path: string, body: object): Promise<Json> => {
    const res = await post(path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Json;
  };
  const cloneBody = {
    name: { en: 'Copy' },
    slug: 'copy',
    currency: 'EUR',
    date_from: '2031-06-01T10:00:00Z',
  };

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', {
      slug: 'source',
      date_from: '2030-06-01T10:00:00Z',
      date_admission: '2030-06-01T09:00:00Z',
      is_public: false,
      testmode: true,
      timezone: 'Europe/Berlin',
    });
    const tax = await ok(`${S}/taxrules/`, { name: { en: 'VAT' }, rate: '19.00' });
    const extras = await ok(`${S}/categories/`, { name: { en: 'Extras' }, is_addon: true });
    const tickets = await ok(`${S}/categories/`, { name: { en: 'Tickets' } });
    const ticket = await ok(`${S}/items/`, {
      name: 'Ticket',
      default_price: '10.00',
      tax_rule: tax.id,
      category: tickets.id,
    });
    const shirt = await ok(`${S}/items/`, {
      name: 'Shirt',
      default_price: '20.00',
      category: extras.id,
      variations: [{ value: 'S' }, { value: 'M', default_price: '22.00' }],
    });
    const variations = shirt.variations as Json[];
    await ok(`${S}/items/${ticket.id as number}/addons/`, { addon_category: extras.id, max_count: 2 });
    await ok(`${S}/items/${ticket.id as number}/bundles/`, {
      bundled_item: shirt.id,
      bundled_variation: variations[0].id,
      designated_price: '0.00',
    });
    const quota = await ok(`${S}/quotas/`, {
      name: 'All',
      size: 1,
      items: [ticket.id, shirt.id],
      variations: variations.map((v) => v.id),
    });
    const closed = await ok(`${S}/quotas/`, {
      name: 'Closed',
      size: 5,
      items: [shirt.id],
      variations: [variations[1].id],
    });
    await t
      .http()
      .post(`${S}/quotas/${closed.id as number}/close/`)
      .set('Authorization', auth(token));
    const vip = await ok(`${S}/items/`, {
      name: 'VIP',
      default_price: '99.00',
      hidden_if_available: quota.id,
      hidden_if_item_available: ticket.id,
    });
    await ok(`${S}/discounts/`, {
      internal_name: 'Group',
      condition_min_count: 2,
      condition_all_products: false,
      condition_limit_products: [ticket.id, vip.id],
      benefit_discount_matching_percent: '10.00',
    });
    const diet = await ok(`${S}/questions/`, {
      question: { en: 'Diet' },
      type: 'C',
      items: [ticket.id],
      options: [
        { answer: { en: 'Vegan' }, identifier: 'VEGAN' },
        { answer: { en: 'Other' }, identifier: 'OTHER' },
      ],
    });
    await ok(`${S}/questions/`, {
      question: { en: 'Which?' },
      type: 'S',
      items: [ticket.id, vip.id],
      dependency_question: diet.id,
      dependency_values: ['OTHER'],
    });
    await ok(`${S}/checkinlists/`, {
      name: 'Door',
      all_products: false,
      limit_products: [ticket.id],
      rules: {
        and: [
          {
            inList: [
              { var: 'product' },
              { objectList: [{ lookup: ['product', String(ticket.id), 'Ticket'] }] },
            ],
          },
        ],
      },
    });
    const settings = await t.http().patch(`${S}/settings/`).set('Authorization', auth(token)).send({
      invoice_address_from_name: 'Big Events LLC',
    });
    expect(settings.status).toBe(200);
    // sold on the source: the clone's quota must not count it
    expect((await post(`${S}/orders/`, { positions: [{ item: ticket.id }] })).status).toBe(201);
  });
  afterAll(() => t.close());

  it('answers 201 with the new event: body fields, the rest from the source', async () => {
    const res = await post(`${S}/clone/`, cloneBody);
    expect(res.status).toBe(201);
    // The create answer has no valid_keys (pretix: only on the event's own URL); public_url is the clone's.
    const { valid_keys: validKeys, ...source } = (await get(`${S}/`)).body as Json;
    expect(res.body).toEqual({
      ...source,
      ...cloneBody,
      public_url: 'http://localhost:8000/org/copy/',
      live: false,
      // shifted with date_from, as pretix does
      date_admission: '2031-06-01T09:00:00Z',
      is_public: false,
      testmode: true,
      timezone: 'Europe/Berlin',
    });
    expect((await get(`${C}/`)).body).toEqual({ ...res.body, valid_keys: validKeys });
    const log = await t.db.query(
      `SELECT action_type AS action, data FROM log_entry WHERE content_type = 'event' AND object_id = $1 ORDER BY id`,
      [(await t.db.query(`SELECT id FROM event WHERE slug = 'copy'`))[0].id],
    );
    expect(log.map((l: { action: string }) => l.action)).toEqual([
      'pretix.event.added',
      'pretix.object.cloned',
    ]);
    expect(log[1].data).toMatchObject({ source: 'source' });
  });

  it('copies every resource equal apart from ids, references pointing at the copies', async () => {
    const lists = ['taxrules', 'categories', 'items', 'quotas', 'discounts', 'questions', 'checkinlists'];
    const maps = new Map<string, Map<number, number>>();
    const fetched: Record<string, { from: Json[]; to: Json[] }> = {};
    for (const name of lists) {
      const from = (await get(`${S}/${name}/?ordering=id`)).body.results as Json[];
      const to = (await get(`${C}/${name}/?ordering=id`)).body.results as Json[];
      expect(to).toHaveLength(from.length);
      fetched[name] = { from, to };
      maps.set(name, new Map(from.map((r, i) => [r.id as number, to[i].id as number])));
    }
    const pairs = (get: (r: Json) => Json[]) =>
      new Map(
        fetched.items.from.flatMap((r, i) =>
          get(r).map((v, j) => [v.id as number, get(fetched.items.to[i])[j].id as number]),
        ),
      );
    maps.set(
      'variations',
      pairs((r) => r.variations as Json[]),
    );
    maps.set(
      'options',
      new Map(
        fetched.questions.from.flatMap((q, i) =>
          (q.options as Json[]).map((o, j) => [
            o.id as number,
            (fetched.questions.to[i].options as Json[])[j].id as number,
          ]),
        ),
      ),
    );
    const keyMap: Record<string, string> = {
      tax_rule: 'taxrules',
      category: 'categories',
      addon_category: 'categories',
      item: 'items',
      items: 'items',
      bundled_item: 'items',
      hidden_if_item_available: 'items',
      condition_limit_products: 'items',
      benefit_limit_products: 'items',
      limit_products: 'items',
      variation: 'variations',
      variations: 'variations',
      bundled_variation: 'variations',
      hidden_if_available: 'quotas',
      dependency_question: 'questions',
    };
    const remap = (value: unknown, kind: string | undefined): unknown => {
      if (Array.isArray(value)) return value.map((v) => remap(v, kind));
      if (typeof value === 'number' && kind) return maps.get(kind)!.get(value) ?? `unmapped ${value}`;
      if (value && typeof value === 'object') {
        return Object.fromEntries(
          Object.entries(value).map(([k, v]) => {
            if (k === 'id') return [k, expect.any(Number)];
            if (k === 'lookup' && Array.isArray(v))
              return [k, [v[0], String(maps.get('items')!.get(Number(v[1]))), v[2]]];
            if (k === 'options' || k === 'position' || typeof v === 'object') return [k, remap(v, keyMap[k])];
            return [k, remap(v, keyMap[k])];
          }),
        );
      }
      return value;
    };
    for (const name of lists) {
      const { from, to } = fetched[name];
      const expected = from.map((r) => remap(r, undefined) as Json);
      // quotas are reopened on the copy (pretix sets closed = False)
      if (name === 'quotas') expected.forEach((q) => (q.closed = false));
      expect(to).toEqual(expected);
    }
    // nested copies: add-ons and bundles of the ticket
    const ticketFrom = fetched.items.from[0].id as number;
    const ticketTo = fetched.items.to[0].id as number;
    for (const nested of ['addons', 'bundles']) {
      const from = (await get(`${S}/items/${ticketFrom}/${nested}/`)).body.results as Json[];
      const to = (await get(`${C}/items/${ticketTo}/${nested}/`)).body.results as Json[];
      expect(from).toHaveLength(1);
      expect(to).toEqual(from.map((r) => remap(r, undefined)));
    }
    expect((await get(`${C}/settings/`)).body.invoice_address_from_name).toBe('Big Events LLC');
    // nothing is shared with the source
    const shared = await t.db.query(
      `SELECT count(*)::int AS n FROM item i JOIN event e ON e.id = i.event_id
        WHERE e.slug = 'copy' AND (i.tax_rule_id IN (SELECT id FROM tax_rule WHERE event_id <> e.id)
           OR i.category_id IN (SELECT id FROM item_category WHERE event_id <> e.id))`,
    );
    expect(shared).toEqual([{ n: 0 }]);
    expect((await get(`${C}/orders/`)).body.count).toBe(0);
    expect((await get(`${C}/vouchers/`)).body.count).toBe(0);
  });

  it('the clone sells at once; its quotas count separately from the source', async () => {
    const items = (await get(`${C}/items/?ordering=id`)).body.results as Json[];
    const quotas = (await get(`${C}/quotas/?ordering=id`)).body.results as Json[];
    const order = await post(`${C}/orders/`, { positions: [{ item: items[0].id }] });
    expect(order.status).toBe(201);
    expect(order.body.positions[0]).toMatchObject({ item: items[0].id, price: '10.00', tax_rate: '19.00' });
    // the source's quota of size 1 is used up by the source's order; the clone's was free
    expect((await get(`${C}/quotas/${quotas[0].id as number}/availability/`)).body).toMatchObject({
      pending_orders: 1,
      available_number: 0,
    });
    const full = await post(`${C}/orders/`, { positions: [{ item: items[0].id }] });
    expect(full.status).toBe(400);
    const sourceQuota = ((await get(`${S}/quotas/?ordering=id`)).body.results as Json[])[0];
    expect((await get(`${S}/quotas/${sourceQuota.id as number}/availability/`)).body).toMatchObject({
      pending_orders: 1,
    });
  });

  it('refuses a taken slug (400, nothing written) and a caller without organizer.events:create (403)', async () => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM item');
    const taken = await post(`${S}/clone/`, { ...cloneBody, slug: 'source' });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ slug: ['This slug has already been used for a different event.'] });
    const live = await post(`${S}/clone/`, { ...cloneBody, slug: 'other', live: true });
    expect(live.status).toBe(400);
    expect(await t.db.query('SELECT count(*)::int AS n FROM item')).toEqual(before);

    const reader = await teamToken(t, 'org', { allEvents: true, allEventPermissions: true });
    const denied = await post(`${S}/clone/`, { ...cloneBody, slug: 'nope' }, reader);
    expect(denied.status).toBe(403);
    const creatorElsewhere = await teamToken(t, 'org', {
      limitEvents: ['copy'],
      allEventPermissions: true,
      organizerPermissions: ['organizer.events:create'],
    });
    expect((await post(`${S}/clone/`, { ...cloneBody, slug: 'nope' }, creatorElsewhere)).status).toBe(403);
    expect(await t.db.query(`SELECT count(*)::int AS n FROM event WHERE slug = 'nope'`)).toEqual([{ n: 0 }]);

    const creator = await teamToken(t, 'org', {
      limitEvents: ['source'],
      organizerPermissions: ['organizer.events:create'],
    });
    const made = await post(`${S}/clone/`, { ...cloneBody, slug: 'mine', is_public: true }, creator);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ slug: 'mine', is_public: true, testmode: true });
    // the creating token's team reaches the new event (as on create)
    expect((await t.http().get(`${O}/events/mine/`).set('Authorization', auth(creator))).status).toBe(200);
  });
  it('POST O/events/?clone_from= copies like E/clone/; an unknown, unreachable or foreign source is refused', async () => {
    const res = await post(`${O}/events/?clone_from=source`, { ...cloneBody, slug: 'from-query' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ slug: 'from-query', live: false });
    const names = async (slug: string) =>
      ((await get(`${O}/events/${slug}/items/`)).body.results as Json[]).map((i) => i.name);
    expect(await names('from-query')).toEqual(await names('source'));
    const qualified = await post(`${O}/events/?clone_from=org/source`, { ...cloneBody, slug: 'from-org' });
    expect(qualified.status).toBe(201);

    const refused = ['nothing', 'other/source', 'org/'];
    for (const from of refused) {
      const bad = await post(`${O}/events/?clone_from=${from}`, { ...cloneBody, slug: 'never' });
      expect([from, bad.status, bad.body]).toEqual([from, 400, ['Event to copy from was not found']]);
    }
    const limited = await teamToken(t, 'org', {
      limitEvents: ['copy'],
      allEventPermissions: true,
      organizerPermissions: ['organizer.events:create'],
    });
    const hidden = await post(`${O}/events/?clone_from=source`, { ...cloneBody, slug: 'never' }, limited);
    expect(hidden.status).toBe(400);
    expect(await t.db.query(`SELECT count(*)::int AS n FROM event WHERE slug = 'never'`)).toEqual([{ n: 0 }]);
  });
});
