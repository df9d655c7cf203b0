/**
 * Prints the route -> access-rule table of the API as JSON (the content of test/route-table.json, which
 * test/routes.e2e-spec.ts compares with the running app). No database or Redis needed: the controllers are
 * collected from the module metadata of AppModule and the real RouteRegistry reads their declarations.
 *
 *   npx ts-node test/print-route-table.ts            # print
 *   npx ts-node test/print-route-table.ts --write    # regenerate test/route-table.json
 *
 * ts-node type-checks what it loads; while the tree does not compile, prefix `TS_NODE_TRANSPILE_ONLY=1`.
 */
import 'reflect-metadata';
import { DynamicModule, ForwardReference, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { writeFileSync } from 'fs';
import { join } from 'path';
import type { AccessRule } from '../src/common/http/access-rule';
import { AppModule } from '../src/app.module';
import { RESTRICTED_DEVICE_PROFILES, restrictedProfilesAllowing } from '../src/auth/device-security';
import { RouteInfo, RouteRegistry } from '../src/common/http/route-registry';

/**
 * One row of the table: the URL as clients call it (trailing slash included), its access rule, and the restricted
 * device security profiles that allow it (`full` allows every route; public routes take no credential, so every
 * profile reaches them).
 */
export interface RouteTableRow {
  method: string;
  path: string;
  access: AccessRule | null;
  deviceProfiles: string[];
}

export const ROUTE_TABLE_FILE = join(__dirname, 'route-table.json');

/** Rows of a registry in a stable order (path, then method). */
export function routeTableOf(routes: readonly RouteInfo[]): RouteTableRow[] {
  return routes
    .map((r) => {
      const path = r.trailingSlash ? `${r.path}/` : r.path;
      return {
        method: r.method,
        path,
        access: r.access ? normalizeRule(r.access) : null,
        deviceProfiles:
          r.access?.kind === 'public'
            ? [...RESTRICTED_DEVICE_PROFILES]
            : restrictedProfilesAllowing(r.method, path),
      };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.method < b.method ? -1 : 1));
}

function normalizeRule(rule: AccessRule): AccessRule {
  return rule.kind === 'permission' ? { kind: 'permission', anyOf: [...rule.anyOf] } : { kind: rule.kind };
}

/** One route per line, so that a change to who may do what is a one-line diff. */
export function formatRouteTable(rows: RouteTableRow[]): string {
  return `[\n${rows.map((r) => `  ${JSON.stringify(r)}`).join(',\n')}\n]\n`;
}

type ModuleRef = Type<unknown> | DynamicModule | ForwardReference | Promise<DynamicModule>;

/** Every controller class of a module tree (static @Module metadata and dynamic-module fields). */
export function collectControllers(root: ModuleRef): Type<unknown>[] {
  const seen = new Set<unknown>();
  const controllers = new Set<Type<unknown>>();
  const visit = (ref: ModuleRef | undefined): void => {
    if (!ref || ref instanceof Promise || seen.has(ref)) return;
    seen.add(ref);
    if ('forwardRef' in ref) return visit((ref as ForwardReference).forwardRef() as ModuleRef);
    const dynamic = typeof ref === 'function' ? undefined : ref;
    const cls = dynamic ? dynamic.module : ref;
    const meta = (key: string) => (Reflect.getMetadata(key, cls) ?? []) as unknown[];
    for (const c of [...meta(MODULE_METADATA.CONTROLLERS), ...(dynamic?.controllers ?? [])]) {
      controllers.add(c as Type<unknown>);
    }
    for (const m of [...meta(MODULE_METADATA.IMPORTS), ...(dynamic?.imports ?? [])]) visit(m as ModuleRef);
    if (dynamic && !seen.has(cls)) visit(cls);
  };
  visit(root);
  return [...controllers];
}

/**
 * The route table computed without infrastructure: a testing module with AppModule's controllers (their
 * dependencies mocked) and the real RouteRegistry, initialised so that its boot-time check runs.
 */
export async function computeRouteTable(): Promise<RouteTableRow[]> {
  const moduleRef = await Test.createTestingModule({
    imports: [DiscoveryModule],
    controllers: collectControllers(AppModule.forRoot()),
    providers: [RouteRegistry],
  })
    .useMocker(() => ({}))
    .compile();
  moduleRef.useLogger(false);
  await moduleRef.init();
  try {
    return routeTableOf(moduleRef.get(RouteRegistry).routes);
  } finally {
    await moduleRef.close();
  }
}

if (require.main === module) {
  computeRouteTable()
    .then((rows) => {
      const text = formatRouteTable(rows);
      if (process.argv.includes('--write')) {
        writeFileSync(ROUTE_TABLE_FILE, text);
        process.stderr.write(`wrote ${rows.length} routes to ${ROUTE_TABLE_FILE}\n`);
      } else {
        process.stdout.write(text);
      }
    })
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    });
}
