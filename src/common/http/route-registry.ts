import { Injectable, OnModuleInit, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import { ACCESS_RULE, AccessRule, NO_TRAILING_SLASH } from './access-rule';

/** Every route lives under this prefix (spec "Conventions" 1). */
export const API_PREFIX = 'api/v1';

export interface RouteInfo {
  method: string;
  /** Full path pattern without trailing slash, e.g. `/api/v1/organizers/:organizer/events/`. */
  path: string;
  trailingSlash: boolean;
  access: AccessRule | undefined;
  regex: RegExp;
}

function joinPath(...parts: string[]): string {
  return (
    '/' +
    parts
      .flatMap((p) => p.split('/'))
      .filter((p) => p.length > 0)
      .join('/')
  );
}

function toRegex(path: string): RegExp {
  const source = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * The table of all routes with their access declarations, read from controller metadata at boot.
 * - It makes the app refuse to boot when a route declares no access rule (default deny, docs/style.md).
 * - Its middleware applies the URL conventions of compat §1.1 before routing: a GET/HEAD without the trailing
 *   slash answers 301 to the slashed URL, other methods 404; a known path with another method answers 405.
 */
@Injectable()
export class RouteRegistry implements OnModuleInit {
  private table: RouteInfo[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  get routes(): readonly RouteInfo[] {
    return this.table;
  }

  onModuleInit(): void {
    const routes: RouteInfo[] = [];
    const missing: string[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as object | undefined;
      const metatype = wrapper.metatype as (new (...args: unknown[]) => unknown) | null | undefined;
      if (!instance || !metatype) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      const basePaths = [this.reflector.get<string | string[]>(PATH_METADATA, metatype) ?? ''].flat();
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = (prototype as Record<string, unknown>)[name] as () => unknown;
        const methodPaths = this.reflector.get<string | string[] | undefined>(PATH_METADATA, handler);
        const requestMethod = this.reflector.get<RequestMethod | undefined>(METHOD_METADATA, handler);
        if (methodPaths === undefined || requestMethod === undefined) continue;
        const access =
          this.reflector.get<AccessRule | undefined>(ACCESS_RULE, handler) ??
          this.reflector.get<AccessRule | undefined>(ACCESS_RULE, metatype);
        const noSlash =
          this.reflector.get<boolean | undefined>(NO_TRAILING_SLASH, handler) ??
          this.reflector.get<boolean | undefined>(NO_TRAILING_SLASH, metatype) ??
          false;
        for (const base of basePaths) {
          for (const sub of [methodPaths].flat()) {
            const path = joinPath(API_PREFIX, base, sub);
            const method = RequestMethod[requestMethod];
            if (!access) missing.push(`${method} ${path}`);
            routes.push({ method, path, trailingSlash: !noSlash, access, regex: toRegex(path) });
          }
        }
      }
    }
    if (missing.length > 0) {
      throw new Error(`Routes without an access declaration (default deny):\n  ${missing.join('\n  ')}`);
    }
    this.table = routes;
  }

  /** Methods served at a concrete request path (trailing slash rules applied). */
  methodsFor(urlPath: string): Set<string> {
    const hasSlash = urlPath.length > 1 && urlPath.endsWith('/');
    const bare = hasSlash ? urlPath.slice(0, -1) : urlPath;
    const methods = new Set<string>();
    for (const r of this.table) {
      if (r.trailingSlash !== hasSlash) continue;
      if (r.regex.test(bare)) methods.add(r.method);
    }
    if (methods.has('GET')) methods.add('HEAD');
    return methods;
  }

  /** Express middleware for the URL conventions (see class doc). */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const path = req.path;
      if (!path.startsWith(`/${API_PREFIX}/`) && path !== `/${API_PREFIX}`) return next();
      // The API page (Swagger UI and its assets) is served by @nestjs/swagger, outside the route table.
      if (path === `/${API_PREFIX}/docs` || path.startsWith(`/${API_PREFIX}/docs/`)) return next();
      const methods = this.methodsFor(path);
      if (methods.has(req.method)) return next();
      if (methods.size > 0) {
        const allow = [...methods, 'OPTIONS'].join(', ');
        res.setHeader('Allow', allow);
        if (req.method === 'OPTIONS') {
          res.status(200).json({});
          return;
        }
        res.status(405).json({ detail: `Method "${req.method}" not allowed.` });
        return;
      }
      if (!path.endsWith('/') && this.methodsFor(`${path}/`).size > 0) {
        if (req.method === 'GET' || req.method === 'HEAD') {
          const query = req.originalUrl.includes('?')
            ? req.originalUrl.slice(req.originalUrl.indexOf('?'))
            : '';
          res.redirect(301, `${path}/${query}`);
          return;
        }
      }
      res.status(404).json({ detail: 'Not found.' });
    };
  }
}
