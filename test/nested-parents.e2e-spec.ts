import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

const DENIED = { detail: 'You do not have permission to perform this action.' };

/**
 * A nested route whose parent does not exist in the URL's event or organizer answers 403, like a missing organizer
 * or event (spec "Status codes that apply everywhere": "403 organizer or event (or parent resource) does not exist";
 * `E/items/{item}/variations/`: "403 also when the item does not exist"; README "API conventions"), for every
 * method of every nested resource; a parent of another event or organizer counts as missing. With the parent
 * present the same routes answer as before (200, or 404 for a child that does not exist), so the 403 is about the
 * parent only.
 */
describe('nested routes under a missing parent', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/main`;
  const parents: Record<string, number> = {};
  const foreign: Record<string, number> = {};

  async function created(path: string, body: object): Promise<Record<string, unknown>> {
    const res = await t.http().post(path).set('Authorization', auth(token)).send(body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown>;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'main' });
    await createEvent(t, token, 'org', { slug: 'other' });
    for (const [slug, into] of [
      ['main', parents],
      ['other', foreign],
    ] as const) {
      const base = `${O}/events/${slug}`;
      into.item = (await created(`${base}/items/`, { name: 'Ticket', default_price: '10.00' })).id as number;
      into.question = (
        await created(`${base}/questions/`, {
          question: 'Size',
          type: 'C',
          items: [into.item],
          options: [{ answer: 'S' }],
        })
      ).id as number;
      into.list = (await created(`${base}/checkinlists/`, { name: 'Entry', all_products: true }))
        .id as number;
    }
    const teams = await t.http().get(`${O}/teams/`).set('Authorization', auth(token));
    parents.team = (teams.body as { results: { id: number }[] }).results[0].id;
    parents.giftcard = (await created(`${O}/giftcards/`, { value: '10.00', currency: 'EUR' })).id as number;
    parents.webhook = (
      await created(`${O}/webhooks/`, {
        target_url: 'https://hooks.example.org/in',
        action_types: ['pretix.event.order.placed'],
      })
    ).id as number;
  });
  afterAll(() => t.close());

  /** [method, path with {p} for the parent id, body] per nested route. */
  const routes: [string, string, string, object?][] = [
    ['item', 'GET', `/items/{p}/variations/`],
    ['item', 'POST', `/items/{p}/variations/`, { value: { en: 'Red' } }],
    ['item', 'GET', `/items/{p}/variations/987654/`],
    ['item', 'PATCH', `/items/{p}/variations/987654/`, { active: false }],
    ['item', 'PUT', `/items/{p}/variations/987654/`, { value: { en: 'Red' } }],
    ['item', 'DELETE', `/items/{p}/variations/987654/`],
    ['item', 'GET', `/items/{p}/addons/`],
    ['item', 'POST', `/items/{p}/addons/`, { addon_category: 1 }],
    ['item', 'GET', `/items/{p}/addons/987654/`],
    ['item', 'PATCH', `/items/{p}/addons/987654/`, { min_count: 0 }],
    ['item', 'DELETE', `/items/{p}/addons/987654/`],
    ['item', 'GET', `/items/{p}/bundles/`],
    ['item', 'POST', `/items/{p}/bundles/`, { bundled_item: 1 }],
    ['item', 'GET', `/items/{p}/bundles/987654/`],
    ['item', 'PATCH', `/items/{p}/bundles/987654/`, { count: 1 }],
    ['item', 'DELETE', `/items/{p}/bundles/987654/`],
    ['question', 'GET', `/questions/{p}/options/`],
    ['question', 'POST', `/questions/{p}/options/`, { answer: { en: 'M' } }],
    ['question', 'GET', `/questions/{p}/options/987654/`],
    ['question', 'PATCH', `/questions/{p}/options/987654/`, { position: 1 }],
    ['question', 'DELETE', `/questions/{p}/options/987654/`],
    ['list', 'GET', `/checkinlists/{p}/positions/`],
    ['list', 'POST', `/checkinlists/{p}/positions/abcdefgh/redeem/`, {}],
  ].map(([kind, method, path, body]) => [
    kind as string,
    method as string,
    `${E}${path as string}`,
    body as object,
  ]);
  const organizerRoutes: [string, string, string, object?][] = [
    ['team', 'GET', `${O}/teams/{p}/members/`],
    ['team', 'GET', `${O}/teams/{p}/members/987654/`],
    ['team', 'DELETE', `${O}/teams/{p}/members/987654/`],
    ['team', 'GET', `${O}/teams/{p}/invites/`],
    ['team', 'POST', `${O}/teams/{p}/invites/`, { email: 'x@example.org' }],
    ['team', 'GET', `${O}/teams/{p}/invites/987654/`],
    ['team', 'DELETE', `${O}/teams/{p}/invites/987654/`],
    ['team', 'GET', `${O}/teams/{p}/tokens/`],
    ['team', 'POST', `${O}/teams/{p}/tokens/`, { name: 'x' }],
    ['team', 'GET', `${O}/teams/{p}/tokens/987654/`],
    ['team', 'DELETE', `${O}/teams/{p}/tokens/987654/`],
    ['giftcard', 'GET', `${O}/giftcards/{p}/transactions/`],
    ['webhook', 'GET', `${O}/webhooks/{p}/deliveries/`],
    ['webhook', 'POST', `${O}/webhooks/{p}/deliveries/00000000-0000-0000-0000-000000000000/redeliver/`, {}],
  ].map(([kind, method, path, body]) => [kind as string, method as string, path as string, body as object]); // always four: jest gives a test fn of arity 4 a `done`

  function send(method: string, path: string, body?: object) {
    const req = t
      .http()
      [method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete'](path)
      .set('Authorization', auth(token));
    return body ? req.send(body) : req;
  }

  it.each([...routes, ...organizerRoutes])(
    '%s: %s %s with an unknown parent answers 403',
    async (_, method, path, body) => {
      const res = await send(method, path.replace('{p}', '987654321'), body);
      expect([res.status, res.body]).toEqual([403, DENIED]);
    },
  );

  it.each(routes)(
    '%s: %s %s with a parent of another event answers 403',
    async (kind, method, path, body) => {
      const res = await send(method, path.replace('{p}', String(foreign[kind])), body);
      expect([res.status, res.body]).toEqual([403, DENIED]);
    },
  );

  it.each(
    [...routes, ...organizerRoutes].filter(
      ([, m, p]) => m === 'GET' && p.endsWith('/{p}/' + p.split('/{p}/')[1]) && /\/987654\/$/.test(p),
    ),
  )('%s: %s %s with the parent present and no such child answers 404', async (kind, method, path) => {
    const res = await send(method, path.replace('{p}', String(parents[kind])));
    expect([res.status, res.body]).toEqual([404, { detail: 'Not found.' }]);
  });

  it.each([...routes, ...organizerRoutes].filter(([, m, p]) => m === 'GET' && !/\/987654\/$/.test(p)))(
    '%s: %s %s with the parent present answers 200',
    async (kind, method, path) => {
      const res = await send(method, path.replace('{p}', String(parents[kind])));
      expect(res.status).toBe(200);
    },
  );

  it('a check-in list action of the list itself (status/) stays 404 for an unknown list', async () => {
    const res = await send('GET', `${E}/checkinlists/987654321/status/`);
    expect([res.status, res.body]).toEqual([404, { detail: 'Not found.' }]);
  });

  it('a question of the event is still 404 on its own detail route (not nested)', async () => {
    const res = await send('GET', `${E}/questions/987654321/`);
    expect([res.status, res.body]).toEqual([404, { detail: 'Not found.' }]);
  });
});
