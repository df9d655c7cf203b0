import type { EntityMetadata, ObjectLiteral, QueryRunner, SelectQueryBuilder } from 'typeorm';
import { NotFound } from '../errors';
import { preparedQuery } from '../persistence/prepared';
import { RowMapper } from '../persistence/row-mapper';
import { CursorPosition, encodeCursor, invalidCursor } from './cursor';
import { applyKeyset, keysetSelect, KeysetTerm, keysetTerms } from './keyset';
import { CursorLinks, PageRequest, Paginated } from './pagination';

/**
 * Something read together with each row of a page, in the page's own statement: a SQL expression correlated with
 * the row (a scalar subquery) and how to read its value.
 */
export interface Related<V> {
  sql: string;
  read: (value: unknown) => V;
}

/** A relation source per key of `R`. */
export type RelatedSpec<R> = { [K in keyof R]: Related<R[K]> };

/**
 * The rows of a correlated subquery as a JSON array of entity-shaped objects (see {@link RowMapper}).
 * @param alias alias of the related table in `from`
 * @param from `FROM … WHERE …` correlated with the page's alias (`FROM <table> v WHERE v.item_id = i.id`)
 * @param orderBy SQL order of the array, e.g. `v.position, v.id`
 */
export function relatedRows<E extends ObjectLiteral>(
  metadata: EntityMetadata,
  alias: string,
  from: string,
  orderBy: string,
): Related<E[]> {
  const mapper = RowMapper.of<E>(metadata);
  return {
    sql: `(SELECT coalesce(jsonb_agg(${mapper.jsonSql(alias)} ORDER BY ${orderBy}), '[]'::jsonb) ${from})`,
    read: (value) => mapper.fromJsonArray(value),
  };
}

/** The one related row of a correlated subquery (or null), e.g. an order's invoice address. */
export function relatedRow<E extends ObjectLiteral>(
  metadata: EntityMetadata,
  alias: string,
  from: string,
): Related<E | null> {
  const mapper = RowMapper.of<E>(metadata);
  return {
    sql: `(SELECT ${mapper.jsonSql(alias)} ${from} LIMIT 1)`,
    read: (value) => (value ? mapper.fromJson(value as Record<string, unknown>) : null),
  };
}

/** A scalar (as node-postgres returns it, e.g. text) of a correlated subquery. */
export function relatedValue<V>(sql: string): Related<V> {
  return { sql: `(${sql})`, read: (value) => value as V };
}

const TOTAL = '__total';
const relKey = (k: string) => `__rel_${k}`;
const sortKey = (i: number) => `__key_${i}`;

interface Ran<E, R> {
  rows: { row: E; related: R; keys: (string | null)[] }[];
  total: number;
}

/**
 * Selects the entity's columns, the related values, optionally the total and the values of the ordering `terms`
 * (a cursor page's keys), and runs the query.
 */
async function run<E extends ObjectLiteral, R>(
  qb: SelectQueryBuilder<E>,
  related: RelatedSpec<R>,
  withTotal: boolean,
  terms: KeysetTerm[] = [],
): Promise<Ran<E, R>> {
  const alias = qb.alias;
  const mapper = RowMapper.of<E>(qb.expressionMap.mainAlias!.metadata);
  qb.select(mapper.selectSql(alias));
  if (withTotal) qb.addSelect('COUNT(*) OVER ()', TOTAL);
  const keys = Object.keys(related) as (keyof R & string)[];
  for (const key of keys) qb.addSelect(related[key].sql, relKey(key));
  terms.forEach((t, i) => qb.addSelect(keysetSelect(t), sortKey(i)));
  const [sql, params] = qb.getQueryAndParameters();
  // A builder made from a transaction's manager carries its query runner (TypeORM keeps the field protected).
  const runner = (qb as unknown as { queryRunner?: QueryRunner }).queryRunner;
  const em = runner?.manager ?? qb.connection.manager;
  const raw = await preparedQuery<Record<string, unknown>>(em, sql, params);
  const rows = raw.map((r) => {
    const rel = {} as R;
    for (const key of keys) rel[key] = related[key].read(r[relKey(key)]);
    const sortKeys = terms.map((_, i) => r[sortKey(i)] as string | null);
    return { row: mapper.fromRow(r), related: rel, keys: sortKeys };
  });
  return { rows, total: raw.length > 0 ? Number(raw[0][TOTAL] ?? raw.length) : 0 };
}

