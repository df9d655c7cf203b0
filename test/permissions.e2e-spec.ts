import type { Response } from 'supertest';
import type { AccessRule } from '../src/common/http/access-rule';
import { EVENT_PERMISSIONS, ORGANIZER_PERMISSIONS } from '../src/auth/permissions';
import { RouteRegistry } from '../src/common/http/route-registry';
import { Event } from '../src/organizers/event.entity';
import { OrganizersService } from '../src/organizers/organizers.service';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';
import { pooled } from './pooled';

/**
 * The permission matrix (compat §2.2, §2.4; docs/permissions.md), generic over the route table so that it covers
 * every route, including those added later: for each route and each permission name, a token whose team has
 * exactly that one permission is allowed iff the route's rule names it.
 */

const DENIED = { detail: 'You do not have permission to perform this action.' };
const NOT_AUTHENTICATED = { detail: 'Authentication credentials were not provided.' };
const ALL_PERMISSIONS: string[] = [...EVENT_PERMISSIONS, ...ORGANIZER_PERMISSIONS];

interface Route {
  method: string;
  /** Path pattern as clients call it (trailing slash included), e.g. `/api/v1/organizers/:organizer/`. */
  path: string;
  access: AccessRule;
}

interface Outcome {
  status: number;
  body: unknown;
}

const label = (r: Route) => `${r.method} ${r.path}`;
/**
 * Scheduled exports (compat §3.7) decide by credential kind in the service: a token needs the settings permission
 * (403 without it; a user without it sees only their own exports), and no token may create one (403, users only).
 * The generic event and organizer rule checks leave them out; 'scheduled exports' below checks them.
 */
const isScheduledExport = (r: Route) => r.path.includes('/scheduled_exports/');
/** The device's own routes (`/api/v1/device/*` but `initialize`): a device credential only. */
const isDeviceOnly = (r: Route) =>
  r.path.startsWith('/api/v1/device/') && r.path !== '/api/v1/device/initialize';
const usesEvent = (r: Route) => r.path.includes('/:event/');
const isWrite = (r: Route) => r.method !== 'GET' && r.method !== 'HEAD';

