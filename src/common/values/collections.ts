/**
 * Groups values by a key, keeping their order: `groupBy(rows, (r) => r.itemId)` gives a map of item id to rows.
 * Used where a list page loads related rows of all its entries in one statement.
 */
export function groupBy<T, K, V = T>(
  rows: Iterable<T>,
  key: (row: T) => K,
  value?: (row: T) => V,
): Map<K, V[]> {
  const out = new Map<K, V[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    const v = value ? value(row) : (row as unknown as V);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return out;
}
