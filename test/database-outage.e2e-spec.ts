import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createApiApp } from '../src/app.factory';
import { freePort } from './api-process';
import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';
import { RedisProxy } from './redis-proxy';

/**
 * PostgreSQL going away and coming back (README "Security", "Faults and shutdown"), through a TCP proxy this file
 * owns in front of the shared server: reads and writes answer 503 with `Retry-After` (never 500, never a hang),
 * readyz says so, and the same API process answers again once the database is back, with nothing half-written.
 */
describe('PostgreSQL outage', () => {
  let t: TestApp;
  let app: NestExpressApplication;
  let proxy: RedisProxy;
  let token: string;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'pgdown'));
    await createEvent(t, token, 'pgdown', { slug: 'conf' });
    proxy = new RedisProxy(await freePort(), { host: '127.0.0.1', port: 5432 });
    await proxy.start();
    const direct = new URL((t.db.options as { url: string }).url);
    direct.port = String(proxy.port);
    app = await createApiApp({
      databaseUrl: direct.toString(),
      queuePrefix: `pgdown-${proxy.port}`,
      logLevel: 'error',
    });
  });
  afterAll(async () => {
    await proxy?.start().catch(() => undefined);
    await app?.close();
    await proxy?.stop();
    await t?.close();
  });

  it('answers 503 with Retry-After while the database is down and recovers without a restart', async () => {
    const event = () =>
      http().get('/api/v1/organizers/pgdown/events/conf/').set('Authorization', auth(token));
    const create = (slug: string) =>
      http()
        .post('/api/v1/organizers/pgdown/events/')
        .set('Authorization', auth(token))
        .send({ name: { en: slug }, slug, date_from: '2030-01-01T10:00:00Z', currency: 'EUR' });
    expect((await event()).status).toBe(200);

    await proxy.stop();
    const t0 = Date.now();
    for (const res of [await event(), await create('during')]) {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('10');
      expect(res.body).toEqual({ detail: 'The database is unavailable. Please try again later.' });
    }
    expect(Date.now() - t0).toBeLessThan(12_000);
    const ready = await http().get('/api/v1/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ error: { database: { status: 'down' } } });

    await proxy.start();
    let back = await event();
    for (let i = 0; i < 50 && back.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      back = await event();
    }
    expect(back.status).toBe(200);
    expect((await create('after')).status).toBe(201);
    const slugs = await t.db.query<{ slug: string }[]>('SELECT slug FROM event ORDER BY slug');
    expect(slugs.map((r) => r.slug)).toEqual(['after', 'conf']);
    expect((await http().get('/api/v1/readyz')).status).toBe(200);
  });
});
