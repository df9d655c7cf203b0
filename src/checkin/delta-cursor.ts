import { ValidationFailed } from '../common/errors';

/**
 * The opaque cursor of the scanners' delta sync (README "Delta sync for scanners"): base64url of
 * `d1.<list>.<lo>.<hi>.<after>`, the list it belongs to, the window of change stamps `[lo, hi)` (`hi` empty: up to
 * the watermark of the next call) and, inside a delta of several pages, the last position id handed out.
 * Clients store and pass it back unchanged (`changed_since`).
 */
export interface DeltaCursor {
  list: number;
  /** Lower change stamp, inclusive (decimal bigint). */
  lo: string;
  /** Upper change stamp, exclusive (decimal bigint); null: the next call's watermark. */
  hi: string | null;
  /** Positions with a greater id only (0: from the start). */
  after: number;
}

/** Largest signed bigint: change stamps are transaction ids as bigint. */
const MAX_STAMP = 2n ** 63n - 1n;
const SHAPE = /^d1\.(\d{1,10})\.(\d{1,19})\.(\d{0,19})\.(\d{1,10})$/;
const INT_MAX = 2 ** 31 - 1;

/** The cursor's wire form. */
export function encodeDeltaCursor(c: DeltaCursor): string {
  return Buffer.from(`d1.${c.list}.${c.lo}.${c.hi ?? ''}.${c.after}`, 'utf8').toString('base64url');
}

/**
 * Reads `changed_since` of list `listId`.
 * @throws ValidationFailed `{"changed_since": [...]}` when it is not a cursor this server handed out (malformed,
 * out of range) or one of another check-in list
 */
export function decodeDeltaCursor(raw: string, listId: number): DeltaCursor {
  const invalid = () =>
    ValidationFailed.field('changed_since', 'Invalid cursor: pass back a cursor this list gave.');
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw invalid();
  const m = SHAPE.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!m) throw invalid();
  const [list, after] = [Number(m[1]), Number(m[4])];
  const stamps = [m[2], m[3]].filter((s) => s !== '');
  if (list > INT_MAX || after > INT_MAX || stamps.some((s) => BigInt(s) > MAX_STAMP)) throw invalid();
  const cursor: DeltaCursor = {
    list,
    lo: BigInt(m[2]).toString(),
    hi: m[3] === '' ? null : BigInt(m[3]).toString(),
    after,
  };
  if (encodeDeltaCursor(cursor) !== raw) throw invalid();
  if (list !== listId) {
    throw ValidationFailed.field('changed_since', 'This cursor belongs to another check-in list.');
  }
  return cursor;
}

/** Positions per delta page: `page_size` when given (1 to 1000), else 1000. */
export const MAX_DELTA_PAGE_SIZE = 1000;

/** The delta page size of a raw `page_size` query value (see {@link MAX_DELTA_PAGE_SIZE}). */
export function deltaPageSize(raw: unknown): number {
  return typeof raw === 'string' && /^\d{1,7}$/.test(raw) && Number(raw) > 0
    ? Math.min(Number(raw), MAX_DELTA_PAGE_SIZE)
    : MAX_DELTA_PAGE_SIZE;
}
