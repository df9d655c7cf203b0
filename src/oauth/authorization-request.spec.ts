import { checkAuthorization, requestParams } from './authorization-request';
import { safeNext } from './authorize.controller';
import { redirectUriProblem, withQuery } from './redirect-uris';

const client = {
  id: 1,
  clientId: 'cid',
  name: 'App',
  redirectUris: ['https://app.example/cb', 'http://127.0.0.1:8765/cb'],
  confidential: true,
};
const base = { response_type: 'code', client_id: 'cid', redirect_uri: 'https://app.example/cb', state: 's' };
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('checkAuthorization (RFC 6749 §4.1.2.1, RFC 7636 §4.4.1)', () => {
  it('answers a page for an unknown client or a redirect URI that is not registered exactly', () => {
    expect(checkAuthorization(base, null).kind).toBe('page');
    for (const uri of [
      'https://app.example/cb/',
      'https://app.example/cb?x=1',
      'https://APP.example/cb',
      undefined,
    ]) {
      expect(checkAuthorization({ ...base, redirect_uri: uri }, client).kind).toBe('page');
    }
  });

  it('redirects other errors with the RFC error code and the state', () => {
    const error = (extra: Record<string, string | undefined>) => {
      const r = checkAuthorization({ ...base, ...extra }, client);
      return r.kind === 'redirect' ? [r.error, r.state] : r.kind;
    };
    expect(error({ response_type: undefined })).toEqual(['invalid_request', 's']);
    const publicClient = { ...client, confidential: false };
    const noPkce = checkAuthorization(base, publicClient);
    expect(noPkce.kind === 'redirect' ? [noPkce.error, noPkce.state] : noPkce.kind).toEqual([
      'invalid_request',
      's',
    ]);
    const withPkce = { ...base, code_challenge: CHALLENGE, code_challenge_method: 'S256' };
    expect(checkAuthorization(withPkce, publicClient).kind).toBe('ok');
    expect(error({ response_type: 'token' })).toEqual(['unsupported_response_type', 's']);
    expect(error({ scope: 'read openid' })).toEqual(['invalid_scope', 's']);
    expect(error({ code_challenge: CHALLENGE, code_challenge_method: 'plain' })).toEqual([
      'invalid_request',
      's',
    ]);
    expect(error({ code_challenge: CHALLENGE })).toEqual(['invalid_request', 's']);
    expect(error({ code_challenge_method: 'S256' })).toEqual(['invalid_request', 's']);
    expect(error({ code_challenge: 'short', code_challenge_method: 'S256' })).toEqual([
      'invalid_request',
      's',
    ]);
  });

  it('defaults the scope to read write, orders scopes, and keeps an S256 challenge', () => {
    const r = checkAuthorization(base, client);
    expect(r.kind === 'ok' && r.request.scopes).toEqual(['read', 'write']);
    const p = checkAuthorization(
      { ...base, scope: 'profile read', code_challenge: CHALLENGE, code_challenge_method: 'S256' },
      client,
    );
    if (p.kind !== 'ok') throw new Error(`expected ok, got ${p.kind}`);
    expect(p.request.scopes).toEqual(['read', 'profile']);
    expect(requestParams(p.request)).toEqual({
      response_type: 'code',
      client_id: 'cid',
      redirect_uri: 'https://app.example/cb',
      scope: 'read profile',
      state: 's',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
    });
  });
});

describe('safeNext', () => {
  it('keeps paths of this service and replaces anything else by the home page', () => {
    expect(safeNext('/api/v1/oauth/authorize?a=1&b=2')).toBe('/api/v1/oauth/authorize?a=1&b=2');
    for (const bad of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/..//evil.example/x',
      '/%2F%2Fevil.example',
      '/%5Cevil.example',
      '/./\\/evil.example',
      '/\t/evil.example',
      42,
    ]) {
      expect(safeNext(bad)).toBe('/api/v1/oauth/authorized/');
    }
  });
});

describe('redirect URIs', () => {
  it('accepts https, and http only on the loopback', () => {
    expect(redirectUriProblem('https://app.example/cb')).toBeNull();
    expect(redirectUriProblem('http://127.0.0.1:9/cb')).toBeNull();
    expect(redirectUriProblem('http://localhost/cb')).toBeNull();
    expect(redirectUriProblem('http://app.example/cb')).toMatch(/https/);
    expect(redirectUriProblem('/relative')).toMatch(/fully qualified/);
    expect(redirectUriProblem('https://app.example/cb#frag')).toMatch(/fragment/);
    expect(redirectUriProblem('https://user:pw@app.example/cb')).toMatch(/user information/);
  });

  it('adds parameters to the registered query string', () => {
    expect(withQuery('https://app.example/cb?x=1', { code: 'c', state: undefined })).toBe(
      'https://app.example/cb?x=1&code=c',
    );
  });
});
