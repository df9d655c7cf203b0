import { RouteRegistry } from '../src/common/http/route-registry';
import type { AccessRule } from '../src/common/http/access-rule';
import { OAuthTokensService } from '../src/oauth/oauth-tokens.service';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { userWithApp } from './oauth-helpers';
import { pooled } from './pooled';

/**
 * README "Security", "Scopes and writes": the OAuth scope a request needs derives from the permission the route
 * requires, not from the HTTP method alone. Walks the whole route table with real requests: every route that
 * requires only write permissions (`…:write`, `…:create`, `event:cancel`), and every non-GET route, answers 403
 * naming the `write` scope to a `read`-scoped token of a user whose team holds every permission; the invoice
 * actions are POST only.
 */

interface Route {
  method: string;
  path: string;
  access: AccessRule;
}

const ORG = 'org';
const EVENT = 'ev';
const E = `/api/v1/organizers/${ORG}/events/${EVENT}`;
const WRITE_SCOPE = {
  detail: 'The access token does not have the scope this request needs (write).',
};
/** Independent of the guard's own helper on purpose: the names the issue calls write permissions. */
const isWritePermission = (p: string) => /:(write|create)$/.test(p) || p === 'event:cancel';
const label = (r: Route) => `${r.method} ${r.path}`;
const fill = (path: string) =>
  path.replace(/:([A-Za-z_]+)/g, (_m, name: string) =>
    name === 'organizer' ? ORG : name === 'event' ? EVENT : '999999',
  );