describe('permission matrix (compat §2.2, §2.4; docs/permissions.md)', () => {
  let t: TestApp;
  let admin: string;
  let routes: Route[];
  /** One token per permission name: a team with all events and exactly that permission. */
  const single = new Map<string, string>();
  let noPermissions: string;
  let throwaway = 0;
  let throwawayCount = 0;

  const ORG = 'org';
  const EVENT = 'ev';

  /**
   * Real parents of the nested routes in `ORG` / `EVENT` (a missing parent answers 403, spec "Status codes that
   * apply everywhere", which would hide the permission outcome): the path parameter's name, and `giftcard` for
   * `O/giftcards/{id}/transactions/`.
   */
  const parents: Record<string, number> = {};
  const parentOf = (path: string, name: string): number | undefined =>
    name === 'id' && path.includes('/giftcards/:id/transactions/') ? parents.giftcard : parents[name];

  /** Fills the path: real organizer and event slugs, real parents, 999999 for every other id. */
  const fill = (path: string, params: { organizer?: string; event?: string } = {}) =>
    path.replace(/:([A-Za-z_]+)/g, (_m, name: string) =>
      name === 'organizer'
        ? (params.organizer ?? ORG)
        : name === 'event'
          ? (params.event ?? EVENT)
          : String(parentOf(path, name) ?? 999999),
    );
  const hasParent = (r: Route) => r.path.split('/').some((s) => parentOf(r.path, s.slice(1)) !== undefined);

  /**
   * Writes on a route under an event use a fresh throwaway event each, so an allowed DELETE or PUT cannot
   * destroy the fixtures other checks rely on. Nested routes use the parents in `EVENT`: their writes name a
   * child 999999 or send an empty body, so they change nothing either.
   */
  const eventFor = (r: Route) => {
    if (!usesEvent(r) || !isWrite(r) || hasParent(r)) return EVENT;
    if (throwaway >= throwawayCount) throw new Error('out of throwaway events: raise the number created');
    return `tmp${throwaway++}`;
  };

  const call = async (
    r: Route,
    token: string | null,
    params: { organizer?: string; event?: string } = {},
  ): Promise<Outcome> => {
    const url = fill(r.path, { ...params, event: params.event ?? eventFor(r) });
    let req = t.http()[r.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](url);
    if (token) req = req.set('Authorization', auth(token));
    // A live event stream never ends: an invalid resumption point makes an admitted request answer 400 at once.
    if (r.path.endsWith('/stream/')) req = req.set('Last-Event-ID', 'not-a-number');
    const res: Response = isWrite(r) ? await req.send({}) : await req;
    return { status: res.status, body: res.body as unknown };
  };

  beforeAll(async () => {
    t = await startTestApp();
    ({ token: admin } = await bootstrapOrganizer(t, ORG));
    await createEvent(t, admin, ORG, { slug: EVENT });
    await createEvent(t, admin, ORG, { slug: 'ev2' });
    await bootstrapOrganizer(t, 'other');
    const made = async (path: string, body: object): Promise<number> => {
      const res = await t.http().post(path).set('Authorization', auth(admin)).send(body);
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return (res.body as { id: number }).id;
    };
    const E = `/api/v1/organizers/${ORG}/events/${EVENT}`;
    parents.item = await made(`${E}/items/`, { name: 'Parent', default_price: '1.00' });
    parents.question = await made(`${E}/questions/`, {
      question: 'Parent',
      type: 'S',
      items: [parents.item],
    });
    parents.list = await made(`${E}/checkinlists/`, { name: 'Parent', all_products: true });
    parents.giftcard = await made(`/api/v1/organizers/${ORG}/giftcards/`, { value: '1.00', currency: 'EUR' });
    parents.webhook = await made(`/api/v1/organizers/${ORG}/webhooks/`, {
      target_url: 'https://hooks.example.org/in',
      action_types: ['pretix.event.order.placed'],
    });
    const teams = await t.http().get(`/api/v1/organizers/${ORG}/teams/`).set('Authorization', auth(admin));
    parents.team = (teams.body as { results: { id: number }[] }).results[0].id;

    routes = t.app.get(RouteRegistry).routes.map((r) => ({
      method: r.method,
      path: r.trailingSlash ? `${r.path}/` : r.path,
      access: r.access!,
    }));

    // Enough throwaway events for every write under an event, in one statement.
    const organizer = await t.app.get(OrganizersService).ensure(ORG, ORG);
    const writesUnderEvent = routes.filter((r) => usesEvent(r) && isWrite(r)).length;
    throwawayCount = writesUnderEvent * (ALL_PERMISSIONS.length + 10);
    if (throwawayCount > 0) {
      await t.db.getRepository(Event).insert(
        Array.from({ length: throwawayCount }, (_v, i) => ({
          organizerId: organizer.id,
          name: { en: `Throwaway ${i}` },
          slug: `tmp${i}`,
          currency: 'EUR',
          dateFrom: new Date('2030-01-01T10:00:00Z'),
        })),
      );
    }

    const tokens = await pooled(ALL_PERMISSIONS, 4, (p) =>
      teamToken(t, ORG, {
        allEvents: true,
        ...(p.startsWith('organizer.') ? { organizerPermissions: [p] } : { eventPermissions: [p] }),
      }),
    );
    ALL_PERMISSIONS.forEach((p, i) => single.set(p, tokens[i]));
    noPermissions = await teamToken(t, ORG, { allEvents: true });
  });
  afterAll(() => t.close());

  const byKind = (kind: AccessRule['kind']) => routes.filter((r) => r.access.kind === kind);

  it('covers routes of every kind of rule', () => {
    expect(routes.length).toBeGreaterThan(0);
    for (const kind of ['public', 'authenticated', 'organizer', 'event', 'permission'] as const) {
      expect({ kind, count: byKind(kind).length > 0 }).toEqual({ kind, count: true });
    }
  });

  it('admits a team with exactly one permission iff the rule names it; else 403 with the detail', async () => {
    const cases = byKind('permission').flatMap((r) => ALL_PERMISSIONS.map((p) => ({ r, p })));
    const problems: string[] = [];
    const outcomes = await pooled(cases, 8, ({ r, p }) => call(r, single.get(p)!));
    cases.forEach(({ r, p }, i) => {
      const { status, body } = outcomes[i];
      const allowed = (r.access as { anyOf: string[] }).anyOf.includes(p);
      if (allowed && (status === 401 || status === 403 || status >= 500)) {
        problems.push(`${label(r)} with ${p}: expected allowed, got ${status} ${JSON.stringify(body)}`);
      }
      if (!allowed && (status !== 403 || JSON.stringify(body) !== JSON.stringify(DENIED))) {
        problems.push(`${label(r)} with ${p}: expected 403, got ${status} ${JSON.stringify(body)}`);
      }
    });
    expect(problems).toEqual([]);
    // Each permission route was both allowed and denied at least once (the check can fail both ways).
    for (const r of byKind('permission')) {
      const anyOf = (r.access as { anyOf: string[] }).anyOf;
      expect({ route: label(r), allowed: anyOf.filter((p) => single.has(p)).length > 0 }).toEqual({
        route: label(r),
        allowed: true,
      });
      expect(anyOf.length).toBeLessThan(ALL_PERMISSIONS.length);
    }
    // Every permission route times every permission: thousands of requests, ~1 min on a busy 2-core machine.
  }, 300_000);

  it('checks the permission before looking up the object: no permission and an unknown id is 403', async () => {
    const withIds = byKind('permission').filter((r) =>
      r.path.split('/').some((s) => s.startsWith(':') && s !== ':organizer' && s !== ':event'),
    );
    expect(withIds.length).toBeGreaterThan(0);
    const outcomes = await pooled(withIds, 8, (r) => call(r, noPermissions));
    expect(outcomes.map((o, i) => ({ route: label(withIds[i]), ...o }))).toEqual(
      withIds.map((r) => ({ route: label(r), status: 403, body: DENIED })),
    );
  });

  it('admits a team with every permission on every route (no 401, 403 or 5xx)', async () => {
    // The device's own routes (`/api/v1/device/*`) take only a device credential (test/device-auth.e2e-spec.ts).
    const all = routes.filter(
      (r) => r.access.kind !== 'public' && !(isScheduledExport(r) && r.method === 'POST') && !isDeviceOnly(r),
    );
    const outcomes = await pooled(all, 8, (r) => call(r, admin));
    const problems = outcomes
      .map((o, i) => ({ route: label(all[i]), ...o }))
      .filter((o) => o.status === 401 || o.status === 403 || o.status >= 500);
    expect(problems).toEqual([]);
  });

  describe('event rule', () => {
    it('answers a team reaching the event with any or no permission (not 403)', async () => {
      const limited = await teamToken(t, ORG, { limitEvents: [EVENT] });
      const rs = byKind('event').filter((r) => !isScheduledExport(r));
      for (const token of [limited, noPermissions, single.get('event.orders:read')!]) {
        const outcomes = await pooled(rs, 8, (r) => call(r, token, { event: EVENT }));
        const problems = outcomes
          .map((o, i) => ({ route: label(rs[i]), ...o }))
          .filter((o) => ![200, 404].includes(o.status));
        expect(problems).toEqual([]);
      }
    });

    it('answers 403 to a team limited to another event, even with every permission', async () => {
      const elsewhere = await teamToken(t, ORG, {
        limitEvents: ['ev2'],
        allEventPermissions: true,
        allOrganizerPermissions: true,
      });
      const rs = routes.filter((r) => usesEvent(r));
      const outcomes = await pooled(rs, 8, (r) => call(r, elsewhere, { event: EVENT }));
      expect(outcomes.map((o, i) => ({ route: label(rs[i]), ...o }))).toEqual(
        rs.map((r) => ({ route: label(r), status: 403, body: DENIED })),
      );
    });
  });

  describe('organizer rule', () => {
    it('answers a team of the organizer without any permission or event (not 403)', async () => {
      const bare = await teamToken(t, ORG, {});
      const rs = byKind('organizer').filter((r) => !isScheduledExport(r));
      const outcomes = await pooled(rs, 8, (r) => call(r, bare));
      const problems = outcomes
        .map((o, i) => ({ route: label(rs[i]), ...o }))
        .filter((o) => o.status === 401 || o.status === 403 || o.status >= 500);
      expect(problems).toEqual([]);
    });
  });

  describe('scheduled exports', () => {
    it('answers 403 to tokens without the settings permission, and to every token on POST', async () => {
      const rs = routes.filter(isScheduledExport);
      expect(rs.length).toBeGreaterThanOrEqual(12);
      const reader = single.get('event.orders:read')!;
      const outcomes = await pooled(rs, 8, (r) => call(r, reader, { event: EVENT }));
      expect(outcomes.map((o, i) => ({ route: label(rs[i]), ...o }))).toEqual(
        rs.map((r) => ({ route: label(r), status: 403, body: DENIED })),
      );
      const posts = rs.filter((r) => r.method === 'POST');
      const byAdmin = await pooled(posts, 8, (r) => call(r, admin, { event: EVENT }));
      expect(byAdmin.map((o, i) => ({ route: label(posts[i]), ...o }))).toEqual(
        posts.map((r) => ({ route: label(r), status: 403, body: DENIED })),
      );
    });
  });

  describe('other organizers, unknown organizers and events', () => {
    const scoped = () => routes.filter((r) => r.path.includes('/:organizer/'));

    it('answers 403 to an all-powerful token of another organizer on every organizer route', async () => {
      const { token: foreign } = await bootstrapOrganizer(t, 'foreign');
      await createEvent(t, foreign, 'foreign', { slug: EVENT });
      const rs = scoped();
      const outcomes = await pooled(rs, 8, (r) => call(r, foreign));
      expect(outcomes.map((o, i) => ({ route: label(rs[i]), ...o }))).toEqual(
        rs.map((r) => ({ route: label(r), status: 403, body: DENIED })),
      );
    });

    it('answers 403 (not 404) for an unknown organizer slug on every organizer route', async () => {
      const rs = scoped();
      const outcomes = await pooled(rs, 8, (r) => call(r, admin, { organizer: 'no-such-organizer' }));
      expect(outcomes.map((o, i) => ({ route: label(rs[i]), ...o }))).toEqual(
        rs.map((r) => ({ route: label(r), status: 403, body: DENIED })),
      );
    });

    it('answers 403 (not 404) for an unknown event slug on every event route', async () => {
      const rs = routes.filter((r) => usesEvent(r));
      expect(rs.length).toBeGreaterThan(0);
      const outcomes = await pooled(rs, 8, (r) => call(r, admin, { event: 'no-such-event' }));
      expect(outcomes.map((o, i) => ({ route: label(rs[i]), ...o }))).toEqual(
        rs.map((r) => ({ route: label(r), status: 403, body: DENIED })),
      );
    });
  });

  describe('authentication', () => {
    it('answers 401 without credentials on every route that is not public', async () => {
      const rs = routes.filter((r) => r.access.kind !== 'public');
      const outcomes = await pooled(rs, 8, (r) => call(r, null));
      expect(outcomes.map((o, i) => ({ route: label(rs[i]), ...o }))).toEqual(
        rs.map((r) => ({ route: label(r), status: 401, body: NOT_AUTHENTICATED })),
      );
    });

    it('serves public routes without credentials', async () => {
      // The OAuth endpoints and pages answer their own protocol errors without parameters (test/oauth*.e2e-spec.ts).
      // `device/initialize` answers 400 without an initialization token (test/device-auth.e2e-spec.ts).
      const rs = byKind('public').filter(
        (r) => !r.path.startsWith('/api/v1/oauth/') && r.path !== '/api/v1/device/initialize',
      );
      const outcomes = await pooled(rs, 8, (r) => call(r, null));
      expect(outcomes.map((o, i) => ({ route: label(rs[i]), status: o.status }))).toEqual(
        rs.map((r) => ({ route: label(r), status: 200 })),
      );
    });

    it('lets authenticated routes answer any valid credential, even one without permissions', async () => {
      const rs = byKind('authenticated');
      const bare = await teamToken(t, ORG, {});
      const outcomes = await pooled(rs, 8, (r) => call(r, bare));
      // Without input: the device's own routes refuse any credential but a device's (401, as pretix), the
      // idempotency query has no key to look up (404), the upload no file (400).
      const expected = (r: Route) =>
        isDeviceOnly(r)
          ? 401
          : r.path === '/api/v1/idempotency_query'
            ? 404
            : r.path === '/api/v1/upload'
              ? 400
              : 200;
      expect(outcomes.map((o, i) => ({ route: label(rs[i]), status: o.status }))).toEqual(
        rs.map((r) => ({ route: label(r), status: expected(r) })),
      );
    });
  });

  it('left the fixtures in place', async () => {
    const res = await t
      .http()
      .get(`/api/v1/organizers/${ORG}/events/${EVENT}/`)
      .set('Authorization', auth(admin));
    expect(res.status).toBe(200);
  });
});
