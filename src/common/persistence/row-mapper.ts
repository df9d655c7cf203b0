import type { EntityMetadata, ObjectLiteral } from 'typeorm';

/** What a column needs on its way from a raw row or a JSON object to an entity property. */
interface ColumnPlan {
  property: string;
  column: string;
  /** JSON carries it as a string (ISO timestamp) that becomes a `Date`. */
  timestamp: boolean;
  /** Sent as text inside JSON so that precision survives (numeric, bigint), as TypeORM returns them. */
  asText: boolean;
  /** TypeORM turns a `date` into `YYYY-MM-DD`; node-postgres would parse it into a local `Date`. */
  date: boolean;
}

const TIMESTAMP_TYPES = new Set([
  'timestamptz',
  'timestamp with time zone',
  'timestamp',
  'timestamp without time zone',
]);
const TEXT_IN_JSON_TYPES = new Set(['numeric', 'decimal', 'bigint', 'int8']);

/** jsonb_build_object takes at most 100 arguments: 50 columns per call, joined with `||`. */
const JSON_CHUNK = 50;

const plans = new WeakMap<EntityMetadata, RowMapper<ObjectLiteral>>();

function dateString(value: unknown): unknown {
  if (!(value instanceof Date)) return value;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${p(value.getMonth() + 1)}-${p(value.getDate())}`;
}

/**
 * Fast entity-shaped objects from raw rows, for list pages that fetch rows, count and relations in one
 * statement (README "API conventions": statements per request). Built once per entity from its
 * TypeORM metadata; the objects carry exactly the values TypeORM would hydrate
 * (timestamps as `Date`, numerics and bigints as strings, dates as `YYYY-MM-DD`), so presenters take them as they
 * take entities.
 */
export class RowMapper<E extends ObjectLiteral> {
  private readonly columns: ColumnPlan[];
  private readonly dateColumns: ColumnPlan[];
  private readonly prototype: object;

  private constructor(metadata: EntityMetadata) {
    this.prototype = (metadata.target as { prototype: object }).prototype ?? Object.prototype;
    const seen = new Set<string>();
    this.columns = [];
    for (const c of metadata.columns) {
      // Columns the entity does not select (`select: false`, e.g. trigger-kept change stamps) are not read either.
      if (c.isVirtual || !c.isSelect || seen.has(c.databaseName)) continue;
      seen.add(c.databaseName);
      const type = String(c.type);
      this.columns.push({
        property: c.propertyName,
        column: c.databaseName,
        timestamp: TIMESTAMP_TYPES.has(type) || c.isCreateDate || c.isUpdateDate,
        asText: TEXT_IN_JSON_TYPES.has(type) && !c.isArray,
        date: type === 'date',
      });
    }
    this.dateColumns = this.columns.filter((c) => c.date);
  }

  /** The (cached) mapper of an entity. */
  static of<E extends ObjectLiteral>(metadata: EntityMetadata): RowMapper<E> {
    let mapper = plans.get(metadata);
    if (!mapper) {
      mapper = new RowMapper(metadata);
      plans.set(metadata, mapper);
    }
    return mapper as unknown as RowMapper<E>;
  }

  /** `alias.col AS "property", …`: the select list for {@link fromRow} (columns named as the entity's properties). */
  selectSql(alias: string): string {
    return this.columns.map((c) => `${alias}."${c.column}" AS "${c.property}"`).join(', ');
  }

  /** A `jsonb` object of the row `alias` (numerics as text) for {@link fromJson}; usable inside `jsonb_agg`. */
  jsonSql(alias: string): string {
    const parts: string[] = [];
    for (let i = 0; i < this.columns.length; i += JSON_CHUNK) {
      const args = this.columns
        .slice(i, i + JSON_CHUNK)
        .map((c) => `'${c.column}', ${alias}."${c.column}"${c.asText ? '::text' : ''}`);
      parts.push(`jsonb_build_object(${args.join(', ')})`);
    }
    return parts.length === 1 ? parts[0] : `(${parts.join(' || ')})`;
  }

  /**
   * The node-postgres row selected with {@link selectSql}, used as the entity-shaped object itself (no copy: list
   * pages are hot); `date` columns are turned into `YYYY-MM-DD` in place. Other selected columns stay on
   * the object, which presenters ignore (they name every wire field).
   */
  fromRow(row: Record<string, unknown>): E {
    for (const c of this.dateColumns) row[c.property] = dateString(row[c.property]);
    return row as E;
  }

  /** An entity-shaped object from a JSON object built with {@link jsonSql}. */
  fromJson(json: Record<string, unknown>): E {
    const out = Object.create(this.prototype) as Record<string, unknown>;
    for (const c of this.columns) {
      const v = json[c.column];
      out[c.property] = c.timestamp && typeof v === 'string' ? new Date(v) : v;
    }
    return out as E;
  }

  /** {@link fromJson} over a JSON array (null: none). */
  fromJsonArray(json: unknown): E[] {
    return Array.isArray(json) ? json.map((j) => this.fromJson(j as Record<string, unknown>)) : [];
  }
}
