import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';

/**
 * Runs one request and counts the SQL statements the application sent meanwhile (every statement goes through
 * `PostgresQueryRunner.query`). For list endpoints: the page must answer 200, and the row count comes back too,
 * so tests can compare page sizes (style.md: a list runs a fixed number of statements whatever the page size).
 */
export async function listStatements(
  request: () => PromiseLike<{ status: number; body: { results?: unknown[] } }>,
): Promise<{ rows: number; statements: number }> {
  const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
  try {
    const res = await request();
    expect(res.status).toBe(200);
    return { rows: res.body.results?.length ?? 0, statements: spy.mock.calls.length };
  } finally {
    spy.mockRestore();
  }
}