describe('OAuth scope from the route permission', () => {
  let t: TestApp;
  let admin: string;
  let readToken: string;
  let readWriteToken: string;
  let routes: Route[];

  const send = (r: Route, bearer: string) => {
    const req = t
      .http()
      [r.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](fill(r.path))
      .set('Authorization', `Bearer ${bearer}`);
    return r.method === 'GET' || r.method === 'HEAD' ? req : req.send({});
  };

  beforeAll(async () => {
    t = await startTestApp();
    const org = await bootstrapOrganizer(t, ORG);
    admin = org.token;
    await createEvent(t, admin, ORG, { slug: EVENT });
    const app = await userWithApp(t, 'reader@example.com');
    await t.db.query('INSERT INTO team_member (team_id, user_id) VALUES ($1, $2)', [org.teamId, app.userId]);
    const tokens = t.app.get(OAuthTokensService);
    const grant = { applicationId: app.applicationId, userId: app.userId, organizerIds: [org.organizerId] };
    readToken = (await tokens.issue({ ...grant, scopes: ['read'], codeId: null })).accessToken;
    readWriteToken = (await tokens.issue({ ...grant, scopes: ['read', 'write'], codeId: null })).accessToken;
    routes = t.app.get(RouteRegistry).routes.map((r) => ({
      method: r.method,
      path: r.trailingSlash ? `${r.path}/` : r.path,
      access: r.access!,
    }));
  });
  afterAll(() => t.close());

  const needsWrite = (r: Route) =>
    r.access.kind !== 'public' &&
    (r.method !== 'GET' || (r.access.kind === 'permission' && r.access.anyOf.every(isWritePermission)));

  it('refuses every route requiring a write permission (or a non-GET method) to a read token: 403 naming write', async () => {
    const guarded = routes.filter(needsWrite);
    const getsWithWritePermission = guarded.filter((r) => r.method === 'GET');
    // The table has GET routes that need a write permission (teams, webhooks, shredders, …): the walk covers them.
    expect(getsWithWritePermission.length).toBeGreaterThan(10);
    const outcomes = await pooled(guarded, 8, async (r) => {
      const res = await send(r, readToken);
      return { route: label(r), status: res.status, body: res.body as unknown };
    });
    expect(outcomes).toEqual(guarded.map((r) => ({ route: label(r), status: 403, body: WRITE_SCOPE })));
  });

  /**
   * A scope refusal, a 401 or a 5xx. Other 403s are allowed here: a nested route whose parent 999999 does not
   * exist answers 403 after the scope check passed (spec "Status codes that apply everywhere").
   */
  const outcomeOf = (r: Route, res: { status: number; body: unknown }) => ({
    route: label(r),
    status: res.status,
    detail: (res.body as { detail?: unknown } | undefined)?.detail,
  });
  const refusedOrFailed = (o: ReturnType<typeof outcomeOf>) =>
    o.status === 401 || o.status >= 500 || (o.status === 403 && /scope/.test(String(o.detail)));

  it('lets the same user with read and write scopes through those GET routes (the scope was the refusal)', async () => {
    const gets = routes.filter((r) => r.method === 'GET' && needsWrite(r));
    const outcomes = await pooled(gets, 8, async (r) => outcomeOf(r, await send(r, readWriteToken)));
    expect(outcomes.filter(refusedOrFailed)).toEqual([]);
  });

  it('still lets a read token GET routes that need a read permission or only access', async () => {
    const reads = routes.filter(
      (r) =>
        r.method === 'GET' &&
        !needsWrite(r) &&
        r.access.kind !== 'public' &&
        !r.path.includes('/scheduled_exports/') &&
        // Live streams never end (their scope check: test/checkin-stream, test/live-stats).
        !r.path.endsWith('/stream/') &&
        (r.path.includes(':event') || r.path.includes(':organizer')),
    );
    expect(reads.length).toBeGreaterThan(10);
    const outcomes = await pooled(reads, 8, async (r) => outcomeOf(r, await send(r, readToken)));
    expect(outcomes.filter(refusedOrFailed)).toEqual([]);
  });

  describe('invoice reissue/ and regenerate/', () => {
    let number: string;

    beforeAll(async () => {
      const post = (path: string, body: object) =>
        t.http().post(path).set('Authorization', auth(admin)).send(body);
      const item = await post(`${E}/items/`, { name: { en: 'Ticket' }, default_price: '10.00' });
      await post(`${E}/quotas/`, { name: 'All', size: 100, items: [item.body.id] });
      const order = await post(`${E}/orders/`, {
        email: 'buyer@example.org',
        invoice_address: { name: 'Jane Buyer', country: 'DE' },
        positions: [{ item: item.body.id }],
      });
      expect(order.status).toBe(201);
      const invoice = await post(`${E}/orders/${order.body.code}/create_invoice/`, {});
      expect(invoice.status).toBe(201);
      number = (invoice.body as { number: string }).number;
    });

    const invoiceCount = async () =>
      (await t.http().get(`${E}/invoices/`).set('Authorization', auth(admin))).body.count as number;

    it.each(['reissue', 'regenerate'])('GET %s/ answers 405 and changes nothing', async (action) => {
      const before = await invoiceCount();
      for (const authorization of [auth(admin), `Bearer ${readWriteToken}`, `Bearer ${readToken}`]) {
        const res = await t
          .http()
          .get(`${E}/invoices/${number}/${action}/`)
          .set('Authorization', authorization);
        expect([res.status, res.body]).toEqual([405, { detail: 'Method "GET" not allowed.' }]);
        expect(res.headers.allow).toContain('POST');
      }
      expect(await invoiceCount()).toBe(before);
    });

    it.each(['reissue', 'regenerate'])(
      'POST %s/ with a read token: 403; with read and write: 204',
      async (action) => {
        const before = await invoiceCount();
        const refused = await t
          .http()
          .post(`${E}/invoices/${number}/${action}/`)
          .set('Authorization', `Bearer ${readToken}`);
        expect([refused.status, refused.body]).toEqual([403, WRITE_SCOPE]);
        expect(await invoiceCount()).toBe(before);
        const done = await t
          .http()
          .post(`${E}/invoices/${number}/${action}/`)
          .set('Authorization', `Bearer ${readWriteToken}`);
        expect(done.status).toBe(204);
        expect(await invoiceCount()).toBe(action === 'reissue' ? before + 2 : before);
        if (action === 'reissue') {
          const latest = await t
            .http()
            .get(`${E}/invoices/?is_cancellation=false&ordering=-nr`)
            .set('Authorization', auth(admin));
          number = (latest.body.results[0] as { number: string }).number;
        }
      },
    );
  });
});
