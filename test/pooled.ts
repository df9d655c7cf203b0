/**
 * Runs `fn` over `items` with at most `limit` calls in flight and returns the results in the items' order: keeps a
 * test that walks many routes or keys fast without flooding the API's connection pool.
 */
export async function pooled<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

/** The numbers `0..n-1`, for `pooled` over a count. */
export const range = (n: number): number[] => Array.from({ length: n }, (_v, i) => i);