/** Whether a query failed on a value PostgreSQL could not read (SQLSTATE class 22: a forged cursor's values). */
function isDataException(err: unknown): boolean {
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.code ?? e?.driverError?.code;
  return typeof code === 'string' && code.startsWith('22');
}

/**
 * One cursor page (README "Cursor pagination"): the rows of `qb` after (or before) the cursor's row in the
 * builder's ordering, id last, with no offset and no count, read in one statement; `pageSize + 1` rows are read
 * to know whether there are more. With `idsFirst`, the page's ids are found on the bare rows first (see
 * {@link paginateWithSeparateCount}).
 * @throws ValidationFailed `{"cursor": ["Invalid cursor."]}` for a cursor that does not fit the ordering or
 * whose values PostgreSQL cannot read
 */
async function cursorPage<E extends ObjectLiteral, R>(
  qb: SelectQueryBuilder<E>,
  page: PageRequest,
  related: RelatedSpec<R>,
  idsFirst: boolean,
): Promise<{ rows: { row: E; related: R }[]; links: CursorLinks }> {
  const { fingerprint, position } = page.cursor!;
  const terms = keysetTerms(qb);
  if (!applyKeyset(qb, terms, position)) throw invalidCursor();
  qb.offset(undefined).limit(page.pageSize + 1);
  let rowsQb = qb;
  if (idsFirst) {
    const ids = qb.clone().select(`${qb.alias}.id`);
    rowsQb = qb.clone().where(`${qb.alias}.id = ANY(ARRAY(${ids.getQuery()}))`).limit(undefined);
  }
  let ran: Ran<E, R>;
  try {
    ran = await run(rowsQb, related, false, terms);
  } catch (err) {
    if (position !== null && isDataException(err)) throw invalidCursor();
    throw err;
  }
  const more = ran.rows.length > page.pageSize;
  const rows = ran.rows.slice(0, page.pageSize);
  const backwards = position?.direction === 'previous';
  if (backwards) rows.reverse();
  const at = (direction: CursorPosition['direction'], values: (string | null)[], inclusive = false) =>
    encodeCursor(fingerprint, { direction, values, inclusive });
  const first = rows[0]?.keys;
  const last = rows[rows.length - 1]?.keys;
  let links: CursorLinks;
  if (!backwards) {
    links = {
      next: more ? at('next', last) : null,
      previous:
        position === null ? null : at('previous', first ?? position.values, !first && !position.inclusive),
    };
  } else {
    links = {
      previous: more ? at('previous', first) : null,
      next: at('next', last ?? position.values, !last && !position.inclusive),
    };
  }
  return { rows, links };
}

/**
 * One page in ONE SQL statement: the rows of `qb` (filters and ordering applied by the caller), the total as
 * `COUNT(*) OVER ()`, and each related value as a correlated subquery (README "API conventions": at most 4
 * statements for any list page, credential resolution included).
 * @throws NotFound "Invalid page." for a page past the last one (page 1 of an empty list is fine)
 */
export async function paginateInOne<E extends ObjectLiteral, R, T>(
  qb: SelectQueryBuilder<E>,
  page: PageRequest,
  related: RelatedSpec<R>,
  present: (row: E, related: R) => T,
): Promise<Paginated<T>> {
  if (page.cursor) {
    const { rows, links } = await cursorPage(qb, page, related, false);
    return new Paginated(
      rows.map((r) => present(r.row, r.related)),
      null,
      page,
      links,
    );
  }
  qb.offset(page.offset).limit(page.pageSize);
  const { rows, total } = await run(qb, related, true);
  if (page.page > 1 && rows.length === 0) throw new NotFound('Invalid page.');
  return Paginated.of(
    rows.map((r) => present(r.row, r.related)),
    total,
    page,
  );
}

