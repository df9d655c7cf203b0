import { execFile } from 'child_process';
import { join } from 'path';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { UsersService } from '../src/auth/users.service';
import { OAuthApplicationsService } from '../src/oauth/oauth-applications.service';
import type { TestApp } from './harness';

/** The CSRF token of the (first) form of a page. */
export function csrfOf(html: string): string {
  const m = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no CSRF token in page: ${html.slice(0, 300)}`);
  return m[1];
}

/** A browser-like client of the pages: keeps cookies. */
export function agentOf(t: TestApp): TestAgent {
  return request.agent(t.app.getHttpServer());
}

/** Logs the agent in through the login form; returns the answer of the POST. */
export async function login(
  agent: TestAgent,
  email: string,
  password: string,
  next = '/api/v1/oauth/authorized/',
) {
  const page = await agent.get(`/api/v1/oauth/login?next=${encodeURIComponent(next)}`);
  if (page.status !== 200) throw new Error(`login page answered ${page.status}`);
  return agent
    .post('/api/v1/oauth/login')
    .type('form')
    .send({ email, password, next, csrf_token: csrfOf(page.text) });
}

/** A user with a registered application. */
export async function userWithApp(
  t: TestApp,
  email: string,
  redirectUris: string[] = ['http://127.0.0.1:9/cb'],
): Promise<{ userId: number; clientId: string; clientSecret: string; applicationId: number }> {
  const user = await t.app.get(UsersService).create(email, 'password123', email);
  const app = await t.app.get(OAuthApplicationsService).register(user.id, `app of ${email}`, redirectUris);
  return { userId: user.id, clientId: app.clientId, clientSecret: app.clientSecret, applicationId: app.id };
}

/** Authorization parameters as a query string. */
export const query = (params: Record<string, string | undefined>): string =>
  new URLSearchParams(
    Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString();

/**
 * Runs login (when needed) and consent for `params`, posting `organizers` and `allow` (or `deny`); returns the
 * consent POST's answer.
 */
export async function consent(
  agent: TestAgent,
  params: Record<string, string | undefined>,
  organizers: string[],
  decision: 'allow' | 'deny' = 'allow',
) {
  const page = await agent.get(`/api/v1/oauth/authorize?${query(params)}`);
  if (page.status !== 200)
    throw new Error(`consent page answered ${page.status} ${page.headers.location ?? ''}`);
  const hiddenInputs = Object.fromEntries(
    [...page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      m[2]
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>'),
    ]),
  );
  const form = new URLSearchParams(hiddenInputs);
  for (const o of organizers) form.append('organizers', o);
  form.append(decision, '1');
  return agent.post('/api/v1/oauth/authorize').type('form').send(form.toString());
}

/** The `code` (or error) of a redirect to the client. */
export function redirectParams(location: string | undefined): URLSearchParams {
  if (!location) throw new Error('no Location header');
  return new URL(location).searchParams;
}

const CLIENT = join(__dirname, 'oauth-client.mjs');

/**
 * Runs one request of the third-party client `oauth4webapi` (test/oauth-client.mjs, a plain Node process:
 * the library is ESM only and jest runs CommonJS).
 */
export function oauthClient<T = Record<string, unknown>>(req: Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile('node', [CLIENT, JSON.stringify(req)], { timeout: 30_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`oauth-client failed: ${stderr || err.message}`));
      resolve(JSON.parse(stdout) as T);
    });
  });
}
