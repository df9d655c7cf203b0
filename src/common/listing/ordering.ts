import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { QueryFilters } from './query-filters';

/**
 * Applies `?ordering=` (compat §1.4): comma-separated names, `-` for descending, only the endpoint's fields
 * (unknown names are ignored; when none is valid the default applies). Ties are always broken by id so pages
 * are stable.
 * @param filters the request's filters (`ordering` is read from them)
 * @param fields wire name -> SQL expression (for example `{ position: 'q.position' }`)
 * @param defaults default ordering in wire form (for example `['position', 'id']`)
 */
export function applyOrdering<E extends ObjectLiteral>(
  qb: SelectQueryBuilder<E>,
  filters: QueryFilters,
  fields: Record<string, string>,
  defaults: string[],
  idExpression = `${qb.alias}.id`,
): SelectQueryBuilder<E> {
  const requested = filters
    .ordering(Object.keys(fields))
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter((x) => x.length > 0 && fields[x.replace(/^-/, '')] !== undefined);
  const terms = requested.length > 0 ? requested : defaults;
  let hasId = false;
  terms.forEach((term, i) => {
    const desc = term.startsWith('-');
    const expr =
      fields[term.replace(/^-/, '')] ?? (term.replace(/^-/, '') === 'id' ? idExpression : undefined);
    if (!expr) return;
    if (expr === idExpression) hasId = true;
    if (i === 0) qb.orderBy(expr, desc ? 'DESC' : 'ASC');
    else qb.addOrderBy(expr, desc ? 'DESC' : 'ASC');
  });
  if (!hasId) qb.addOrderBy(idExpression, 'ASC');
  return qb;
}
