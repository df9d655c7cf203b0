import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';

/** The text of a statement: a string, or a prepared statement's `{ name, text }`. */
function sqlText(query: unknown): unknown {
  return typeof query === 'object' && query !== null && 'text' in query
    ? (query).text
    : query;
}

/**
 * Runs one request and counts the SQL statements the application sent meanwhile (every statement goes through
 * `PostgresQueryRunner.query`). For list endpoints: the page must answer 200, and the row count comes back too,
 * so tests can compare page sizes (style.md: a list runs a fixed number of statements whatever the page size).
 */
export async function listStatements(
  request: () => PromiseLike<{ status: number; body: { results?: unknown[] } }>,
): Promise<{ rows: number; statements: number }> {
  return countStatements(request);
}

/**
 * Like {@link listStatements} for any GET: the answer must be 200; `rows` is the length of `results` (0 for a
 * detail). The SQL texts are returned too, for failure messages.
 */
export async function countStatements(
  request: () => PromiseLike<{ status: number; body: { results?: unknown[] } }>,
): Promise<{ rows: number; statements: number; sql: string[] }> {
  const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
  try {
    const res = await request();
    expect(res.status).toBe(200);
    return {
      rows: res.body.results?.length ?? 0,
      statements: spy.mock.calls.length,
      sql: spy.mock.calls.map((c) => String(sqlText(c[0])).replace(/\s+/g, ' ').slice(0, 160)),
    };
  } finally {
    spy.mockRestore();
  }
}
