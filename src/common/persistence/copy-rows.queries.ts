import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/** Old id -> new id of the rows of one table copied (e.g. the source event's items -> the clone's). */
export type IdMap = ReadonlyMap<number, number>;

/** How one column of a copied row is written; columns not named are copied as they are. */
export type ColumnRule =
  /** A constant (cast to the column's type). */
  | { value: unknown }
  /** A foreign key rewritten through a map; ids missing from the map become NULL. */
  | { map: IdMap }
  /** An int[] of foreign keys rewritten through a map, order kept; ids missing from the map are dropped. */
  | { mapArray: IdMap }
  /** A foreign key into the same table, rewritten to the copies made by this very call. */
  | 'self'
  /** The current time (`now()`). */
  | 'now';

/** What to copy: the rows of `entity` matching `where` (SQL on alias `s`, parameters `$1…` from `params`). */
export interface CopySpec<T extends ObjectLiteral> {
  entity: EntityTarget<T>;
  where: string;
  params: unknown[];
  /** Per database column name. Create/update date columns default to `'now'`. */
  columns?: Record<string, ColumnRule>;
}

const typeCache = new Map<string, Map<string, string>>();

/**
 * Copies rows of one table with INSERT … SELECT, the column list read from the TypeORM entity metadata, so a
 * column added to the entity later is copied without touching any caller. Rows with a generated integer
 * primary key get new ids taken from the table's sequence before the insert, so the old -> new map is exact
 * and self-references (`'self'`) can be rewritten in the same statement. Tables without one (link tables,
 * one-row-per-event tables) are copied without a map.
 *
 * Two statements for a table with generated ids (ids, insert), one otherwise; plus one the first time a
 * constant column's type is needed (pg catalog, cached). Runs on the caller's `em` (its transaction).
 * @returns old id -> new id (empty for tables without a generated id)
 */
export async function copyRows<T extends ObjectLiteral>(
  em: EntityManager,
  spec: CopySpec<T>,
): Promise<Map<number, number>> {
  const meta = em.connection.getMetadata(spec.entity);
  const table = meta.tablePath;
  const generated =
    meta.primaryColumns.length === 1 && meta.primaryColumns[0].isGenerated ? meta.primaryColumns[0] : null;
  const rules: Record<string, ColumnRule> = {};
  for (const c of meta.columns) {
    if (c.isCreateDate || c.isUpdateDate) rules[c.databaseName] = 'now';
  }
  Object.assign(rules, spec.columns ?? {});
  // Virtual columns are real ones without an entity property (join-table and relation columns); only virtual
  // properties (`@VirtualColumn`, computed by a query) are not stored.
  const columns = [
    ...new Set(
      meta.columns
        .filter((c) => c.isInsert !== false && !c.isVirtualProperty && c !== generated)
        .map((c) => c.databaseName),
    ),
  ];
  const params = [...spec.params];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const map = new Map<number, number>();
  let from = `${q(table)} s`;
  if (generated) {
    const id = generated.databaseName;
    const rows: { old: number; new: number }[] = await em.query(
      `SELECT s.${q(id)} AS old, nextval(pg_get_serial_sequence('${table}', '${id}'))::int AS new
         FROM ${q(table)} s WHERE ${spec.where} ORDER BY s.${q(id)}`,
      spec.params,
    );
    if (rows.length === 0) return map;
    for (const r of rows) map.set(r.old, r.new);
    from += ` JOIN unnest(${param(rows.map((r) => r.old))}::int[], ${param(rows.map((r) => r.new))}::int[]) AS m(old, new) ON m.old = s.${q(id)}`;
  }
  const types = Object.values(rules).some((r) => typeof r === 'object' && 'value' in r)
    ? await columnTypes(em, table)
    : new Map<string, string>();
  const jsonMap = (m: IdMap) => param(JSON.stringify(Object.fromEntries(m)));
  const exprs = columns.map((name) => {
    const rule = rules[name];
    const col = `s.${q(name)}`;
    if (rule === undefined) return col;
    if (rule === 'now') return 'now()';
    if (rule === 'self') {
      if (!generated) throw new Error(`copyRows: ${table}.${name} 'self' needs a generated id`);
      return `(${jsonMap(map)}::jsonb ->> ${col}::text)::int`;
    }
    if ('value' in rule) return `${param(rule.value)}::${types.get(name) ?? 'text'}`;
    if ('map' in rule) return `(${jsonMap(rule.map)}::jsonb ->> ${col}::text)::int`;
    const m = jsonMap(rule.mapArray);
    return `ARRAY(SELECT (${m}::jsonb ->> x.v::text)::int FROM unnest(${col}) WITH ORDINALITY AS x(v, n)
                   WHERE ${m}::jsonb ? x.v::text ORDER BY x.n)`;
  });
  const idColumn = generated ? [q(generated.databaseName)] : [];
  const idExpr = generated ? ['m.new'] : [];
  await em.query(
    `INSERT INTO ${q(table)} (${[...idColumn, ...columns.map(q)].join(', ')})
       SELECT ${[...idExpr, ...exprs].join(', ')} FROM ${from} WHERE ${spec.where}`,
    params,
  );
  return map;
}

/** Database column name -> SQL type (`format_type`) of a table; cached for the process (the schema is fixed). */
async function columnTypes(em: EntityManager, table: string): Promise<Map<string, string>> {
  const cached = typeCache.get(table);
  if (cached) return cached;
  const rows: { name: string; type: string }[] = await em.query(
    `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
      WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
    [table],
  );
  const out = new Map(rows.map((r) => [r.name, r.type]));
  typeCache.set(table, out);
  return out;
}

function q(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
