import { ValidationFailed } from '../../common/errors';

/**
 * The change feed's opaque cursor: the last sequence a client has seen, as `base64url("c1:<sequence>")`. The
 * empty cursor (no `?cursor=`) starts at the oldest entry still kept.
 */
export function encodeChangeCursor(sequence: string): string {
  return Buffer.from(`c1:${sequence}`, 'utf8').toString('base64url');
}

/**
 * The sequence a cursor stands for ("0" for none).
 * @throws ValidationFailed `{"cursor": ["Invalid cursor."]}` for anything this server did not hand out
 */
export function decodeChangeCursor(cursor: string | undefined): string {
  if (cursor === undefined) return '0';
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const m = /^c1:(0|[1-9]\d{0,17})$/.exec(text);
  if (!m) throw ValidationFailed.field('cursor', 'Invalid cursor.');
  return m[1];
}
