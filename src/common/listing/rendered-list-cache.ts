import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { map, Observable, of } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { toListEnvelope } from './envelope.interceptor';
import { Paginated } from './pagination';

/**
 * Names the version of what a list page shows, from the authenticated request (for example the event id and its
 * catalogue version); null: do not cache this request. The version must change, in the same transaction, with
 * every write that changes the page (database triggers are the safe way), and must never go back.
 */
export type ListVersion = (req: Request) => string | null;

const VERSION_OF = 'ticketing:rendered-list-version';

/** Byte-bounded least-recently-used map of rendered pages (JSON text). */
class RenderedPages {
  private readonly pages = new Map<string, string>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): string | undefined {
    const page = this.pages.get(key);
    if (page !== undefined) {
      this.pages.delete(key);
      this.pages.set(key, page);
    }
    return page;
  }

  set(key: string, page: string): void {
    const size = page.length + key.length;
    if (size > this.maxBytes / 4) return;
    const old = this.pages.get(key);
    if (old !== undefined) {
      this.pages.delete(key);
      this.bytes -= old.length + key.length;
    }
    this.pages.set(key, page);
    this.bytes += size;
    for (const [k, v] of this.pages) {
      if (this.bytes <= this.maxBytes) break;
      this.pages.delete(k);
      this.bytes -= v.length + k.length;
    }
  }
}

/**
 * Serves a list page from the text rendered for an earlier identical request while the page's version is unchanged
 * (bench/README.md "List throughput": a repeated catalogue list costs the credential and Last-Modified
 * statements, not the page's rows, hydration and serialisation). The key is the version, the absolute URL (the
 * envelope's `next` and `previous` links depend on scheme and host) and the query. Runs after the guards (only
 * callers allowed to see the page get it) and inside the conditional-list check (a 304 is answered before). Per
 * process, bounded by `LIST_CACHE_BYTES`; replicas agree because the version is read from the database with each
 * request.
 */
@Injectable()
export class RenderedListInterceptor implements NestInterceptor {
  private readonly pages: RenderedPages;

  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {
    this.pages = new RenderedPages(config.listCacheBytes);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const versionOf = this.reflector.get<ListVersion | undefined>(VERSION_OF, context.getHandler());
    const req = context.switchToHttp().getRequest<Request>();
    const version = this.config.listCacheBytes > 0 && versionOf ? versionOf(req) : null;
    if (version === null) return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    const key = `${version} ${req.protocol}://${req.get('host') ?? ''}${req.originalUrl}`;
    const cached = this.pages.get(key);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    if (cached !== undefined) return of(cached);
    return next.handle().pipe(
      map((body: unknown) => {
        if (!(body instanceof Paginated)) return body;
        const text = JSON.stringify(toListEnvelope(req, body));
        this.pages.set(key, text);
        return text;
      }),
    );
  }
}

/**
 * Caches a list endpoint's rendered pages under the version `versionOf` names (see {@link ListVersion}). Put it
 * above `@ConditionalList(...)`: the decorator applied first (the lower one) wraps the other, so the conditional
 * check (304/412) runs first.
 */
export const RenderedListCache = (versionOf: ListVersion) =>
  applyDecorators(SetMetadata(VERSION_OF, versionOf), UseInterceptors(RenderedListInterceptor));
