import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/** Conditional list fetching (compat §1.7): Last-Modified from the audit log, If-Modified-Since -> 304. */
describe('conditional list fetching', () => {
  let t: TestApp;
  let token: string;
  const base = '/api/v1/organizers/org/events/sample';

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org');
  });
  afterAll(() => t.close());

  const get = (path: string, headers: Record<string, string> = {}) => {
    const req = t.http().get(`${base}/${path}`).set('Authorization', auth(token));
    for (const [k, v] of Object.entries(headers)) req.set(k, v);
    return req;
  };

  it('sends no Last-Modified before anything was logged', async () => {
    const res = await get('items/');
    expect(res.status).toBe(200);
    expect(res.headers['last-modified']).toBeUndefined();
  });

  it.each([
    ['items/', 'items/', { name: 'Ticket', default_price: '10.00' }],
    ['categories/', 'categories/', { name: 'Tickets' }],
  ])('answers 304 on %s when nothing changed since, and 200 after a change', async (list, create, body) => {
    const created = await t.http().post(`${base}/${create}`).set('Authorization', auth(token)).send(body);
    expect(created.status).toBe(201);
    const first = await get(list);
    expect(first.status).toBe(200);
    const lastModified = first.headers['last-modified'];
    expect(new Date(lastModified).toUTCString()).toBe(lastModified);
    expect(Math.abs(Date.parse(lastModified) - Date.now())).toBeLessThan(5000);

    const notModified = await get(list, { 'If-Modified-Since': lastModified });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers['last-modified']).toBe(lastModified);

    const older = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expect((await get(list, { 'If-Modified-Since': older })).status).toBe(200);
    expect((await get(list, { 'If-Unmodified-Since': older })).status).toBe(412);
    expect((await get(list, { 'If-Modified-Since': 'not a date' })).status).toBe(200);

    // A change logged after the client's copy makes the list fresh again.
    const stale = new Date(Date.parse(lastModified) - 2000).toUTCString();
    await new Promise((r) => setTimeout(r, 1100));
    const changed = await t
      .http()
      .patch(`${base}/${create}${created.body.id}/`)
      .set('Authorization', auth(token))
      .send({ position: 7 });
    expect(changed.status).toBe(200);
    const fresh = await get(list, { 'If-Modified-Since': lastModified });
    expect(fresh.status).toBe(200);
    expect(Date.parse(fresh.headers['last-modified'])).toBeGreaterThan(Date.parse(stale));
  });
});
