import { Controller, Get, Post } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { readFileSync } from 'fs';
import { RequireEventAccess, RequirePermission } from '../src/auth/access.decorators';
import {
  allowListOf,
  PRETIX_URL_NAMES,
  RESTRICTED_DEVICE_PROFILES,
  routeKey,
} from '../src/auth/device-security';
import { EVENT_PERMISSIONS, ORGANIZER_PERMISSIONS } from '../src/auth/permissions';
import { RouteRegistry } from '../src/common/http/route-registry';
import { startTestApp, TestApp } from './harness';
import {
  computeRouteTable,
  formatRouteTable,
  ROUTE_TABLE_FILE,
  routeTableOf,
  RouteTableRow,
} from './print-route-table';

/**
 * The full route -> access-rule table (docs/style.md "Permissions": a change to who may do what is a visible
 * diff). The expected table is test/route-table.json; regenerate it with
 * `npx ts-node test/print-route-table.ts --write` and review the diff.
 */
describe('route -> access rule table', () => {
  let t: TestApp;
  let actual: RouteTableRow[];
  const expected = JSON.parse(readFileSync(ROUTE_TABLE_FILE, 'utf8')) as RouteTableRow[];

  beforeAll(async () => {
    t = await startTestApp();
    actual = routeTableOf(t.app.get(RouteRegistry).routes);
  });
  afterAll(() => t.close());

  it('equals test/route-table.json', () => {
    expect(actual).toEqual(expected);
  });

  it('test/route-table.json is in the generated format (one route per line, sorted)', () => {
    expect(readFileSync(ROUTE_TABLE_FILE, 'utf8')).toBe(formatRouteTable(expected));
  });

  it('the generator script computes the same table as the running app', async () => {
    expect(await computeRouteTable()).toEqual(actual);
  });

  it('has no duplicate method + path', () => {
    const keys = actual.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('names only known permissions, at least one per permission rule', () => {
    const known = new Set<string>([...EVENT_PERMISSIONS, ...ORGANIZER_PERMISSIONS]);
    const bad = actual.filter(
      (r) =>
        r.access?.kind === 'permission' &&
        (r.access.anyOf.length === 0 || r.access.anyOf.some((p) => !known.has(p))),
    );
    expect(bad).toEqual([]);
  });

  it('has an organizer in the path of every organizer, event and permission route', () => {
    const bad = actual.filter(
      (r) =>
        ['organizer', 'event', 'permission'].includes(r.access!.kind) && !r.path.includes('/:organizer/'),
    );
    expect(bad).toEqual([]);
  });

  it('has an event in the path of every route needing event access or an event-level permission', () => {
    // Without :event the guard can never grant such a route (nobody could call it).
    const bad = actual.filter(
      (r) =>
        (r.access!.kind === 'event' ||
          (r.access!.kind === 'permission' && r.access!.anyOf.some((p) => p.startsWith('event')))) &&
        !r.path.includes('/:event/'),
    );
    expect(bad).toEqual([]);
  });

  it('keeps the public routes to the OpenAPI document, the health probes and OAuth (own client/session auth)', () => {
    expect(actual.filter((r) => r.access!.kind === 'public').map((r) => `${r.method} ${r.path}`)).toEqual([
      // The one-time initialization token is the credential (pretix `device/initialize`).
      'POST /api/v1/device/initialize',
      'GET /api/v1/healthz',
      'GET /api/v1/oauth/applications/',
      'POST /api/v1/oauth/applications/',
      'POST /api/v1/oauth/applications/:id/delete/',
      'POST /api/v1/oauth/applications/:id/secret/',
      'GET /api/v1/oauth/authorize',
      'POST /api/v1/oauth/authorize',
      'GET /api/v1/oauth/authorized/',
      'POST /api/v1/oauth/authorized/:id/revoke/',
      'GET /api/v1/oauth/login',
      'POST /api/v1/oauth/login',
      'POST /api/v1/oauth/logout',
      'GET /api/v1/oauth/revoke_token',
      'POST /api/v1/oauth/revoke_token',
      'POST /api/v1/oauth/token',
      'GET /api/v1/openapi.json',
      'GET /api/v1/readyz',
    ]);
  });
});

describe('default deny at boot', () => {
  @Controller('bare')
  class BareController {
    @Get()
    list(): string[] {
      return [];
    }

    @Post()
    @RequirePermission('event.items:write')
    create(): string {
      return 'x';
    }
  }

  @Controller('organizers/:organizer/events/:event/declared')
  @RequireEventAccess()
  class ClassLevelController {
    @Get()
    list(): string[] {
      return [];
    }
  }

  const build = (controllers: (typeof BareController | typeof ClassLevelController)[]) =>
    Test.createTestingModule({
      imports: [DiscoveryModule],
      controllers,
      providers: [RouteRegistry],
    }).compile();

  it('refuses to initialise with a route lacking an access declaration, naming it', async () => {
    const moduleRef = await build([BareController]);
    await expect(moduleRef.init()).rejects.toThrow(
      'Routes without an access declaration (default deny):\n  GET /api/v1/bare',
    );
    await moduleRef.close().catch(() => undefined);
  });

  it('accepts a declaration on the controller class for all its routes', async () => {
    const moduleRef = await build([ClassLevelController]);
    await moduleRef.init();
    expect(routeTableOf(moduleRef.get(RouteRegistry).routes)).toEqual([
      {
        method: 'GET',
        path: '/api/v1/organizers/:organizer/events/:event/declared/',
        access: { kind: 'event' },
        deviceProfiles: [],
      },
    ]);
    await moduleRef.close();
  });
});

/**
 * Device security profiles (src/auth/device-security.ts): every route template a pretix URL name of the
 * allow-lists maps to is served, except pretix's plugin routes (404 for everyone).
 */
describe('device security profile routes', () => {
  it('serves every mapped route but the plugin routes', async () => {
    const served = new Set((await computeRouteTable()).map((r) => routeKey(r.method, r.path)));
    const mapped = RESTRICTED_DEVICE_PROFILES.flatMap((p) =>
      allowListOf(p).flatMap(([method, name]) =>
        PRETIX_URL_NAMES[name].paths.map((path) => ({ key: `${method} ${path}`, name, method, path })),
      ),
    );
    const missing = [
      ...new Set(
        mapped
          .filter((m) => PRETIX_URL_NAMES[m.name].status !== 'plugin')
          .filter((m) => !served.has(routeKey(m.method, m.path)))
          .map((m) => m.key),
      ),
    ];
    expect(missing).toEqual([]);
    // Plugin routes are not served.
    const plugins = mapped.filter((m) => PRETIX_URL_NAMES[m.name].status === 'plugin');
    expect(plugins.map((m) => m.name).sort()).toEqual(
      expect.arrayContaining(['badgeitem-list', 'badgelayout-list']),
    );
    expect(plugins.filter((m) => served.has(routeKey(m.method, m.path)))).toEqual([]);
  });

  it('lists per route the restricted profiles allowing it (as many routes as the allow-lists map to)', async () => {
    const table = await computeRouteTable();
    const protectedRows = table.filter((r) => r.access?.kind !== 'public');
    const count = (p: string) => protectedRows.filter((r) => r.deviceProfiles.includes(p)).length;
    // pretixscan: 31 URL names, two of them plugin routes, two of them two routes each, plus our batch redeem and
    // stream.
    expect(count('pretixscan')).toBe(31 - 2 + 2 + 2);
    expect(count('pretixscan_online_noorders')).toBe(29 - 2 + 1 + 2);
    expect(count('pretixscan_online_kiosk')).toBe(28 - 2 + 1 + 2);
    expect(table.find((r) => r.path.endsWith('/giftcards/') && r.method === 'GET')?.deviceProfiles).toEqual(
      [],
    );
  });
});
