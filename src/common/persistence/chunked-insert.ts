/**
 * Most bind parameters PostgreSQL accepts in one statement (the wire protocol counts them in 16 bits); one
 * parameter more and the whole statement fails (README "Limits": an order at the cap of 2,500 positions is
 * written in several statements).
 */
export const PG_MAX_PARAMETERS = 65535;

/**
 * Splits rows for multi-row `INSERT … VALUES (…), (…)` statements so that no statement binds more than
 * `maxParameters` parameters (`columnsPerRow` each row). Order is kept; an empty input gives no chunk.
 * @param columnsPerRow parameters one row binds (at least 1)
 * @param maxParameters the cap per statement (default {@link PG_MAX_PARAMETERS})
 * @throws RangeError when a single row binds more than the cap
 */
export function chunkByParameters<T>(
  rows: readonly T[],
  columnsPerRow: number,
  maxParameters: number = PG_MAX_PARAMETERS,
): T[][] {
  const perRow = Math.max(1, Math.trunc(columnsPerRow));
  const size = Math.floor(maxParameters / perRow);
  if (size < 1) throw new RangeError(`one row binds ${perRow} parameters, more than ${maxParameters}`);
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

/**
 * Runs `insert` once per chunk of {@link chunkByParameters}, one after the other (on the caller's transaction,
 * so all chunks land together or none does).
 */
export async function insertInChunks<T>(
  rows: readonly T[],
  columnsPerRow: number,
  insert: (chunk: T[]) => Promise<unknown>,
  maxParameters: number = PG_MAX_PARAMETERS,
): Promise<void> {
  for (const chunk of chunkByParameters(rows, columnsPerRow, maxParameters)) await insert(chunk);
}
