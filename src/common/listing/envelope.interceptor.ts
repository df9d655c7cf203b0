import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { map, Observable } from 'rxjs';
import { Paginated } from './pagination';

/** The list envelope of every list endpoint (spec "Conventions" 4, compat §1.3). */
export interface ListEnvelope<T> {
  /** Null on cursor pages (README "Cursor pagination"). */
  count: number | null;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** Absolute URL of the current request with `page` replaced (removed for page 1, as DRF does). */
export function pageUrl(req: Request, page: number): string {
  const url = new URL(req.originalUrl, `${req.protocol}://${req.get('host') ?? 'localhost'}`);
  if (page <= 1) url.searchParams.delete('page');
  else url.searchParams.set('page', String(page));
  return url.toString();
}

/** Absolute URL of the current request with `cursor` replaced. */
export function cursorUrl(req: Request, cursor: string): string {
  const url = new URL(req.originalUrl, `${req.protocol}://${req.get('host') ?? 'localhost'}`);
  url.searchParams.set('cursor', cursor);
  return url.toString();
}

/**
 * The envelope of one page, with absolute `next`/`previous` links built from the request's URL (`page=` links,
 * or on a cursor page `cursor=` links and no count).
 */
export function toListEnvelope<T>(req: Request, body: Paginated<T>): ListEnvelope<T> {
  if (body.links) {
    const { next, previous } = body.links;
    return {
      count: null,
      next: next === null ? null : cursorUrl(req, next),
      previous: previous === null ? null : cursorUrl(req, previous),
      results: body.items,
    };
  }
  const { page, pageSize } = body.page;
  const total = body.total ?? 0;
  return {
    count: total,
    next: page * pageSize < total ? pageUrl(req, page + 1) : null,
    previous: page > 1 ? pageUrl(req, page - 1) : null,
    results: body.items,
  };
}

/** Wraps a {@link Paginated} result into the envelope with absolute `next`/`previous` links. */
@Injectable()
export class ListEnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((body: unknown) => {
        if (!(body instanceof Paginated)) return body;
        return toListEnvelope(context.switchToHttp().getRequest<Request>(), body);
      }),
    );
  }
}
