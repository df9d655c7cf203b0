import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { NotFound } from '../errors';
import { PageRequest, Paginated } from './pagination';

const TOTAL = 'page_total_count';

/**
 * Runs a list query for one page in ONE statement: the rows of the page and the total count (a window
 * `count(*) OVER ()`, evaluated before LIMIT). An empty page beyond the first is 404 "Invalid page." (DRF), an
 * empty first page has count 0. The query must select one entity without joined rows (raw rows and entities are
 * matched one to one). `present` turns the rows into wire objects and may load relations in bulk.
 * @throws NotFound "Invalid page." for a page beyond the last one
 */
export async function paginateWindowed<E extends ObjectLiteral, T>(
  qb: SelectQueryBuilder<E>,
  page: PageRequest,
  present: (rows: E[]) => T[] | Promise<T[]>,
): Promise<Paginated<T>> {
  const { entities, raw } = await qb
    .addSelect('count(*) OVER ()', TOTAL)
    .offset(page.offset)
    .limit(page.pageSize)
    .getRawAndEntities<Record<string, unknown>>();
  if (entities.length === 0) {
    if (page.page > 1) throw new NotFound('Invalid page.');
    return Paginated.of([], 0, page);
  }
  return Paginated.of(await present(entities), Number(raw[0][TOTAL]), page);
}
