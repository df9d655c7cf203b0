import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { map, Observable } from 'rxjs';
import { Paginated } from './pagination';

/** The list envelope of every list endpoint (spec "Conventions" 4, compat §1.3). */
export interface ListEnvelope<T> {
  count: number;
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

/** The envelope of one page, with absolute `next`/`previous` links built from the request's URL. */
export function toListEnvelope<T>(req: Request, body: Paginated<T>): ListEnvelope<T> {
  const { page, pageSize } = body.page;
  return {
    count: body.total,
    next: page * pageSize < body.total ? pageUrl(req, page + 1) : null,
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
