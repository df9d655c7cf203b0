import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import type { Browser } from 'playwright-core';
import { describeWithBrowser, launchBrowser } from './browser';
import { bootstrapOrganizer } from './factories';
import { startTestApp, type TestApp } from './harness';
import { oauthClient, userWithApp } from './oauth-helpers';

/**
 * The OAuth pages in a real headless Chromium (README "OAuth 2.0 applications"): a person logs in, consents to one
 * of two organizers, and the browser lands on the client's loopback redirect URI with the code; the client
 * (`oauth4webapi`) exchanges it with PKCE, calls the API, refreshes; the person revokes the application on the
 * `authorized/` page and the token stops working. Skipped where Chromium is missing (unless `REQUIRE_BROWSER=1`,
 * as in `.ci/run`).
 */
// A browser on a loaded 2-core machine: each step may take seconds; the whole flow stays far from this limit.
jest.setTimeout(180_000);

describeWithBrowser('OAuth pages in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let receiver: Server;
  let redirectUri: string;
  const received: string[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    receiver = createServer((req, res) => {
      received.push(req.url ?? '');
      res
        .writeHead(200, { 'Content-Type': 'text/plain' })
        .end('Authorization received; you may close this page.');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => receiver?.close(resolve));
    await t?.close();
  });

  it('logs in, consents to one organizer, the client exchanges, calls, refreshes; revoking on the page ends it', async () => {
    const a = await bootstrapOrganizer(t, 'alpha');
    const b = await bootstrapOrganizer(t, 'beta');
    const app = await userWithApp(t, 'pat@example.com', [redirectUri]);
    await t.db.query('INSERT INTO team_member (team_id, user_id) VALUES ($1, $3), ($2, $3)', [
      a.teamId,
      b.teamId,
      app.userId,
    ]);
    const pkce = await oauthClient<{ verifier: string; challenge: string; state: string }>({ op: 'pkce' });
    const authorizeUrl =
      `${base}/api/v1/oauth/authorize?` +
      new URLSearchParams({
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: redirectUri,
        scope: 'read write',
        state: pkce.state,
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      }).toString();

    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(authorizeUrl);
    // Not logged in: the login form.
    expect(new URL(page.url()).pathname).toBe('/api/v1/oauth/login');
    await page.fill('input[name=email]', 'pat@example.com');
    await page.fill('input[name=password]', 'password123');
    await Promise.all([page.waitForURL(/\/api\/v1\/oauth\/authorize\?/), page.click('button[type=submit]')]);
    // The consent form names the application and offers both organizers.
    await page.waitForSelector('input[name=organizers][value=beta]');
    expect(await page.textContent('body')).toContain('app of pat@example.com');
    await page.check('input[name=organizers][value=alpha]');
    await Promise.all([
      page.waitForURL((url) => url.toString().startsWith(redirectUri)),
      page.click('button[name=allow]'),
    ]);
    const callback = page.url();
    expect(new URL(callback).searchParams.get('state')).toBe(pkce.state);
    expect(new URL(callback).searchParams.get('code')).toMatch(/^[a-z0-9]+$/);
    // The receiver got the redirect (the browser may also ask it for /favicon.ico).
    expect(received.filter((u) => u.startsWith('/callback?'))).toEqual([
      new URL(callback).pathname + new URL(callback).search,
    ]);

    const common = { base, clientId: app.clientId, clientSecret: app.clientSecret };
    const tokens = await oauthClient<Record<string, string>>({
      op: 'exchange',
      ...common,
      callback,
      redirectUri,
      verifier: pkce.verifier,
      state: pkce.state,
    });
    const api = (token: string, path: string) => t.http().get(path).set('Authorization', `Bearer ${token}`);
    expect((await api(tokens.access_token, '/api/v1/organizers/alpha/')).status).toBe(200);
    expect((await api(tokens.access_token, '/api/v1/organizers/beta/')).status).toBe(403);

    const renewed = await oauthClient<Record<string, string>>({
      op: 'refresh',
      ...common,
      refreshToken: tokens.refresh_token,
    });
    expect((await api(tokens.access_token, '/api/v1/organizers/alpha/')).status).toBe(401);
    expect((await api(renewed.access_token, '/api/v1/organizers/alpha/')).status).toBe(200);

    // The authorized/ page lists the grant; revoking it ends every token of the application.
    await page.goto(`${base}/api/v1/oauth/authorized/`);
    const row = page.locator('tr', { hasText: 'app of pat@example.com' });
    expect(await row.textContent()).toContain('alpha');
    expect(await row.textContent()).not.toContain('beta');
    await Promise.all([page.waitForURL(`${base}/api/v1/oauth/authorized/`), row.locator('button').click()]);
    expect(await page.textContent('body')).toContain('You have not authorized any application.');
    expect((await api(renewed.access_token, '/api/v1/organizers/alpha/')).status).toBe(401);
    const refused = await oauthClient<{ error: string }>({
      op: 'refresh',
      ...common,
      refreshToken: renewed.refresh_token,
    });
    expect(refused.error).toBe('invalid_grant');
    await context.close();
  });
});
