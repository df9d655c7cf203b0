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

/** Wraps a {@link Paginated} result into the envelope with absolute `next`/`previous` links. */
@Injectable()
export class ListEnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((body: unknown) => {
        if (!(body instanceof Paginated)) return body;
        const req = context.switchToHttp().getRequest<Request>();
        const { page, pageSize } = body.page;
        const envelope: ListEnvelope<unknown> = {
          count: body.total,
          next: page * pageSize < body.total ? pageUrl(req, page + 1) : null,
          previous: page > 1 ? pageUrl(req, page - 1) : null,
          results: body.items,
        };
        return envelope;
      }),
    );
  }
}
