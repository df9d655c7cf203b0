/**
 * Strings a JSON body may not carry (README "Security", "Work a request may cause"). JSON's `\ud800` escape can
 * encode an unpaired UTF-16 surrogate, which is no Unicode text: libraries throw on it (`isEmail` → `URIError: URI
 * malformed`), PostgreSQL refuses it in `jsonb` (22P05) and `text` columns would silently store U+FFFD. Such
 * bodies are refused at parsing with 400 naming the field, before any handler runs.
 */

/** The message of a string (or object key) holding an unpaired surrogate. */
export const UNPAIRED_SURROGATE_MESSAGE =
  'Not a valid string: it contains an unpaired UTF-16 surrogate (invalid Unicode).';

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. Linear (no nesting). */
const UNPAIRED = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `text` holds an unpaired surrogate (the opposite of ES2024 `String.prototype.isWellFormed`). */
export function hasUnpairedSurrogate(text: string): boolean {
  return UNPAIRED.test(text);
}

/**
 * The path (`['positions', 0, 'answers', 1, 'answer']`) of the first string value or object key in `body` that
 * holds an unpaired surrogate (a bad key is reported at its own path); null when every string is well formed.
 * Walks with an explicit stack: bodies are at most `MAX_JSON_DEPTH` deep and 5 MB, so the cost is linear in the
 * body's size.
 */
export function unpairedSurrogatePath(body: unknown): (string | number)[] | null {
  const stack: [unknown, (string | number)[]][] = [[body, []]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (hasUnpairedSurrogate(value)) return path;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], [...path, i]]);
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i];
      if (hasUnpairedSurrogate(k)) return [...path, k];
      stack.push([(value as Record<string, unknown>)[k], [...path, k]]);
    }
  }
  return null;
}

/**
 * The DRF-shaped error body for `message` at `path`: `{"field": ["msg"]}`, nested objects for nested fields and
 * lists (`{}` for the entries before) for list positions, `{"non_field_errors": ["msg"]}` for the body itself.
 */
export function errorAt(path: (string | number)[], message: string): Record<string, unknown> {
  let node: unknown = [message];
  for (let i = path.length - 1; i >= 0; i--) {
    const seg = path[i];
    if (typeof seg === 'number') {
      const list: unknown[] = Array.from({ length: seg }, () => ({}));
      list.push(node);
      node = list;
    } else {
      node = { [seg]: node };
    }
  }
  return Array.isArray(node) ? { non_field_errors: node } : (node as Record<string, unknown>);
}
