import { createHash } from 'crypto';
import { ValidationFailed } from '../errors';

/**
 * Where a cursor page starts (README "Cursor pagination"): next to the row whose ordering values (as PostgreSQL
 * text, the id last) are `values`, after it (`next`) or before it (`previous`), that row itself included when
 * `inclusive` (the way back from an empty page).
 */
export interface CursorPosition {
  direction: 'next' | 'previous';
  values: (string | null)[];
  inclusive: boolean;
}

/** The cursor part of a list request: the fingerprint of its route, filters and ordering, and where it starts. */
export interface CursorRequest {
  fingerprint: string;
  /** null: the first page (`?cursor=` empty). */
  position: CursorPosition | null;
}

/** Query parameters that move through a list, not part of what it lists. */
const PAGING_PARAMS = new Set(['cursor', 'page', 'page_size']);
/** Most ordering terms a cursor can carry (every list orders by a handful, the id last). */
const MAX_TERMS = 16;
const VERSION = 1;

/** The answer to a cursor this server did not hand out for this list, filters and ordering. */
export const invalidCursor = (): ValidationFailed => ValidationFailed.field('cursor', 'Invalid cursor.');

/**
 * A short digest of what a list lists: the path and every query parameter but `cursor`, `page` and `page_size`
 * (filters, `ordering`, `expand`, ...), in a stable order. A cursor carries it, so one reused on another list or
 * with other filters or ordering is refused instead of answering a page that is not the next one.
 */
export function listFingerprint(path: string, query: Record<string, unknown>): string {
  const entries = Object.keys(query)
    .filter((k) => !PAGING_PARAMS.has(k))
    .sort()
    .map((k) => [k, query[k]]);
  return createHash('sha256')
    .update(JSON.stringify([path, entries]))
    .digest('base64url')
    .slice(0, 16);
}

/** The wire form of a cursor: base64url of a JSON array (opaque to clients). */
export function encodeCursor(fingerprint: string, position: CursorPosition): string {
  const body = [VERSION, fingerprint, position.direction === 'next' ? 'n' : 'p', position.values];
  if (position.inclusive) body.push(1);
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/**
 * Reads a non-empty `?cursor=` of the list with `fingerprint`.
 * @throws ValidationFailed `{"cursor": ["Invalid cursor."]}` for anything this server did not hand out for this
 * list with these filters and this ordering (garbage, another list's, another ordering's)
 */
export function decodeCursor(raw: string, fingerprint: string): CursorPosition {
  if (raw.length > 8192 || !/^[A-Za-z0-9_-]+$/.test(raw)) throw invalidCursor();
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(body) || body.length < 4 || body.length > 5) throw invalidCursor();
  const [version, print, direction, values, inclusive] = body as unknown[];
  const valuesOk =
    Array.isArray(values) &&
    values.length >= 1 &&
    values.length <= MAX_TERMS &&
    values.every((v) => v === null || (typeof v === 'string' && v.length <= 1024));
  if (
    version !== VERSION ||
    print !== fingerprint ||
    (direction !== 'n' && direction !== 'p') ||
    !valuesOk ||
    (inclusive !== undefined && inclusive !== 1)
  )
    throw invalidCursor();
  return {
    direction: direction === 'n' ? 'next' : 'previous',
    values: values as (string | null)[],
    inclusive: inclusive === 1,
  };
}
