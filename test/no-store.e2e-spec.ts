import type { Response } from 'supertest';
import { AppConfig } from '../src/config/app-config';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { agentOf, consent, login, redirectParams, userWithApp } from './oauth-helpers';
import { deleteQueueKeys, eventually, startWorker, stopAllWorkers, workerEnvFor } from './worker-harness';

/**
 * README "Security", "Secrets in answers": every answer that carries a secret is sent with
 * `Cache-Control: no-store` (and `Pragma: no-cache`): new team tokens, webhook secrets (create, rotate), orders
 * and positions with their secrets, gift cards (also expanded in reusable media), invoice PDFs, shredder ZIP
 * downloads and the OAuth token endpoint. Answers without secrets keep no such header (the marking is per route,
 * `@NoStore()`).
 */
describe('Cache-Control: no-store on answers with secrets', () => {
  let t: TestApp;
  let token: string;
  let teamId: number;
  let orderCode: string;
  let positionId: number;
  let listId: number;
  let invoiceNumber: string;
  const O = '/api/v1/organizers/org';
  const E = `${O}/events/past`;

  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  const post = (path: string, body: object = {}) =>
    t.http().post(path).set('Authorization', auth(token)).send(body);
  const getFile = (path: string) =>
    get(path)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
  /** Status and the two cache headers of an answer. */
  const caching = (res: Response) => ({
    status: res.status,
    cacheControl: res.headers['cache-control'] as string | undefined,
    pragma: res.headers.pragma as string | undefined,
  });
  const noStore = (status: number) => ({ status, cacheControl: 'no-store', pragma: 'no-cache' });

  beforeAll(async () => {
    t = await startTestApp();
    ({ token, teamId } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'past', date_from: '2020-01-01T10:00:00Z' });
    const item = await post(`${E}/items/`, { name: 'Ticket', default_price: '10.00' });
    await post(`${E}/quotas/`, { name: 'Q', size: 100, items: [item.body.id] });
    listId = (await post(`${E}/checkinlists/`, { name: 'L', all_products: true })).body.id as number;
    const order = await post(`${E}/orders/`, {
      email: 'ann@example.org',
      status: 'p',
      invoice_address: {
        name_parts: { full_name: 'Ann Buyer' },
        street: 'Main 1',
        city: 'Berlin',
        country: 'DE',
      },
      positions: [{ item: item.body.id, attendee_name: 'Ann' }],
    });
    expect(caching(order)).toEqual(noStore(201));
    expect(order.body.secret).toEqual(expect.any(String));
    orderCode = order.body.code as string;
    positionId = order.body.positions[0].id as number;
    const invoice = await post(`${E}/orders/${orderCode}/create_invoice/`);
    expect(invoice.status).toBe(201);
    invoiceNumber = invoice.body.number as string;
  });
  afterAll(async () => {
    await stopAllWorkers();
    await t.close();
    await deleteQueueKeys(t.app.get(AppConfig).queuePrefix);
  });

  it('a new team API token (the only answer with the token)', async () => {
    const res = await post(`${O}/teams/${teamId}/tokens/`, { name: 'ci' });
    expect(res.body.token).toEqual(expect.any(String));
    expect(caching(res)).toEqual(noStore(201));
  });

  it('webhook secrets on create and rotate_secret', async () => {
    const created = await post(`${O}/webhooks/`, {
      target_url: 'https://hooks.example.org/in',
      action_types: ['pretix.event.order.placed'],
    });
    expect(created.body.secret).toMatch(/^whsec_/);
    expect(caching(created)).toEqual(noStore(201));
    const rotated = await post(`${O}/webhooks/${created.body.id}/rotate_secret/`);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(caching(rotated)).toEqual(noStore(200));
  });

  it('orders: list, detail, organizer list, actions; order positions; check-in positions', async () => {
    for (const path of [
      `${E}/orders/`,
      `${E}/orders/${orderCode}/`,
      `${O}/orders/`,
      `${E}/orderpositions/`,
      `${E}/orderpositions/${positionId}/`,
      `${E}/checkinlists/${listId}/positions/`,
    ]) {
      const res = await get(path);
      expect(JSON.stringify(res.body)).toContain('"secret"');
      expect({ path, ...caching(res) }).toEqual({ path, ...noStore(200) });
    }
    const regenerated = await post(`${E}/orders/${orderCode}/regenerate_secrets/`);
    expect(caching(regenerated)).toEqual(noStore(200));
    // An error answer of such a route carries the header too.
    expect(caching(await get(`${E}/orders/NOPE1/`))).toEqual(noStore(404));
  });

  it('gift cards: create, list, detail; reusable media with the card expanded', async () => {
    const created = await post(`${O}/giftcards/`, { value: '10.00', currency: 'EUR' });
    expect(created.body.secret).toEqual(expect.any(String));
    expect(caching(created)).toEqual(noStore(201));
    expect(caching(await get(`${O}/giftcards/`))).toEqual(noStore(200));
    expect(caching(await get(`${O}/giftcards/${created.body.id}/`))).toEqual(noStore(200));
    // A reusable medium with its linked gift card expanded carries the card's secret.
    const medium = await post(`${O}/reusablemedia/`, {
      type: 'barcode',
      identifier: 'MEDIUM-NOSTORE-1',
      linked_giftcard: created.body.id,
    });
    expect(caching(medium)).toEqual(noStore(201));
    const expanded = await get(`${O}/reusablemedia/${medium.body.id}/?expand=linked_giftcard`);
    expect(expanded.body.linked_giftcard.secret).toBe(created.body.secret);
    expect(caching(expanded)).toEqual(noStore(200));
  });

  it('the OAuth token endpoint (success and error answers)', async () => {
    const app = await userWithApp(t, 'nostore@example.com');
    await t.db.query('INSERT INTO team_member (team_id, user_id) VALUES ($1, $2)', [teamId, app.userId]);
    const agent = agentOf(t);
    expect((await login(agent, 'nostore@example.com', 'password123')).status).toBe(303);
    const consented = await consent(
      agent,
      { response_type: 'code', client_id: app.clientId, redirect_uri: 'http://127.0.0.1:9/cb', state: 's' },
      ['org'],
    );
    const code = redirectParams(consented.headers.location).get('code')!;
    const basic = `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`;
    const exchange = (form: Record<string, string>) =>
      t.http().post('/api/v1/oauth/token').set('Authorization', basic).type('form').send(form);
    const ok = await exchange({
      grant_type: 'authorization_code',
      code,
      redirect_uri: 'http://127.0.0.1:9/cb',
    });
    expect(ok.body.access_token).toEqual(expect.any(String));
    expect(caching(ok)).toEqual(noStore(200));
    const bad = await exchange({
      grant_type: 'authorization_code',
      code,
      redirect_uri: 'http://127.0.0.1:9/cb',
    });
    expect([bad.status, bad.headers['cache-control']]).toEqual([400, 'no-store']);
  });

  it('invoice PDFs and shredder ZIP downloads (rendered by a real worker)', async () => {
    const pending = await getFile(`${E}/invoices/${invoiceNumber}/download/`);
    expect(caching(pending)).toEqual(noStore(409));
    const exported = await post(`${E}/shredders/export/`, { shredders: ['order_emails', 'invoices'] });
    expect(exported.status).toBe(202);
    await startWorker({ ...workerEnvFor(t), JOB_LOCK_MS: '2000', SCHEDULER_INTERVAL_MS: '1000' });
    const pdf = await eventually(async () => {
      const res = await getFile(`${E}/invoices/${invoiceNumber}/download/`);
      return res.status === 200 && res;
    }, 30_000);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(caching(pdf)).toEqual(noStore(200));
    const zip = await eventually(async () => {
      const res = await getFile(new URL(exported.body.download as string).pathname);
      return res.status === 200 && res;
    }, 30_000);
    expect(zip.headers['content-type']).toMatch(/zip/);
    expect(caching(zip)).toEqual(noStore(200));
  }, 120_000); // the worker may build dist/ first

  it('answers without secrets keep no no-store (the marking is per route)', async () => {
    for (const path of [`${O}/events/`, `${E}/items/`, `${E}/invoices/`, `${O}/webhooks/`, `${O}/teams/`]) {
      const res = await get(path);
      expect({ path, status: res.status, cacheControl: res.headers['cache-control'] }).toEqual({
        path,
        status: 200,
        cacheControl: undefined,
      });
    }
  });
});
