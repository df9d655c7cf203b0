/**
 * Field names whose values are secrets or credentials: token values, webhook and OAuth client secrets, device API
 * and initialization tokens, passwords, order and ticket secrets, and hashes of any of them. Matched anywhere in a
 * key, case-insensitively (`secret`, `api_token`, `initialization_token`, `client_secret`, `token_hash`,
 * `password`). Deliberately broad: a non-secret field with such a name (`api_token_id`) is redacted too. The audit
 * log neither stores nor shows their values (README "Audit log").
 */
export const SECRET_FIELD = /secret|token|password|passwd|api_?key|hash|salt/i;

/** The marker that replaces a secret value in audit data. */
export const REDACTED = '[redacted]';

/** True for a key naming a secret (see {@link SECRET_FIELD}). */
export function isSecretField(key: string): boolean {
  return SECRET_FIELD.test(key);
}

/**
 * A copy of `value` with the value of every secret-named key replaced by {@link REDACTED} (null stays null), at
 * any depth (objects and arrays); other values unchanged. Used when an entry is written and again when it is shown.
 */
export function scrubSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => scrubSecrets(v)) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[key] = isSecretField(key) ? (v === null || v === undefined ? v : REDACTED) : scrubSecrets(v);
  }
  return out as T;
}
