// A third-party OAuth client for the e2e tests: `oauth4webapi` (ESM only, so it runs here, in a plain Node process,
// not inside jest's module system). Usage: node test/oauth-client.mjs '<json request>'; prints one JSON answer.
// Requests: {"op": "pkce"} -> {verifier, challenge, state}
//   {"op": "exchange", base, clientId, clientSecret, callback, redirectUri, verifier, state} -> token response
//   {"op": "refresh", base, clientId, clientSecret, refreshToken} -> token response
//   {"op": "revoke", base, clientId, clientSecret, token} -> {revoked: true}
// A protocol error prints {"error": ..., "status": ...} (exit code 0), anything else exits 1.
import * as oauth from 'oauth4webapi';

const req = JSON.parse(process.argv[2]);

function server(base) {
  return {
    issuer: base,
    authorization_endpoint: `${base}/api/v1/oauth/authorize`,
    token_endpoint: `${base}/api/v1/oauth/token`,
    revocation_endpoint: `${base}/api/v1/oauth/revoke_token`,
  };
}

const insecure = { [oauth.allowInsecureRequests]: true };

async function run() {
  if (req.op === 'pkce') {
    const verifier = oauth.generateRandomCodeVerifier();
    return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier), state: oauth.generateRandomState() };
  }
  const as = server(req.base);
  const client = { client_id: req.clientId };
  const auth = oauth.ClientSecretBasic(req.clientSecret);
  if (req.op === 'exchange') {
    const params = oauth.validateAuthResponse(as, client, new URL(req.callback), req.state ?? oauth.expectNoState);
    const res = await oauth.authorizationCodeGrantRequest(
      as, client, auth, params, req.redirectUri, req.verifier ?? oauth.nopkce, insecure,
    );
    return await oauth.processAuthorizationCodeResponse(as, client, res);
  }
  if (req.op === 'refresh') {
    const res = await oauth.refreshTokenGrantRequest(as, client, auth, req.refreshToken, insecure);
    return await oauth.processRefreshTokenResponse(as, client, res);
  }
  if (req.op === 'revoke') {
    const res = await oauth.revocationRequest(as, client, auth, req.token, insecure);
    await oauth.processRevocationResponse(res);
    return { revoked: true };
  }
  throw new Error(`unknown op ${req.op}`);
}

run().then(
  (out) => process.stdout.write(JSON.stringify(out)),
  (err) => {
    if (err instanceof oauth.ResponseBodyError || err instanceof oauth.AuthorizationResponseError) {
      process.stdout.write(JSON.stringify({ error: err.error, status: err.status ?? null }));
    } else {
      process.stderr.write(String(err?.stack ?? err));
      process.exit(1);
    }
  },
);
