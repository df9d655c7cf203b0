import {
  CallHandler,
  ExecutionContext,
  Injectable,
  Logger,
  NestInterceptor,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { Pool, type PoolClient } from 'pg';
import { finalize, from, mergeMap, Observable, switchMap } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { LockTimeout, PreconditionFailed } from '../errors';
import { ConditionalWriteQueries } from './conditional-write.queries';
import { ifMatchHolds } from './etag';
import { ResourceProbe } from './resource-probe';
import { RouteInfo, RouteRegistry } from './route-registry';

const WRITES = new Set(['PATCH', 'PUT', 'DELETE', 'POST']);

/**
 * The GET route whose answer is the resource a write changes, or null when the write has none (README "Sync and
 * concurrency", "Conditional writes"):
 * - `PATCH`/`PUT`/`DELETE X/` act on `GET X/` (`E/orders/{code}/`, `E/settings/`, `O/`);
 * - an action `POST X/{param}/<action>/` acts on `GET X/{param}/` (`E/orders/{code}/mark_paid/` on
 *   `E/orders/{code}/`, `O/giftcards/{id}/transact/` on `O/giftcards/{id}/`).
 * Creates (`POST` on a list), bulk routes on lists (`E/seats/bulk_block/`, `E/vouchers/batch_create/`) and
 * routes without a detail GET (`O/checkinrpc/redeem/`, `device/…`, `oauth/…`) have none: `If-Match` is ignored
 * there, as before.
 */
export function resourceRouteOf(routes: readonly RouteInfo[], write: RouteInfo): RouteInfo | null {
  if (!WRITES.has(write.method) || !write.trailingSlash) return null;
  const gets = routes.filter((r) => r.method === 'GET' && r.trailingSlash);
  const same = gets.find((g) => g.path === write.path) ?? null;
  if (write.method !== 'POST') return same;
  if (same) return null; // a create on a list
  const segments = write.path.split('/');
  const action = segments[segments.length - 1];
  const parent = segments.slice(0, -1);
  if (action.startsWith(':') || !parent[parent.length - 1]?.startsWith(':')) return null;
  return gets.find((g) => g.path === parent.join('/')) ?? null;
}

/** The route of the table serving `method` at `bare` (no trailing slash); static segments beat parameters. */
function matchRoute(routes: readonly RouteInfo[], method: string, bare: string): RouteInfo | undefined {
  const statics = (r: RouteInfo) => r.path.split('/').filter((s) => !s.startsWith(':')).length;
  return routes
    .filter((r) => r.method === method && r.trailingSlash && r.regex.test(bare))
    .sort((a, b) => statics(b) - statics(a))[0];
}

/** A held lock of a resource: released once, when the write has answered. */
interface HeldLock {
  release(): void;
}

/**
 * Global interceptor of conditional writes (README "Sync and concurrency", "Conditional writes"): a `PATCH`,
 * `PUT`, `DELETE` or action `POST` with `If-Match` on a route with a resource ({@link resourceRouteOf}):
 * 1. takes the write lock of (organizer, resource path): a transaction-level PostgreSQL advisory lock held on a
 *    connection of its own pool (not the application's) until the write has answered; the wait is bounded by
 *    `LOCK_TIMEOUT_MS`, past it 409 with `Retry-After: 5` (retry later), as for row locks;
 * 2. reads the resource's current `ETag` with a GET of its URL through this process's own HTTP stack, with the
 *    write's credential ({@link ResourceProbe});
 * 3. when `If-Match` does not hold (strong comparison; `*` holds for any existing resource; a resource that does
 *    not exist, or that the credential cannot read, holds for nothing): 412 `{"detail": "Precondition failed."}`
 *    with the current `ETag` in the header (none when there is no resource), and the handler does not run;
 * 4. else runs the handler; after its success (its transaction committed), the answer carries the resource's new
 *    `ETag` (read the same way; none after a `DELETE`), and then the lock is released.
 * Two writers with the same tag are serialized by the lock, so the second finds the first's change and gets 412.
 * Writes without `If-Match` take no lock and run as before (they are not serialized with conditional ones).
 * Runs inside the idempotency interceptor: a keyed 412 is stored and replayed like any answer.
 */
@Injectable()
export class ConditionalWriteInterceptor implements NestInterceptor, OnApplicationShutdown {
  private readonly logger = new Logger('ConditionalWrites');
  private pool: Pool | null = null;
  private readonly resources = new Map<RouteInfo, RouteInfo | null>();

  constructor(
    private readonly config: AppConfig,
    private readonly registry: RouteRegistry,
    private readonly probe: ResourceProbe,
    private readonly queries: ConditionalWriteQueries,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const header = req.headers['if-match'];
    if (header === undefined || !WRITES.has(req.method)) return next.handle();
    const resource = this.resourcePath(req);
    if (!resource) return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    return from(this.begin(req, res, resource)).pipe(
      switchMap((held) =>
        next.handle().pipe(
          mergeMap(async (body: unknown) => {
            if (req.method !== 'DELETE') await this.tagAnswer(req, res, resource);
            return body;
          }),
          finalize(() => held.release()),
        ),
      ),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.end().catch(() => undefined);
  }

  /** The URL path of the resource the request writes (`/api/v1/…/orders/ABC12/`), or null when none. */
  private resourcePath(req: Request): string | null {
    if (!req.path.endsWith('/')) return null;
    const bare = req.path.slice(0, -1);
    const write = matchRoute(this.registry.routes, req.method, bare);
    if (!write) return null;
    if (!this.resources.has(write)) this.resources.set(write, resourceRouteOf(this.registry.routes, write));
    const resource = this.resources.get(write);
    if (!resource) return null;
    const depth = resource.path.split('/').length;
    return `${bare.split('/').slice(0, depth).join('/')}/`;
  }

  /** Steps 1 to 3 of the class comment: the lock, held when `If-Match` holds; else 412 (lock released). */
  private async begin(req: Request, res: Response, resource: string): Promise<HeldLock> {
    const held = await this.lock(resource);
    try {
      const answer = await this.probe.get(req, resource);
      if (answer.status >= 500 || answer.status === 409 || answer.status === 429) throw new LockTimeout();
      const current = answer.status === 200 ? answer.etag : null;
      if (!ifMatchHolds(req.headers['if-match'], current)) {
        if (current !== null) res.setHeader('ETag', current);
        throw new PreconditionFailed();
      }
      return held;
    } catch (err) {
      held.release();
      throw err;
    }
  }

  /**
   * Step 4: the resource's new `ETag` on the answer (when it still answers 200). The write has committed: a read
   * that fails leaves the answer without the header rather than failing it.
   */
  private async tagAnswer(req: Request, res: Response, resource: string): Promise<void> {
    try {
      const answer = await this.probe.get(req, resource);
      if (answer.status === 200 && answer.etag !== null && !res.headersSent)
        res.setHeader('ETag', answer.etag);
    } catch (err) {
      this.logger.warn(`reading the new ETag of ${resource} failed: ${String(err)}`);
    }
  }

  /** Takes the write lock of `resource` (see the class comment) on a connection of the lock pool. */
  private async lock(resource: string): Promise<HeldLock> {
    const organizer = /^\/api\/v1\/organizers\/([^/]+)\//.exec(resource)?.[1] ?? '';
    let client: PoolClient;
    try {
      client = await this.lockPool().connect();
    } catch (err) {
      if (String(err).includes('timeout')) throw new LockTimeout();
      throw err;
    }
    try {
      await this.queries.lock(client, organizer, resource, this.config.lockTimeoutMs);
    } catch (err) {
      client.release(true);
      if ((err as { code?: string }).code === '55P03') throw new LockTimeout();
      throw err;
    }
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.queries.end(client).then(
          () => client.release(),
          (err: unknown) => {
            this.logger.warn(`releasing the write lock of ${resource} failed: ${String(err)}`);
            client.release(true);
          },
        );
      },
    };
  }

  private lockPool(): Pool {
    if (!this.pool) {
      this.pool = new Pool({
        connectionString: this.config.databaseUrl,
        application_name: 'conditional-writes',
        // Conditional writes of different resources held or waiting at the same time: half the main pool.
        max: Math.max(2, Math.ceil(this.config.databasePoolSize / 2)),
        connectionTimeoutMillis: this.config.lockTimeoutMs,
        idleTimeoutMillis: 30_000,
      });
      this.pool.on('error', (err) => this.logger.warn(`lock pool connection lost: ${err.message}`));
    }
    return this.pool;
  }
}
