import type { QueryFilters } from '../../common/listing/query-filters';

/**
 * Fields of an order whose value is itself a serializer in pretix (lists of objects, or one object): `include` and
 * `exclude` reach one level into them with dotted names (`positions.secret`, `invoice_address.city`). Every other
 * field is a leaf, `downloads` included (pretix renders it by a plain field).
 */
const NESTED: ReadonlySet<string> = new Set(['positions', 'fees', 'payments', 'refunds', 'invoice_address']);

/** The repeatable `include=` / `exclude=` parameters of an order read; empty lists: the full order. */
export interface OrderFieldMask {
  include: readonly string[];
  exclude: readonly string[];
}

/** `include` and `exclude` as the request sent them (each repeatable; compat §4.4, pretix `OrderSerializer`). */
export function orderFieldMask(filters: QueryFilters): OrderFieldMask {
  return { include: filters.all('include'), exclude: filters.all('exclude') };
}

type Json = Record<string, unknown>;

/** The child field names of a nested value: the keys of its object (or first element); null when unknown. */
function childKeys(value: unknown): string[] | null {
  const sample: unknown = Array.isArray(value) ? (value as unknown[])[0] : value;
  return sample !== null && typeof sample === 'object' ? Object.keys(sample) : null;
}

/** Applies `keep` (a field-name filter) to the object or every element of the list `value`. */
function pick(value: unknown, keep: (name: string) => boolean): unknown {
  const one = (o: unknown) =>
    o !== null && typeof o === 'object'
      ? Object.fromEntries(Object.entries(o as Json).filter(([k]) => keep(k)))
      : o;
  return Array.isArray(value) ? value.map(one) : one(value);
}

/**
 * Applies pretix's `include` then `exclude` to one order's wire form (pretix `OrderSerializer.__init__`):
 * - `include` (when any is given): a top-level field stays when named; a nested field (positions, fees, payments,
 *   refunds, invoice_address) keeps only the children named `<field>.<child>` and is dropped when none of its
 *   children is named; every other field is dropped. Unknown names select nothing.
 * - `exclude`: `<field>` drops a field, `<field>.<child>` drops a child of a nested field; names of absent fields
 *   and deeper paths are ignored. (pretix answers 500 for an unknown child or a child of `invoice_address`; here
 *   an unknown child is ignored and `invoice_address.<child>` drops that child.)
 * Without either parameter the order is returned unchanged (same object).
 */
export function maskOrder<T extends object>(order: T, mask: OrderFieldMask): Partial<T> {
  if (mask.include.length === 0 && mask.exclude.length === 0) return order;
  let out: Json = { ...(order as Json) };
  if (mask.include.length > 0) {
    const includes = new Set(mask.include);
    const kept: Json = {};
    for (const [name, value] of Object.entries(out)) {
      if (includes.has(name)) {
        kept[name] = value;
      } else if (NESTED.has(name)) {
        const known = childKeys(value);
        const named = [...includes]
          .filter((i) => i.startsWith(`${name}.`))
          .map((i) => i.slice(name.length + 1));
        const found = known === null ? named.length > 0 : named.some((c) => known.includes(c));
        if (found) kept[name] = pick(value, (child) => includes.has(`${name}.${child}`));
      }
    }
    out = kept;
  }
  for (const path of mask.exclude) {
    const parts = path.split('.');
    if (!(parts[0] in out)) continue;
    if (parts.length === 1) {
      delete out[parts[0]];
    } else if (parts.length === 2 && NESTED.has(parts[0])) {
      out[parts[0]] = pick(out[parts[0]], (child) => child !== parts[1]);
    }
  }
  return out as Partial<T>;
}
