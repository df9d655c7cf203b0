import { auth, bootstrapOrganizer, createEvent, createSeries, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

const DENIED = { detail: 'You do not have permission to perform this action.' };
const NOT_AUTHENTICATED = { detail: 'Authentication credentials were not provided.' };

/** The plugins every event shows (README "Organizers and events"). */
const PLUGINS = [
  'pretix.plugins.banktransfer',
  'pretix.plugins.checkinlists',
  'pretix.plugins.sendmail',
  'pretix.plugins.ticketoutputpdf',
];

/**
 * The wire form of an event created with only the required fields (compat §4.2 defaults); `detail`: as on the
 * event's own URL (with `valid_keys`).
 */
function withDefaults(fields: Record<string, unknown>, detail = false): Record<string, unknown> {
  return {
    live: false,
    testmode: false,
    date_to: null,
    date_admission: null,
    is_public: true,
    presale_start: null,
    presale_end: null,
    location: null,
    geo_lat: null,
    geo_lon: null,
    has_subevents: false,
    meta_data: {},
    timezone: 'UTC',
    seating_plan: null,
    seat_category_mapping: {},
    item_meta_properties: {},
    plugins: PLUGINS,
    ...(detail ? { valid_keys: { pretix_sig1: [] } } : {}),
    all_sales_channels: true,
    limit_sales_channels: [],
    sales_channels: ['api', 'web'],
    public_url: `http://localhost:8000/org/${String(fields.slug)}/`,
    ...fields,
  };
}

describe('events (compat §4.2)', () => {
  let t: TestApp;
  let token: string;

  const base = '/api/v1/organizers/org/events/';
  const minimal = {
    name: { en: 'Sample Conference' },
    slug: 'sample',
    currency: 'EUR',
    date_from: '2030-12-27T10:00:00Z',
  };

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (body: unknown, tok = token) =>
    t
      .http()
      .post(base)
      .set('Authorization', auth(tok))
      .send(body as object);
  const patch = (slug: string, body: unknown, tok = token) =>
    t
      .http()
      .patch(`${base}${slug}/`)
      .set('Authorization', auth(tok))
      .send(body as object);
  const put = (slug: string, body: unknown, tok = token) =>
    t
      .http()
      .put(`${base}${slug}/`)
      .set('Authorization', auth(tok))
      .send(body as object);
  const del = (slug: string, tok = token) =>
    t.http().delete(`${base}${slug}/`).set('Authorization', auth(tok));
  const slugs = (body: { results: { slug: string }[] }) => body.results.map((e) => e.slug);

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    // meta_data keys must be properties of the organizer.
    const property = await t
      .http()
      .post('/api/v1/organizers/org/event_meta_properties/')
      .set('Authorization', auth(token))
      .send({ name: 'Type' });
    expect(property.status).toBe(201);
  });
  afterAll(() => t.close());

  describe('list', () => {
    let listToken: string;
    const list = (query = '', tok = listToken) => get(`/api/v1/organizers/listorg/events/${query}`, tok);

    beforeAll(async () => {
      ({ token: listToken } = await bootstrapOrganizer(t, 'listorg'));
      // Future event, public, not in test mode.
      await createEvent(t, listToken, 'listorg', { slug: 'alpha', date_from: '2030-01-10T10:00:00Z' });
      // Past event with an end, not public.
      await createEvent(t, listToken, 'listorg', {
        slug: 'beta',
        date_from: '2019-05-01T10:00:00Z',
        date_to: '2019-05-02T18:00:00Z',
        is_public: false,
      });
      // Future event series in test mode.
      await createSeries(t, listToken, 'listorg', {
        slug: 'gamma',
        date_from: '2031-03-01T10:00:00Z',
        testmode: true,
      });
      // Past event without an end, live.
      await createEvent(t, listToken, 'listorg', { slug: 'delta', date_from: '2018-01-01T10:00:00Z' });
      // Going live needs quotas and payment (compat §4.2 clean_live), which do not exist yet: set it directly.
      await t.db.query(
        "UPDATE event SET live = true WHERE slug = 'delta' AND organizer_id = (SELECT id FROM organizer WHERE slug = 'listorg')",
      );
      // Running now: started in the past, ends in the future.
      await createEvent(t, listToken, 'listorg', {
        slug: 'epsilon',
        date_from: '2020-01-01T10:00:00Z',
        date_to: '2099-01-01T10:00:00Z',
      });
    });

    it('lists all events of the organizer in the envelope, ordered by slug by default', async () => {
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(5);
      expect(res.body.next).toBeNull();
      expect(res.body.previous).toBeNull();
      expect(slugs(res.body)).toEqual(['alpha', 'beta', 'delta', 'epsilon', 'gamma']);
      expect(res.body.results[0]).toEqual(
        withDefaults({
          name: { en: 'Sample Conference' },
          slug: 'alpha',
          currency: 'EUR',
          date_from: '2030-01-10T10:00:00Z',
          public_url: 'http://localhost:8000/listorg/alpha/',
        }),
      );
    });

    it.each([
      ['live=true', ['delta']],
      ['live=false', ['alpha', 'beta', 'epsilon', 'gamma']],
      ['has_subevents=true', ['gamma']],
      ['has_subevents=false', ['alpha', 'beta', 'delta', 'epsilon']],
      ['is_public=false', ['beta']],
      ['is_public=true', ['alpha', 'delta', 'epsilon', 'gamma']],
      ['testmode=true', ['gamma']],
      ['testmode=false', ['alpha', 'beta', 'delta', 'epsilon']],
      ['is_future=true', ['alpha', 'epsilon', 'gamma']],
      ['is_future=false', ['beta', 'delta']],
      ['is_past=true', ['beta', 'delta']],
      ['is_past=false', ['alpha', 'epsilon', 'gamma']],
      ['ends_after=2025-01-01T00:00:00Z', ['alpha', 'epsilon', 'gamma']],
      // beta ends 2019-05-02 (after), delta has no end and starts 2018 (before).
      ['ends_after=2019-05-01T12:00:00Z', ['alpha', 'beta', 'epsilon', 'gamma']],
      ['ends_after=2040-01-01T00:00:00Z', ['epsilon']],
      ['is_public=true&testmode=false&is_future=true', ['alpha', 'epsilon']],
    ])('filters ?%s', async (query, expected) => {
      const res = await list(`?${query}`);
      expect(res.status).toBe(200);
      expect(slugs(res.body)).toEqual(expected);
      expect(res.body.count).toBe(expected.length);
    });

    it.each([
      ['is_future=soon', { is_future: ['Must be a valid boolean.'] }],
      ['has_subevents=yes', { has_subevents: ['Must be a valid boolean.'] }],
      ['ends_after=yesterday', { ends_after: ['Enter a valid date/time.'] }],
    ])('answers 400 for an invalid filter value ?%s', async (query, body) => {
      const res = await list(`?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(body);
    });

    it.each([
      ['date_from', ['delta', 'beta', 'epsilon', 'alpha', 'gamma']],
      ['-date_from', ['gamma', 'alpha', 'epsilon', 'beta', 'delta']],
      ['slug', ['alpha', 'beta', 'delta', 'epsilon', 'gamma']],
      ['-slug', ['gamma', 'epsilon', 'delta', 'beta', 'alpha']],
      ['name', ['alpha', 'beta', 'delta', 'epsilon', 'gamma']], // not an ordering field: default
    ])('orders by ?ordering=%s', async (ordering, expected) => {
      const res = await list(`?ordering=${ordering}`);
      expect(res.status).toBe(200);
      expect(slugs(res.body)).toEqual(expected);
    });

    it('shows a team limited to some events only those events', async () => {
      const limited = await teamToken(t, 'listorg', { limitEvents: ['alpha', 'gamma'] });
      const res = await list('', limited);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(2);
      expect(slugs(res.body)).toEqual(['alpha', 'gamma']);
      const filtered = await list('?testmode=true', limited);
      expect(slugs(filtered.body)).toEqual(['gamma']);
    });

    it('shows a team without events an empty list, and one with all events every event', async () => {
      const none = await teamToken(t, 'listorg', { eventPermissions: ['event.orders:read'] });
      const res = await list('', none);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ count: 0, next: null, previous: null, results: [] });
      const all = await teamToken(t, 'listorg', { allEvents: true });
      expect(slugs((await list('', all)).body)).toEqual(['alpha', 'beta', 'delta', 'epsilon', 'gamma']);
    });

    it('answers 403 for the events of another organizer and for an unknown organizer', async () => {
      for (const path of ['/api/v1/organizers/org/events/', '/api/v1/organizers/nope/events/']) {
        const res = await get(path, listToken);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
    });
  });

  describe('get', () => {
    beforeAll(async () => {
      await createEvent(t, token, 'org', {
        slug: 'full',
        name: { en: 'Full', de: 'Voll' },
        currency: 'USD',
        testmode: true,
        date_from: '2031-06-01T08:00:00+02:00',
        date_to: '2031-06-02T20:00:00Z',
        date_admission: '2031-06-01T05:30:00Z',
        is_public: false,
        presale_start: '2031-01-01T00:00:00Z',
        presale_end: '2031-05-31T23:59:59Z',
        location: 'Berlin',
        geo_lat: 52.52,
        geo_lon: 13.405,
        has_subevents: false,
        meta_data: { Type: 'Conference' },
        timezone: 'Europe/Berlin',
      });
    });

    it('returns every field, datetimes in UTC, a plain-string i18n value as an object', async () => {
      const res = await get(`${base}full/`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        name: { en: 'Full', de: 'Voll' },
        slug: 'full',
        live: false,
        testmode: true,
        currency: 'USD',
        date_from: '2031-06-01T06:00:00Z',
        date_to: '2031-06-02T20:00:00Z',
        date_admission: '2031-06-01T05:30:00Z',
        is_public: false,
        presale_start: '2031-01-01T00:00:00Z',
        presale_end: '2031-05-31T23:59:59Z',
        location: { en: 'Berlin' },
        geo_lat: 52.52,
        geo_lon: 13.405,
        has_subevents: false,
        meta_data: { Type: 'Conference' },
        timezone: 'Europe/Berlin',
        seating_plan: null,
        seat_category_mapping: {},
        item_meta_properties: {},
        plugins: PLUGINS,
        valid_keys: { pretix_sig1: [] },
        all_sales_channels: true,
        limit_sales_channels: [],
        sales_channels: ['api', 'web'],
        public_url: 'http://localhost:8000/org/full/',
      });
    });

    it('answers 403 (not 404) for an unknown event', async () => {
      const res = await get(`${base}nope/`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(DENIED);
    });

    it('lets a team that reaches the event read it with no permission at all', async () => {
      const reader = await teamToken(t, 'org', { limitEvents: ['full'] });
      const res = await get(`${base}full/`, reader);
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('full');
    });

    it('answers 403 to a team limited to other events', async () => {
      await createEvent(t, token, 'org', { slug: 'elsewhere' });
      const other = await teamToken(t, 'org', { limitEvents: ['elsewhere'], allEventPermissions: true });
      const res = await get(`${base}full/`, other);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(DENIED);
    });
  });

  describe('create', () => {
    it('answers 201 with the full object, defaults filled in, and stores it', async () => {
      const res = await post(minimal);
      expect(res.status).toBe(201);
      const expected = withDefaults(minimal);
      expect(res.body).toEqual(expected);
      const again = await get(`${base}sample/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(withDefaults(minimal, true));
    });

    it('accepts a plain string as name and ignores unknown and read-only fields', async () => {
      const res = await post({ ...minimal, slug: 'plain', name: 'Plain', unknown_field: 1, id: 99 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual(withDefaults({ ...minimal, slug: 'plain', name: { en: 'Plain' } }));
    });

    it('refuses a duplicate slug, case-insensitively', async () => {
      await createEvent(t, token, 'org', { slug: 'dup' });
      for (const slug of ['dup', 'DUP', 'Dup']) {
        const res = await post({ ...minimal, slug });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ slug: ['This slug has already been used for a different event.'] });
      }
    });

    it('allows the same slug in another organizer', async () => {
      const { token: otherToken } = await bootstrapOrganizer(t, 'otherorg');
      const res = await t
        .http()
        .post('/api/v1/organizers/otherorg/events/')
        .set('Authorization', auth(otherToken))
        .send({ ...minimal, slug: 'sample' });
      expect(res.status).toBe(201);
    });

    it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
      [
        'an end before the start',
        { date_from: '2030-12-27T10:00:00Z', date_to: '2030-12-27T09:59:59Z' },
        { non_field_errors: ['The event cannot end before it starts.'] },
      ],
      [
        'a presale end before its start',
        { presale_start: '2030-06-01T00:00:00Z', presale_end: '2030-05-01T00:00:00Z' },
        { non_field_errors: ["The event's presale cannot end before it starts."] },
      ],
      [
        'live: true',
        { live: true },
        {
          live: [
            "Events cannot be created as 'live'. Quotas and payment must be added to the event before sales can go live.",
          ],
        },
      ],
      ['an invalid currency', { currency: 'euro' }, { currency: ['"euro" is not a valid choice.'] }],
      ['an unknown currency', { currency: 'ABC' }, { currency: ['"ABC" is not a valid choice.'] }],
      ['an empty currency', { currency: '' }, { currency: ['"" is not a valid choice.'] }],
      [
        'an unknown timezone',
        { timezone: 'Mars/Base' },
        { timezone: ['"Mars/Base" is not a valid choice.'] },
      ],
      [
        'a slug with spaces',
        { slug: 'my event' },
        { slug: ['The slug may only contain letters, numbers, dots and dashes.'] },
      ],
      [
        'a slug with a slash',
        { slug: 'a/b' },
        { slug: ['The slug may only contain letters, numbers, dots and dashes.'] },
      ],
      [
        'a too long slug',
        { slug: 'x'.repeat(51) },
        { slug: ['Ensure this field has no more than 50 characters.'] },
      ],
      [
        'a malformed datetime',
        { date_from: '27.12.2030 10:00' },
        {
          date_from: [
            'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
          ],
        },
      ],
      [
        'an impossible date',
        { date_to: '2030-02-30T10:00:00Z' },
        {
          date_to: [
            'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
          ],
        },
      ],
      [
        'hour 24',
        { date_from: '2030-01-01T24:00:00Z' },
        {
          date_from: [
            'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
          ],
        },
      ],
      ['a non-boolean', { is_public: 'yes' }, { is_public: ['Must be a valid boolean.'] }],
      ['null for a required field', { name: null }, { name: ['This field may not be null.'] }],
      [
        'null for a non-nullable optional field',
        { testmode: null },
        { testmode: ['This field may not be null.'] },
      ],
      [
        'a latitude out of range',
        { geo_lat: 91 },
        { geo_lat: ['Ensure this value is less than or equal to 90.'] },
      ],
      [
        'seat category mappings',
        { seat_category_mapping: { Stalls: 1 } },
        { non_field_errors: ['You cannot specify seat category mappings on event creation.'] },
      ],
    ])('answers 400 for %s', async (_what, change, body) => {
      const res = await post({ ...minimal, slug: 'invalid', ...change });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(body);
      expect((await get(`${base}invalid/`)).status).toBe(403); // nothing stored
    });

    it('answers 400 listing every missing required field', async () => {
      const res = await post({});
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        name: ['This field is required.'],
        slug: ['This field is required.'],
        currency: ['This field is required.'],
        date_from: ['This field is required.'],
      });
    });

    it('creates a series with has_subevents: true; the flag is fixed once dates exist', async () => {
      const res = await post({ ...minimal, slug: 'series1', has_subevents: true });
      expect([res.status, res.body.has_subevents]).toEqual([201, true]);
      expect((await get(`${base}series1/`)).body.has_subevents).toBe(true);
      const plain = await post({ ...minimal, slug: 'series2', has_subevents: false });
      expect([plain.status, plain.body.has_subevents]).toEqual([201, false]);
      const changed = await patch('series2', { has_subevents: true });
      expect([changed.status, changed.body.has_subevents]).toEqual([200, true]);
      const date = await t
        .http()
        .post(`${base}series2/subevents/`)
        .set('Authorization', auth(token))
        .send({ name: 'Day', date_from: '2030-01-01T10:00:00Z' });
      expect(date.status).toBe(201);
      const back = await patch('series2', { has_subevents: false });
      expect([back.status, back.body]).toEqual([
        400,
        { has_subevents: ['Once created an event cannot change between an series and a single event.'] },
      ]);
      expect((await get(`${base}series2/`)).body.has_subevents).toBe(true);
    });

    it('accepts an end equal to the start', async () => {
      const res = await post({ ...minimal, slug: 'instant', date_to: minimal.date_from });
      expect(res.status).toBe(201);
      expect(res.body.date_to).toBe('2030-12-27T10:00:00Z');
    });

    it('adds the new event to the limit_events of a limited creating team, which can then use it', async () => {
      await createEvent(t, token, 'org', { slug: 'known' });
      const creator = await teamToken(t, 'org', {
        limitEvents: ['known'],
        organizerPermissions: ['organizer.events:create'],
        eventPermissions: ['event.settings.general:write'],
      });
      const res = await post({ ...minimal, slug: 'mine' }, creator);
      expect(res.status).toBe(201);
      const read = await get(`${base}mine/`, creator);
      expect(read.status).toBe(200);
      expect(read.body.slug).toBe('mine');
      const listed = await get(base, creator);
      expect(slugs(listed.body)).toEqual(['known', 'mine']);
      const changed = await patch('mine', { is_public: false }, creator);
      expect(changed.status).toBe(200);
      // Another limited team does not gain it.
      const bystander = await teamToken(t, 'org', { limitEvents: ['known'] });
      expect((await get(`${base}mine/`, bystander)).status).toBe(403);
    });
  });

  describe('going live (compat §4.2)', () => {
    it('refuses live without a quota, allows it with one, and keeps a live event editable', async () => {
      await createEvent(t, token, 'org', { slug: 'golive' });
      const refused = await patch('golive', { live: true });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ live: ['You need to configure at least one quota to sell anything.'] });
      const stillDraft = await t.http().get(`${base}golive/`).set('Authorization', auth(token));
      expect(stillDraft.body.live).toBe(false);

      const quota = await t
        .http()
        .post(`${base}golive/quotas/`)
        .set('Authorization', auth(token))
        .send({ name: 'All', size: 10, items: [] });
      expect(quota.status).toBe(201);
      const live = await patch('golive', { live: true });
      expect(live.status).toBe(200);
      expect(live.body.live).toBe(true);

      const quotaDelete = await t
        .http()
        .delete(`${base}golive/quotas/${quota.body.id}/`)
        .set('Authorization', auth(token));
      expect(quotaDelete.status).toBe(204);
      const edited = await patch('golive', { is_public: false });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ live: true, is_public: false });
    });
  });

  describe('update', () => {
    const full = {
      name: { en: 'Upd' },
      slug: 'upd',
      currency: 'EUR',
      date_from: '2030-03-01T10:00:00Z',
      date_to: '2030-03-02T10:00:00Z',
      testmode: true,
      is_public: false,
      location: { en: 'Hall' },
      geo_lat: 1.5,
      geo_lon: -2.25,
      meta_data: { Type: 'Fair' },
      timezone: 'Europe/Berlin',
      presale_start: '2030-01-01T00:00:00Z',
    };

    beforeEach(async () => {
      await t.db.query("DELETE FROM event WHERE slug = 'upd'");
      await createEvent(t, token, 'org', full);
    });

    it('PATCH changes only the fields sent', async () => {
      const before = (await get(`${base}upd/`)).body as Record<string, unknown>;
      const res = await patch('upd', { is_public: true, location: null, currency: 'USD' });
      expect(res.status).toBe(200);
      const expected = { ...before, is_public: true, location: null, currency: 'USD' };
      expect(res.body).toEqual(expected);
      expect((await get(`${base}upd/`)).body).toEqual(expected);
    });

    it('PATCH {} answers 200 with the unchanged object', async () => {
      const before = (await get(`${base}upd/`)).body as Record<string, unknown>;
      const res = await patch('upd', {});
      expect(res.status).toBe(200);
      expect(res.body).toEqual(before);
    });

    it('PATCH checks cross-field rules against the merged data', async () => {
      const res = await patch('upd', { date_to: '2030-02-01T00:00:00Z' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: ['The event cannot end before it starts.'] });
      const presale = await patch('upd', { presale_end: '2029-12-31T00:00:00Z' });
      expect(presale.status).toBe(400);
      expect(presale.body).toEqual({
        non_field_errors: ["The event's presale cannot end before it starts."],
      });
      expect((await get(`${base}upd/`)).body.date_to).toBe('2030-03-02T10:00:00Z');
    });

    it('PATCH validates the fields sent', async () => {
      const res = await patch('upd', { name: null, currency: 'x', timezone: 'Nowhere' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        name: ['This field may not be null.'],
        currency: ['"x" is not a valid choice.'],
        timezone: ['"Nowhere" is not a valid choice.'],
      });
    });

    it('PUT with an empty body answers 400 listing the required fields', async () => {
      const res = await put('upd', {});
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        name: ['This field is required.'],
        slug: ['This field is required.'],
        currency: ['This field is required.'],
        date_from: ['This field is required.'],
      });
    });

    it('PUT resets omitted optional fields to their defaults', async () => {
      const body = { name: 'Replaced', slug: 'upd', currency: 'GBP', date_from: '2030-04-01T10:00:00Z' };
      const res = await put('upd', body);
      expect(res.status).toBe(200);
      const expected = withDefaults({ ...body, name: { en: 'Replaced' } }, true);
      expect(res.body).toEqual(expected);
      expect((await get(`${base}upd/`)).body).toEqual(expected);
    });

    it('refuses to change the slug with PATCH and PUT', async () => {
      const res = await patch('upd', { slug: 'renamed' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ slug: ['The event slug cannot be changed.'] });
      const replaced = await put('upd', { ...minimal, slug: 'renamed' });
      expect(replaced.status).toBe(400);
      expect(replaced.body).toEqual({ slug: ['The event slug cannot be changed.'] });
      expect((await get(`${base}upd/`)).status).toBe(200);
      expect((await get(`${base}renamed/`)).status).toBe(403);
    });

    it('PATCH with the same slug is fine', async () => {
      const res = await patch('upd', { slug: 'upd', name: { en: 'Same' } });
      expect(res.status).toBe(200);
      expect(res.body.name).toEqual({ en: 'Same' });
    });
  });

  describe('delete', () => {
    it('answers 204 with no body; the event is then 403 and gone from the list', async () => {
      await createEvent(t, token, 'org', { slug: 'doomed' });
      const res = await del('doomed');
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const after = await get(`${base}doomed/`);
      expect(after.status).toBe(403);
      expect(after.body).toEqual(DENIED);
      expect(slugs((await get(`${base}?page_size=50`)).body)).not.toContain('doomed');
      expect((await del('doomed')).status).toBe(403);
    });

    it('frees the slug for a new event', async () => {
      await createEvent(t, token, 'org', { slug: 'reborn' });
      expect((await del('reborn')).status).toBe(204);
      const res = await post({ ...minimal, slug: 'reborn' });
      expect(res.status).toBe(201);
    });

    it('removes the event from the limit_events of teams', async () => {
      await createEvent(t, token, 'org', { slug: 'limited-gone' });
      await teamToken(t, 'org', { limitEvents: ['limited-gone'] });
      const rows: { n: string }[] = await t.db.query(
        "SELECT count(*) AS n FROM team_limit_event tle JOIN event e ON e.id = tle.event_id WHERE e.slug = 'limited-gone'",
      );
      expect(rows[0].n).toBe('1');
      const { id } = (await t.db.query("SELECT id FROM event WHERE slug = 'limited-gone'"))[0] as {
        id: number;
      };
      expect((await del('limited-gone')).status).toBe(204);
      const left: { n: string }[] = await t.db.query(
        'SELECT count(*) AS n FROM team_limit_event WHERE event_id = $1',
        [id],
      );
      expect(left[0].n).toBe('0');
    });
  });

  describe('permissions', () => {
    let viewer: string;
    let settings: string;
    let creator: string;

    beforeAll(async () => {
      await createEvent(t, token, 'org', { slug: 'guarded' });
      viewer = await teamToken(t, 'org', {
        allEvents: true,
        eventPermissions: ['event.items:write', 'event.orders:write', 'event.settings.tax:write'],
        organizerPermissions: ['organizer.settings.general:write', 'organizer.teams:write'],
      });
      settings = await teamToken(t, 'org', {
        allEvents: true,
        eventPermissions: ['event.settings.general:write'],
      });
      creator = await teamToken(t, 'org', { organizerPermissions: ['organizer.events:create'] });
    });

    it('POST needs organizer.events:create', async () => {
      for (const tok of [viewer, settings]) {
        const res = await post({ ...minimal, slug: 'nope' }, tok);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      // The permission is checked before the body.
      expect((await post({}, viewer)).status).toBe(403);
      expect((await post({}, creator)).status).toBe(400);
    });

    it('PATCH, PUT and DELETE need event.settings.general:write', async () => {
      for (const tok of [viewer, creator]) {
        for (const res of [
          await patch('guarded', { is_public: false }, tok),
          await put('guarded', { ...minimal, slug: 'guarded' }, tok),
          await del('guarded', tok),
        ]) {
          expect(res.status).toBe(403);
          expect(res.body).toEqual(DENIED);
        }
      }
      expect((await get(`${base}guarded/`)).body.is_public).toBe(true);
      expect((await patch('guarded', { is_public: false }, settings)).status).toBe(200);
      expect((await put('guarded', { ...minimal, slug: 'guarded' }, settings)).status).toBe(200);
      expect((await del('guarded', settings)).status).toBe(204);
    });

    it('a team token with every permission of another organizer gets 403', async () => {
      const { token: foreign } = await bootstrapOrganizer(t, 'foreign');
      await createEvent(t, token, 'org', { slug: 'mine-only' });
      for (const res of [
        await get(base, foreign),
        await get(`${base}mine-only/`, foreign),
        await post({ ...minimal, slug: 'intruder' }, foreign),
        await patch('mine-only', {}, foreign),
        await put('mine-only', { ...minimal, slug: 'mine-only' }, foreign),
        await del('mine-only', foreign),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
    });

    it('answers 401 without credentials on every events route', async () => {
      await createEvent(t, token, 'org', { slug: 'anon' });
      for (const res of [
        await t.http().get(base),
        await t.http().get(`${base}anon/`),
        await t.http().post(base).send(minimal),
        await t.http().patch(`${base}anon/`).send({}),
        await t.http().put(`${base}anon/`).send(minimal),
        await t.http().delete(`${base}anon/`),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual(NOT_AUTHENTICATED);
      }
      expect((await get(`${base}anon/`)).status).toBe(200);
    });
  });

  describe('audit log', () => {
    it('records pretix.event.added, .changed and .deleted with the token as actor', async () => {
      await createEvent(t, token, 'org', { slug: 'logged' });
      const [{ id }] = await t.db.query<{ id: number }[]>("SELECT id FROM event WHERE slug = 'logged'");
      expect((await patch('logged', { is_public: false })).status).toBe(200);
      expect((await patch('logged', {})).status).toBe(200); // nothing sent: nothing logged
      expect((await put('logged', { ...minimal, slug: 'logged' })).status).toBe(200);
      expect((await del('logged')).status).toBe(204);
      const rows: {
        action_type: string;
        content_type: string;
        api_token_id: number | null;
        data: unknown;
      }[] = await t.db.query(
        "SELECT action_type, content_type, api_token_id, data FROM log_entry WHERE content_type = 'event' AND object_id = $1 ORDER BY id",
        [id],
      );
      expect(rows.map((r) => r.action_type)).toEqual([
        'pretix.event.added',
        'pretix.event.changed',
        'pretix.event.changed',
        'pretix.event.deleted',
      ]);
      expect(rows.every((r) => r.api_token_id !== null)).toBe(true);
      expect(rows[1].data).toEqual({ is_public: false });
      expect(rows[3].data).toEqual({ slug: 'logged' });
    });

    it('writes no log entry for a refused or invalid write', async () => {
      const before: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM log_entry');
      expect((await post({ ...minimal, slug: 'sample', live: true })).status).toBe(400);
      expect((await patch('nope', { is_public: false })).status).toBe(403);
      const after: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM log_entry');
      expect(after[0].n).toBe(before[0].n);
    });
  });
});
