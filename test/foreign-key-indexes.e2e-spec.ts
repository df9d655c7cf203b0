import { startTestApp, TestApp } from './harness';

/**
 * Every foreign key has an index whose leading columns are the key's columns (README "Layout"): without one,
 * deleting or updating a referenced row scans the whole referencing table (deleting 200 cart positions among
 * 400,000 took 14 s without an index on `cart_position.addon_to_id`). Tables added later are checked by the same
 * query. A single-column key may be covered by a partial index `WHERE <key> IS NOT NULL` (the seat keys' unique
 * indexes), which every look-up `<key> = $1` can use.
 */
describe('foreign keys', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(() => t?.close());

  it('are all covered by an index on their leading columns', async () => {
    const rows: { fk: string }[] = await t.db.query(`
      SELECT c.conrelid::regclass || '(' ||
             (SELECT string_agg(a.attname, ', ' ORDER BY k.ord)
                FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
                JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) || ') ' || c.conname AS fk
        FROM pg_constraint c
        JOIN pg_namespace n ON n.oid = c.connamespace
       WHERE c.contype = 'f' AND n.nspname = current_schema()
         AND NOT EXISTS (
           SELECT 1 FROM pg_index i
            WHERE i.indrelid = c.conrelid
              AND (i.indpred IS NULL
                   -- a partial index "WHERE <key> IS NOT NULL" serves the key's look-ups (\`<key> = $1\`) too
                   OR (cardinality(c.conkey) = 1 AND pg_get_expr(i.indpred, i.indrelid) =
                       '(' || (SELECT quote_ident(a.attname) FROM pg_attribute a
                                WHERE a.attrelid = c.conrelid AND a.attnum = c.conkey[1]) || ' IS NOT NULL)'))
              AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
              AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey)
       ORDER BY 1`);
    expect(rows.map((r) => r.fk)).toEqual([]);
  });
});
