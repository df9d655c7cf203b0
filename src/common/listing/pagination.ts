import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { NotFound } from '../errors';

/** Default and maximum page size (compat §1.3). */
export const MAX_PAGE_SIZE = 50;

/** The page a list request asks for: `page` (1-based) and `page_size` (default and maximum 50). */
export class PageRequest {
  constructor(
    readonly page: number,
    readonly pageSize: number,
  ) {}

  get offset(): number {
    return (this.page - 1) * this.pageSize;
  }

  /**
   * Parses `page`/`page_size` from a query string. A non-numeric or non-positive page is 404 "Invalid page."
   * (DRF); a bad or too large `page_size` falls back to / is capped at 50.
   * @throws NotFound
   */
  static fromQuery(query: Record<string, unknown>): PageRequest {
    const rawPage = query.page;
    let page = 1;
    if (rawPage !== undefined && rawPage !== '') {
      if (typeof rawPage !== 'string' || !/^\d+$/.test(rawPage) || Number(rawPage) < 1)
        throw new NotFound('Invalid page.');
      page = Number(rawPage);
    }
    let pageSize = MAX_PAGE_SIZE;
    const rawSize = query.page_size;
    if (typeof rawSize === 'string' && /^\d+$/.test(rawSize) && Number(rawSize) > 0) {
      pageSize = Math.min(Number(rawSize), MAX_PAGE_SIZE);
    }
    return new PageRequest(page, pageSize);
  }
}

/** Route parameter decorator giving the {@link PageRequest} of the current request. */
export const Pagination = createParamDecorator((_data: unknown, ctx: ExecutionContext): PageRequest => {
  const req = ctx.switchToHttp().getRequest<Request>();
  return PageRequest.fromQuery(req.query);
});

/**
 * One page of presented results plus the total count. Controllers return it; the envelope interceptor turns it
 * into `{count, next, previous, results}` (spec "Conventions" 4).
 */
export class Paginated<T> {
  constructor(
    readonly items: T[],
    readonly total: number,
    readonly page: PageRequest,
  ) {}

  /**
   * @throws NotFound "Invalid page." when the page lies beyond the last one (page 1 of an empty list is fine).
   */
  static of<T>(items: T[], total: number, page: PageRequest): Paginated<T> {
    if (page.page > 1 && page.offset >= total) throw new NotFound('Invalid page.');
    return new Paginated(items, total, page);
  }
}

/**
 * Runs a list query for one page: one statement for the rows and one for the count, whatever the page size.
 * `present` turns the rows into wire objects and may load relations in bulk (a fixed number of statements).
 */
export async function paginate<E extends ObjectLiteral, T>(
  qb: SelectQueryBuilder<E>,
  page: PageRequest,
  present: (rows: E[]) => T[] | Promise<T[]>,
): Promise<Paginated<T>> {
  const [rows, total] = await qb.skip(page.offset).take(page.pageSize).getManyAndCount();
  if (page.page > 1 && page.offset >= total) throw new NotFound('Invalid page.');
  return Paginated.of(await present(rows), total, page);
}
