import type { OAuthClient } from './oauth-applications.service';

/** Scopes of this service (README "OAuth 2.0 applications"). */
export const SCOPES = ['read', 'write', 'profile'] as const;
/** The scope of a request that names none. */
export const DEFAULT_SCOPES = ['read', 'write'];

/** What the consent page asks and a code will carry. */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  scopes: string[];
  state?: string;
  codeChallenge: string | null;
}

/** Parameters of `GET /api/v1/oauth/authorize` (and the consent form's hidden inputs). */
export type AuthorizationParams = Record<string, unknown>;

/** The outcome of checking an authorization request (RFC 6749 §4.1.1, §4.1.2.1; RFC 7636 §4.3, §4.4.1). */
export type Checked =
  | { kind: 'ok'; request: AuthorizationRequest }
  /** Unknown client or unregistered redirect URI: a 400 page, never a redirect. */
  | { kind: 'page'; message: string }
  /** Any other error: back to the client with `error` (and `state`). */
  | { kind: 'redirect'; redirectUri: string; error: string; description: string; state?: string };

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** RFC 7636 §4.2: 43-128 characters of `[A-Za-z0-9-._~]`. */
const CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * Checks an authorization request: first `client_id` and `redirect_uri` (exact string match with a registered
 * one), then `response_type=code`, the scopes (`read`, `write`, `profile`; none means `read write`) and PKCE
 * (`S256` only; `plain` or a challenge without method refused; required for public clients, README "Security").
 */
export function checkAuthorization(params: AuthorizationParams, client: OAuthClient | null): Checked {
  if (!client) return { kind: 'page', message: 'Unknown client_id: no application is registered with it.' };
  const redirectUri = str(params.redirect_uri);
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
    return {
      kind: 'page',
      message: 'The redirect_uri is not one of the URIs registered for this application.',
    };
  }
  const state = str(params.state);
  const fail = (error: string, description: string): Checked => ({
    kind: 'redirect',
    redirectUri,
    error,
    description,
    state,
  });
  const responseType = str(params.response_type);
  if (!responseType) return fail('invalid_request', 'Missing parameter: response_type.');
  if (responseType !== 'code')
    return fail('unsupported_response_type', 'Only response_type=code is supported.');
  const scopeParam = str(params.scope)?.trim() ?? '';
  const scopes = scopeParam === '' ? DEFAULT_SCOPES : [...new Set(scopeParam.split(/\s+/))];
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) return fail('invalid_scope', `Unknown scope: ${unknown.join(' ')}.`);
  const challenge = str(params.code_challenge);
  const method = str(params.code_challenge_method);
  if (method !== undefined && method !== 'S256') {
    return fail('invalid_request', 'code_challenge_method must be S256 (plain is not supported).');
  }
  if (challenge === undefined && method !== undefined)
    return fail('invalid_request', 'Missing code_challenge.');
  if (challenge !== undefined && method === undefined) {
    return fail('invalid_request', 'code_challenge_method=S256 is required (plain is not supported).');
  }
  if (challenge !== undefined && !CHALLENGE.test(challenge))
    return fail('invalid_request', 'Invalid code_challenge.');
  if (challenge === undefined && !client.confidential) {
    return fail('invalid_request', 'code_challenge (PKCE, S256) is required for public clients.');
  }
  const ordered = SCOPES.filter((s) => scopes.includes(s));
  return {
    kind: 'ok',
    request: { client, redirectUri, scopes: ordered, state, codeChallenge: challenge ?? null },
  };
}

/** The query string of an authorization request as the consent form carries it. */
export function requestParams(r: AuthorizationRequest): Record<string, string> {
  const p: Record<string, string> = {
    response_type: 'code',
    client_id: r.client.clientId,
    redirect_uri: r.redirectUri,
    scope: r.scopes.join(' '),
  };
  if (r.state !== undefined) p.state = r.state;
  if (r.codeChallenge) {
    p.code_challenge = r.codeChallenge;
    p.code_challenge_method = 'S256';
  }
  return p;
}
