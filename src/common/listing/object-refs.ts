/**
 * Bulk detail reads for the change feed (issue 27 §1): a context renders many objects of one resource in one or a
 * few statements, exactly as its detail GET answers them.
 */

/** An object to render: its database id and the event it must belong to (null: organizer-scoped). */
export interface ObjectRef {
  id: number;
  eventId: number | null;
}

/** One rendered object with the id and event of its row. */
export interface RenderedObject<T> {
  id: number;
  eventId: number | null;
  json: T;
}

/** The distinct ids of `refs`. */
export function refIds(refs: readonly ObjectRef[]): number[] {
  return [...new Set(refs.map((r) => r.id))];
}

/**
 * The rendered objects by id, keeping only those whose row belongs to the event its ref names (an id of another
 * event or organizer is left out, as if it did not exist).
 */
export function byRef<T>(refs: readonly ObjectRef[], rows: readonly RenderedObject<T>[]): Map<number, T> {
  const wanted = new Map(refs.map((r) => [r.id, r.eventId]));
  const out = new Map<number, T>();
  for (const row of rows) {
    if (wanted.has(row.id) && wanted.get(row.id) === row.eventId) out.set(row.id, row.json);
  }
  return out;
}
