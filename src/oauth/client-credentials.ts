import type { Request } from 'express';

/**
 * Client credentials of a token or revoke request (RFC 6749 §2.3.1): HTTP Basic (both parts form-url-decoded),
 * else `client_id` and `client_secret` from the form body. Null when neither is present.
 */
export function clientCredentials(req: Request): { clientId: string; clientSecret?: string } | null {
  const header = req.headers.authorization;
  if (typeof header === 'string' && /^basic\s+/i.test(header)) {
    const decoded = Buffer.from(header.replace(/^basic\s+/i, '').trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    try {
      const plus = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
      return { clientId: plus(decoded.slice(0, colon)), clientSecret: plus(decoded.slice(colon + 1)) };
    } catch {
      return null;
    }
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  const query = req.method === 'GET' ? (req.query as Record<string, unknown>) : {};
  const id = body.client_id ?? query.client_id;
  const secret = body.client_secret ?? query.client_secret;
  if (typeof id !== 'string' || id === '') return null;
  return { clientId: id, clientSecret: typeof secret === 'string' ? secret : undefined };
}
