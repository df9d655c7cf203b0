import { chunkByParameters, insertInChunks, PG_MAX_PARAMETERS } from './chunked-insert';

describe('chunkByParameters', () => {
  it('keeps every statement at or under the parameter cap, rows in order', () => {
    const rows = Array.from({ length: 2300 }, (_, i) => i);
    const chunks = chunkByParameters(rows, 40);
    expect(chunks.map((c) => c.length)).toEqual([1638, 662]);
    for (const c of chunks) expect(c.length * 40).toBeLessThanOrEqual(PG_MAX_PARAMETERS);
    expect(chunks.flat()).toEqual(rows);
  });

  it('one chunk when everything fits, none for no rows', () => {
    expect(chunkByParameters([1, 2, 3], 10)).toEqual([[1, 2, 3]]);
    expect(chunkByParameters([], 10)).toEqual([]);
  });

  it('splits exactly at the cap', () => {
    expect(chunkByParameters([1, 2, 3, 4, 5], 2, 4).map((c) => c.length)).toEqual([2, 2, 1]);
    expect(chunkByParameters([1, 2, 3, 4], 2, 8)).toEqual([[1, 2, 3, 4]]);
  });

  it('refuses a row wider than the cap', () => {
    expect(() => chunkByParameters([1], 10, 5)).toThrow(RangeError);
  });

  it('insertInChunks calls the writer once per chunk, in order', async () => {
    const seen: number[][] = [];
    await insertInChunks([1, 2, 3, 4, 5], 3, async (c) => void seen.push(c), 6);
    expect(seen).toEqual([[1, 2], [3, 4], [5]]);
  });
});
