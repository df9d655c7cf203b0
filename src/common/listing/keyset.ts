import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { CursorPosition } from './cursor';

/** One term of a list's ordering, as its builder holds it. */
export interface KeysetTerm {
  /** SQL expression (as given to `orderBy`, property paths allowed). */
  expr: string;
  desc: boolean;
  /** Where NULLs sort: PostgreSQL's default is last for ascending, first for descending. */
  nullsFirst: boolean;
  /** Whether the expression may be NULL (unknown expressions are taken as nullable). */
  nullable: boolean;
}

const PARAM = (i: number) => `__cursor_${i}`;
const COLUMN_REF = /^"?([A-Za-z_]\w*)"?\s*\.\s*"?([A-Za-z_]\w*)"?$/;

/** Whether `expr` is a column of the builder's main table that cannot be NULL. */
function nonNullColumn<E extends ObjectLiteral>(qb: SelectQueryBuilder<E>, expr: string): boolean {
  const m = COLUMN_REF.exec(expr.trim());
  if (!m || m[1] !== qb.alias) return false;
  const metadata = qb.expressionMap.mainAlias?.metadata;
  const column =
    metadata?.findColumnWithPropertyName(m[2]) ?? metadata?.columns.find((c) => c.databaseName === m[2]);
  return column !== undefined && !column.isNullable;
}

/** Whether `expr` names the main table's id. */
function isIdOf(alias: string, expr: string): boolean {
  const m = COLUMN_REF.exec(expr.trim());
  return m !== null && m[1] === alias && m[2] === 'id';
}

/**
 * The ordering of a list's builder (what `applyOrdering` or the query set with `orderBy`), the main table's id
 * appended when it is not among the terms, so that the ordering is total (ties broken by id).
 */
export function keysetTerms<E extends ObjectLiteral>(qb: SelectQueryBuilder<E>): KeysetTerm[] {
  const terms: KeysetTerm[] = [];
  for (const [expr, how] of Object.entries(qb.expressionMap.orderBys)) {
    const order = typeof how === 'string' ? how : how.order;
    const nulls = typeof how === 'string' ? undefined : how.nulls;
    const desc = order === 'DESC';
    terms.push({
      expr,
      desc,
      nullsFirst: nulls === undefined ? desc : nulls === 'NULLS FIRST',
      nullable: !nonNullColumn(qb, expr),
    });
    if (isIdOf(qb.alias, expr)) break;
  }
  if (!terms.some((t) => isIdOf(qb.alias, t.expr))) {
    terms.push({ expr: `${qb.alias}.id`, desc: false, nullsFirst: false, nullable: false });
  }
  return terms;
}

/** The same terms in reverse (for a page before a row), NULLs moving to the other end too. */
function reversed(terms: KeysetTerm[]): KeysetTerm[] {
  return terms.map((t) => ({ ...t, desc: !t.desc, nullsFirst: !t.nullsFirst }));
}

/** `expr` sorts strictly after the value of parameter `p` (null: `value` is NULL). */
function after(t: KeysetTerm, p: string, value: string | null): string {
  if (value === null) return t.nullsFirst ? `${t.expr} IS NOT NULL` : 'FALSE';
  const beyond = `${t.expr} ${t.desc ? '<' : '>'} :${p}`;
  return t.nullable && !t.nullsFirst ? `(${beyond} OR ${t.expr} IS NULL)` : beyond;
}

/** `expr` equals the value of parameter `p`, NULL equal to NULL. */
function equal(t: KeysetTerm, p: string, value: string | null): string {
  return value === null ? `${t.expr} IS NULL` : `${t.expr} = :${p}`;
}

/**
 * The condition "sorts after the row with `values`" (or at it, when inclusive): a row-value comparison when every
 * term shares one direction and no NULL is involved (an index on the terms serves it), else the expanded form
 * `a > x OR (a = x AND (b > y OR (b = y AND ...)))`.
 */
function afterCondition(terms: KeysetTerm[], values: (string | null)[], inclusive: boolean): string {
  const sameWay = terms.every((t) => t.desc === terms[0].desc);
  const noNulls = terms.every((t) => !t.nullable) && values.every((v) => v !== null);
  if (sameWay && noNulls) {
    const op = `${terms[0].desc ? '<' : '>'}${inclusive ? '=' : ''}`;
    const left = terms.map((t) => t.expr).join(', ');
    const right = terms.map((_, i) => `:${PARAM(i)}`).join(', ');
    return `(${left}) ${op} (${right})`;
  }
  let condition = inclusive ? terms.map((t, i) => equal(t, PARAM(i), values[i])).join(' AND ') : 'FALSE';
  for (let i = terms.length - 1; i >= 0; i--) {
    const here = after(terms[i], PARAM(i), values[i]);
    const tail =
      condition === 'FALSE' ? '' : ` OR (${equal(terms[i], PARAM(i), values[i])} AND (${condition}))`;
    condition = `${here}${tail}`;
  }
  return `(${condition})`;
}

/**
 * Narrows `qb` to the rows after (or, for `previous`, before) the cursor's row and sets its ORDER BY to `terms`
 * (reversed for `previous`: the caller reverses the rows it reads).
 * @returns false when the cursor does not fit the ordering (another number of terms)
 */
export function applyKeyset<E extends ObjectLiteral>(
  qb: SelectQueryBuilder<E>,
  terms: KeysetTerm[],
  position: CursorPosition | null,
): boolean {
  const backwards = position?.direction === 'previous';
  const order = backwards ? reversed(terms) : terms;
  qb.orderBy();
  for (const t of order) {
    const nulls = t.nullsFirst === t.desc ? undefined : t.nullsFirst ? 'NULLS FIRST' : 'NULLS LAST';
    qb.addOrderBy(t.expr, t.desc ? 'DESC' : 'ASC', nulls);
  }
  if (position === null) return true;
  if (position.values.length !== terms.length) return false;
  const params: Record<string, string> = {};
  position.values.forEach((v, i) => {
    if (v !== null) params[PARAM(i)] = v;
  });
  qb.andWhere(afterCondition(order, position.values, position.inclusive), params);
  return true;
}

/** The select-list expression of term `i` as text (exact: timestamps keep their microseconds). */
export function keysetSelect(t: KeysetTerm): string {
  return `(${t.expr})::text`;
}
