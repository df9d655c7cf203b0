import { createHash } from 'crypto';
import type { EntityManager } from 'typeorm';
import { SessionQueries } from './session.queries';

const session = new SessionQueries();

/** Statement names by SQL text; bounded so that endless distinct texts cannot grow it. */
const names = new Map<string, string>();
const MAX_NAMES = 2000;

function nameOf(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    if (names.size >= MAX_NAMES) names.clear();
    name = `s${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    names.set(sql, name);
  }
  return name;
}

/**
 * Runs `sql` as a named prepared statement (node-postgres prepares it once per pooled connection and then only
 * binds and executes it), for the statements every request runs (credential resolution, list pages): planning
 * them took more PostgreSQL CPU than executing them (bench/README.md). Goes through TypeORM's query runner like
 * any statement (transactions, logging, error mapping). Not for use behind a transaction-mode connection pooler.
 */
export function preparedQuery<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  return session.prepared<T>(em, nameOf(sql), sql, params);
}
