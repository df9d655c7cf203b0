import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { NotFound, ValidationFailed } from '../errors';
import { CursorRequest, decodeCursor, invalidCursor, listFingerprint } from './cursor';

/** Default and maximum page size of `?page=` pages (compat §1.3). */
export const MAX_PAGE_SIZE = 50;
/** Maximum page size of `?cursor=` pages (README "Cursor pagination"); the default stays 50. */
export const MAX_CURSOR_PAGE_SIZE = 1000;

/**
 * The page a list request asks for: `page` (1-based) and `page_size` (default and maximum 50), or, with
 * `?cursor=`, a keyset page (`cursor` set; `page_size` up to 1,000) that starts next to a row instead of at an
 * offset.
 */
export class PageRequest {
  constructor(
    readonly page: number,
    readonly pageSize: number,
    readonly cursor: CursorRequest | null = null,
  ) {}

  get offset(): number {
    return (this.page - 1) * this.pageSize;
  }

  /**
   * Parses `page`/`page_size`/`cursor` from a query string. A non-numeric or non-positive page is 404 "Invalid
   * page." (DRF); a bad or too large `page_size` falls back to / is capped at 50 (1,000 with a cursor). `cursor`
   * empty: the first cursor page; else a cursor this list handed out (`path` and the other parameters must be the
   * same).
   * @throws NotFound bad page
   * @throws ValidationFailed `{"cursor": [...]}` for a cursor not handed out for this list, filters and ordering,
   * or a cursor together with `page`
   */
  static fromQuery(query: Record<string, unknown>, path = ''): PageRequest {
    const rawCursor = query.cursor;
    const rawPage = query.page;
    if (rawCursor !== undefined) {
      if (rawPage !== undefined)
        throw ValidationFailed.field('cursor', 'Use either cursor or page, not both.');
      if (typeof rawCursor !== 'string') throw invalidCursor();
      const fingerprint = listFingerprint(path, query);
      const position = rawCursor === '' ? null : decodeCursor(rawCursor, fingerprint);
      return new PageRequest(1, pageSizeOf(query.page_size, MAX_CURSOR_PAGE_SIZE), { fingerprint, position });
    }
    let page = 1;
    if (rawPage !== undefined && rawPage !== '') {
      if (typeof rawPage !== 'string' || !/^\d+$/.test(rawPage) || Number(rawPage) < 1)
        throw new NotFound('Invalid page.');
      page = Number(rawPage);
    }
    return new PageRequest(page, pageSizeOf(query.page_size, MAX_PAGE_SIZE));
  }
}

/** `page_size` capped at `max`; default (and for a bad value) 50. */
function pageSizeOf(raw: unknown, max: number): number {
  if (typeof raw === 'string' && /^\d+$/.test(raw) && Number(raw) > 0) return Math.min(Number(raw), max);
  return MAX_PAGE_SIZE;
}

/** Route parameter decorator giving the {@link PageRequest} of the current request. */
export const Pagination = createParamDecorator((_data: unknown, ctx: ExecutionContext): PageRequest => {
  const req = ctx.switchToHttp().getRequest<Request>();
  return PageRequest.fromQuery(req.query, req.originalUrl.split('?')[0]);
});

/** The cursors of the pages around a cursor page (null: none in that direction). */
export interface CursorLinks {
  next: string | null;
  previous: string | null;
}

/**
 * One page of presented results plus the total count (null on cursor pages: counting every matching row is what
 * a cursor page avoids). Controllers return it; the envelope interceptor turns it into
 * `{count, next, previous, results}` (spec "Conventions" 4).
 */
export class Paginated<T> {
  constructor(
    readonly items: T[],
    readonly total: number | null,
    readonly page: PageRequest,
    /** On cursor pages: the cursors of the next and previous pages. */
    readonly links: CursorLinks | null = null,
  ) {}

  /**
   * @throws NotFound "Invalid page." when the page lies beyond the last one (page 1 of an empty list is fine).
   */
  static of<T>(items: T[], total: number, page: PageRequest): Paginated<T> {
    if (page.page > 1 && page.offset >= total) throw new NotFound('Invalid page.');
    return new Paginated(items, total, page);
  }

  /** A page of nothing, in either mode. */
  static empty<T>(page: PageRequest): Paginated<T> {
    return page.cursor
      ? new Paginated<T>([], null, page, { next: null, previous: null })
      : Paginated.of<T>([], 0, page);
  }

  /** The same page (count, links) showing `items` instead (the rows presented). */
  withItems<U>(items: U[]): Paginated<U> {
    return new Paginated(items, this.total, this.page, this.links);
  }
}