/**
 * One page in TWO statements sent at once on two pool connections: the page's rows with their related values (the
 * matching rows are sorted and cut to the page in a subquery of ids, so the correlated subqueries run for the
 * page's rows only), and the count of the matching rows. For large lists whose related values are costly (the check-in
 * positions of a list, compat §3.21): `COUNT(*) OVER ()` would compute them for every matching row. Not for a
 * builder bound to a transaction (the two statements would share its one connection).
 * @throws NotFound "Invalid page." for a page past the last one (page 1 of an empty list is fine)
 */
export async function paginateWithSeparateCount<E extends ObjectLiteral, R, T>(
  qb: SelectQueryBuilder<E>,
  page: PageRequest,
  related: RelatedSpec<R>,
  present: (row: E, related: R) => T,
): Promise<Paginated<T>> {
  if (page.cursor) {
    const { rows, links } = await cursorPage(qb, page, related, true);
    return new Paginated(
      rows.map((r) => present(r.row, r.related)),
      null,
      page,
      links,
    );
  }
  const [countSql, countParams] = qb.clone().orderBy().select('1').getQueryAndParameters();
  // The page's ids first (sorted and cut on the bare rows), then those rows with their related values.
  const ids = qb.clone().select(`${qb.alias}.id`).offset(page.offset).limit(page.pageSize);
  // `= ANY(ARRAY(…))`: the ids are computed once and the rows fetched by primary key.
  const rowsQb = qb.clone().where(`${qb.alias}.id = ANY(ARRAY(${ids.getQuery()}))`);
  const [{ rows }, counted] = await Promise.all([
    run(rowsQb, related, false),
    preparedQuery<{ n: number }>(
      qb.connection.manager,
      `SELECT count(*)::int AS n FROM (${countSql}) AS matching`,
      countParams,
    ),
  ]);
  if (page.page > 1 && rows.length === 0) throw new NotFound('Invalid page.');
  return Paginated.of(
    rows.map((r) => present(r.row, r.related)),
    counted[0]?.n ?? 0,
    page,
  );
}

/**
 * The first row of `qb` (scoped by the caller) with its related values, in one statement.
 * @throws NotFound when there is none
 */
export async function findOneInOne<E extends ObjectLiteral, R, T>(
  qb: SelectQueryBuilder<E>,
  related: RelatedSpec<R>,
  present: (row: E, related: R) => T,
): Promise<T> {
  qb.limit(1);
  const { rows } = await run(qb, related, false);
  if (rows.length === 0) throw new NotFound();
  return present(rows[0].row, rows[0].related);
}

/**
 * {@link paginateInOne} for lists that show only their own rows: one statement for rows and count.
 * @throws NotFound "Invalid page." for a page past the last one
 */
export async function paginateRows<E extends ObjectLiteral, T>(
  qb: SelectQueryBuilder<E>,
  page: PageRequest,
  present: (rows: E[]) => T[],
): Promise<Paginated<T>> {
  const result = await paginateInOne(qb, page, {}, (row) => row);
  return result.withItems(present(result.items));
}

/**
 * Runs a list query for one page: one statement for the rows and one for the count (one statement, no count, on
 * a cursor page), whatever the page size. `present` turns the rows into wire objects and may load relations in
 * bulk (a fixed number of statements).
 * @throws NotFound "Invalid page." for a page past the last one
 */
export async function paginate<E extends ObjectLiteral, T>(
  qb: SelectQueryBuilder<E>,
  page: PageRequest,
  present: (rows: E[]) => T[] | Promise<T[]>,
): Promise<Paginated<T>> {
  if (page.cursor) {
    const result = await paginateInOne(qb, page, {}, (row) => row);
    return result.withItems(await present(result.items));
  }
  const [rows, total] = await qb.skip(page.offset).take(page.pageSize).getManyAndCount();
  if (page.page > 1 && page.offset >= total) throw new NotFound('Invalid page.');
  return Paginated.of(await present(rows), total, page);
}

/** Every row of `qb` (scoped, and bounded, by the caller) with its related values, in one statement. */
export async function findManyInOne<E extends ObjectLiteral, R, T>(
  qb: SelectQueryBuilder<E>,
  related: RelatedSpec<R>,
  present: (row: E, related: R) => T,
): Promise<T[]> {
  const { rows } = await run(qb, related, false);
  return rows.map((r) => present(r.row, r.related));
}
