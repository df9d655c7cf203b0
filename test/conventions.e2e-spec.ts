import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/** The organizer `demo` as the API shows it (pretix 2026: `public_url`, `plugins`). */
const DEMO = {
  name: 'demo',
  slug: 'demo',
  public_url: 'http://localhost:8000/demo/',
  plugins: ['pretix.plugins.banktransfer'],
};

describe('conventions that hold for every endpoint (spec "Conventions", compat §1)', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'demo'));
    for (let i = 0; i < 7; i++) {
      await createEvent(t, token, 'demo', { slug: `ev${i}`, date_from: `2030-01-0${i + 1}T10:00:00Z` });
    }
  });
  afterAll(() => t.close());

  describe('URLs', () => {
    it('redirects a GET without trailing slash with 301 to the slashed URL, keeping the query', async () => {
      const res = await t
        .http()
        .get('/api/v1/organizers/demo/events?page_size=2')
        .set('Authorization', auth(token));
      expect(res.status).toBe(301);
      expect(res.headers.location).toBe('/api/v1/organizers/demo/events/?page_size=2');
    });

    it('answers 404 to other methods without trailing slash', async () => {
      const res = await t
        .http()
        .post('/api/v1/organizers/demo/events')
        .set('Authorization', auth(token))
        .send({});
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
    });

    it('answers 405 with a detail for a method the resource does not support', async () => {
      const res = await t.http().delete('/api/v1/organizers/demo/').set('Authorization', auth(token));
      expect(res.status).toBe(405);
      expect(res.body).toEqual({ detail: 'Method "DELETE" not allowed.' });
      expect(res.headers.allow).toContain('GET');
    });

    it('answers 404 with a detail for unknown paths', async () => {
      const res = await t.http().get('/api/v1/nothing-here/').set('Authorization', auth(token));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
    });

    it('serves /api/v1/me without a trailing slash only', async () => {
      expect((await t.http().get('/api/v1/me').set('Authorization', auth(token))).status).toBe(200);
      expect((await t.http().get('/api/v1/me/').set('Authorization', auth(token))).status).toBe(404);
    });
  });

  describe('list envelope and pagination', () => {
    it('wraps lists in {count, next, previous, results} with absolute links keeping other parameters', async () => {
      const res = await t
        .http()
        .get('/api/v1/organizers/demo/events/?page_size=3&ordering=date_from')
        .set('Authorization', auth(token));
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(7);
      expect(res.body.results.map((e: { slug: string }) => e.slug)).toEqual(['ev0', 'ev1', 'ev2']);
      expect(res.body.previous).toBeNull();
      const next = new URL(res.body.next as string);
      expect(next.protocol).toBe('http:');
      expect(next.pathname).toBe('/api/v1/organizers/demo/events/');
      expect(next.searchParams.get('page')).toBe('2');
      expect(next.searchParams.get('page_size')).toBe('3');
      expect(next.searchParams.get('ordering')).toBe('date_from');
    });

    it('drops the page parameter on the link back to page 1 and has no next on the last page', async () => {
      const page2 = await t
        .http()
        .get('/api/v1/organizers/demo/events/?page_size=3&page=2')
        .set('Authorization', auth(token));
      expect(new URL(page2.body.previous as string).searchParams.has('page')).toBe(false);
      const page3 = await t
        .http()
        .get('/api/v1/organizers/demo/events/?page_size=3&page=3')
        .set('Authorization', auth(token));
      expect(page3.body.results).toHaveLength(1);
      expect(page3.body.next).toBeNull();
    });

    it('caps page_size at 50 and ignores invalid values', async () => {
      const res = await t
        .http()
        .get('/api/v1/organizers/demo/events/?page_size=500')
        .set('Authorization', auth(token));
      expect(res.body.results).toHaveLength(7);
      const bad = await t
        .http()
        .get('/api/v1/organizers/demo/events/?page_size=abc')
        .set('Authorization', auth(token));
      expect(bad.status).toBe(200);
    });

    it.each(['4', '0', '-1', 'abc'])('answers 404 "Invalid page." for page=%s out of range', async (page) => {
      const res = await t
        .http()
        .get(`/api/v1/organizers/demo/events/?page_size=3&page=${page}`)
        .set('Authorization', auth(token));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Invalid page.' });
    });
  });

  describe('ordering', () => {
    it('honours -field for descending and ignores unknown fields', async () => {
      const desc = await t
        .http()
        .get('/api/v1/organizers/demo/events/?ordering=-date_from')
        .set('Authorization', auth(token));
      expect(desc.body.results[0].slug).toBe('ev6');
      const unknown = await t
        .http()
        .get('/api/v1/organizers/demo/events/?ordering=nonsense')
        .set('Authorization', auth(token));
      expect(unknown.status).toBe(200);
      expect(unknown.body.results[0].slug).toBe('ev0'); // default ordering: slug
    });
  });

  describe('errors', () => {
    it('answers 400 with a detail for malformed JSON', async () => {
      const res = await t
        .http()
        .post('/api/v1/organizers/demo/events/')
        .set('Authorization', auth(token))
        .set('Content-Type', 'application/json')
        .send('{"name": ');
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/^JSON parse error - /);
    });

    it('answers 400 non_field_errors when the body is a list instead of an object', async () => {
      const res = await t
        .http()
        .post('/api/v1/organizers/demo/events/')
        .set('Authorization', auth(token))
        .send([1, 2]);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
    });

    it('answers 400 for an invalid boolean filter', async () => {
      const res = await t
        .http()
        .get('/api/v1/organizers/demo/events/?live=maybe')
        .set('Authorization', auth(token));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ live: ['Must be a valid boolean.'] });
    });
  });

  describe('authentication', () => {
    it('answers 401 without credentials, with WWW-Authenticate', async () => {
      const res = await t.http().get('/api/v1/organizers/');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect(res.headers['www-authenticate']).toBe('Token');
    });

    it('answers 401 "Invalid token." for an unknown token, with either scheme', async () => {
      for (const header of ['Token abcdef', 'Bearer abcdef']) {
        const res = await t.http().get('/api/v1/organizers/').set('Authorization', header);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ detail: 'Invalid token.' });
      }
    });

    it('accepts a team token sent as Bearer', async () => {
      const res = await t.http().get('/api/v1/organizers/').set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual([DEMO]);
    });

    it('answers 401 for an unknown scheme', async () => {
      const res = await t.http().get('/api/v1/organizers/').set('Authorization', `Basic ${token}`);
      expect(res.status).toBe(401);
    });

    it('serves the OpenAPI document without credentials', async () => {
      const res = await t.http().get('/api/v1/openapi.json');
      expect(res.status).toBe(200);
      expect(res.body.openapi).toMatch(/^3\./);
    });
  });

  describe('organizers', () => {
    it('shows only organizers the credential reaches; other organizers are 403', async () => {
      await bootstrapOrganizer(t, 'other');
      const list = await t.http().get('/api/v1/organizers/').set('Authorization', auth(token));
      expect(list.body).toEqual({
        count: 1,
        next: null,
        previous: null,
        results: [DEMO],
      });
      const other = await t.http().get('/api/v1/organizers/other/').set('Authorization', auth(token));
      expect(other.status).toBe(403);
      expect(other.body).toEqual({ detail: 'You do not have permission to perform this action.' });
      const unknown = await t.http().get('/api/v1/organizers/nope/').set('Authorization', auth(token));
      expect(unknown.status).toBe(403);
    });

    it('lets a team without permissions read its organizer', async () => {
      const weak = await teamToken(t, 'demo', {});
      const res = await t.http().get('/api/v1/organizers/demo/').set('Authorization', auth(weak));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(DEMO);
    });
  });
});
