/** Hosts for which a plain `http` redirect URI is accepted (a native or development client on this machine). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Why `uri` cannot be a registered redirect URI (spec "Authentication" 3): it must be absolute, `https` (or
 * `http` for 127.0.0.1, localhost, [::1]), without a fragment or user info. Null when it is acceptable.
 */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `"${uri}" is not a fully qualified URL.`;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    return `"${uri}" must use https (http only for 127.0.0.1 or localhost).`;
  }
  if (url.hash || uri.includes('#')) return `"${uri}" must not have a fragment.`;
  if (url.username || url.password) return `"${uri}" must not contain user information.`;
  if (uri.length > 2000) return 'A redirect URI has at most 2000 characters.';
  return null;
}

/** `uri` with `params` added to its query string (RFC 6749 §4.1.2: the registered query is kept). */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.append(k, v);
  return url.toString();
}
