import { auth, bootstrapOrganizer, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * The event fields pretix added later (pretix EventSerializer): `public_url`, `plugins` (fixed list; pretix's
 * plugin checks), `valid_keys` (only on the event's own URL), the sales channel pair with the legacy
 * `sales_channels`, and the `sales_channel` filter of the event list.
 */
describe('event newer fields', () => {
  let t: TestApp;
  let token: string;
  const O = '/api/v1/organizers/org';
  const base = `${O}/events/`;
  const PLUGINS = [
    'pretix.plugins.banktransfer',
    'pretix.plugins.checkinlists',
    'pretix.plugins.sendmail',
    'pretix.plugins.ticketoutputpdf',
  ];
  const minimal = { name: 'Conf', currency: 'EUR', date_from: '2030-12-27T10:00:00Z' };

  const get = (path: string) => t.http().get(path).set('Authorization', auth(token));
  const post = (body: object) => t.http().post(base).set('Authorization', auth(token)).send(body);
  const patch = (slug: string, body: object) =>
    t.http().patch(`${base}${slug}/`).set('Authorization', auth(token)).send(body);

  async function storedChannels(
    slug: string,
  ): Promise<{ all_sales_channels: boolean; limit_sales_channels: string[] }> {
    const rows: { all_sales_channels: boolean; limit_sales_channels: string[] }[] = await t.db.query(
      'SELECT all_sales_channels, limit_sales_channels FROM event WHERE slug = $1',
      [slug],
    );
    return rows[0];
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await t
      .http()
      .post(`${O}/saleschannels/`)
      .set('Authorization', auth(token))
      .send({ identifier: 'api.pos', label: 'POS' });
  });
  afterAll(() => t.close());

  it('shows public_url and plugins everywhere, valid_keys only on the event URL', async () => {
    const created = await post({ ...minimal, slug: 'one' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      public_url: 'http://localhost:8000/org/one/',
      plugins: PLUGINS,
      all_sales_channels: true,
      limit_sales_channels: [],
      sales_channels: ['api', 'api.pos', 'web'],
    });
    expect(created.body).not.toHaveProperty('valid_keys');
    const detail = await get(`${base}one/`);
    expect(detail.body.valid_keys).toEqual({ pretix_sig1: [] });
    const listed = await get(base);
    expect(listed.body.results[0]).not.toHaveProperty('valid_keys');
    expect(listed.body.results[0].public_url).toBe('http://localhost:8000/org/one/');
    expect((await patch('one', {})).body.valid_keys).toEqual({ pretix_sig1: [] });
  });

  it("accepts the event plugins, refuses unknown and organizer-only ones with pretix's messages", async () => {
    let res = await patch('one', { plugins: ['pretix.plugins.ticketoutputpdf'] });
    expect([res.status, res.body.plugins]).toEqual([200, PLUGINS]);
    res = await patch('one', { plugins: ['pretix.plugins.stripe'] });
    expect([res.status, res.body]).toEqual([400, { plugins: ["Unknown plugin: 'pretix.plugins.stripe'."] }]);
    res = await post({ ...minimal, slug: 'bad', plugins: ['nope'] });
    expect([res.status, res.body]).toEqual([400, { plugins: ["Unknown plugin: 'nope'."] }]);
    expect((await get(`${base}bad/`)).status).toBe(403);
  });

  it('creates and changes the channel limits, legacy list included, against the organizer channels', async () => {
    let res = await post({
      ...minimal,
      slug: 'limited',
      all_sales_channels: false,
      limit_sales_channels: ['web'],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      all_sales_channels: false,
      limit_sales_channels: ['web'],
      sales_channels: ['web'],
    });
    expect(await storedChannels('limited')).toEqual({
      all_sales_channels: false,
      limit_sales_channels: ['web'],
    });

    res = await patch('limited', { sales_channels: ['web', 'api.pos'] });
    expect(res.body).toMatchObject({ all_sales_channels: false, limit_sales_channels: ['api.pos', 'web'] });
    res = await patch('limited', { sales_channels: ['web', 'api', 'api.pos'] });
    expect(res.body).toMatchObject({ all_sales_channels: true, limit_sales_channels: [] });
    expect(await storedChannels('limited')).toEqual({ all_sales_channels: true, limit_sales_channels: [] });

    res = await patch('limited', { all_sales_channels: false, limit_sales_channels: ['box'] });
    expect([res.status, res.body]).toEqual([
      400,
      { limit_sales_channels: ['Object with identifier=box does not exist.'] },
    ]);
    res = await patch('limited', { sales_channels: null });
    expect([res.status, res.body]).toEqual([
      400,
      { sales_channels: ["The legacy attribute 'sales_channels' cannot be set to None, it must be a list."] },
    ]);
    res = await patch('limited', { all_sales_channels: true, sales_channels: ['web'] });
    expect(res.status).toBe(400);
    expect(await storedChannels('limited')).toEqual({ all_sales_channels: true, limit_sales_channels: [] });
  });

  it('filters the list by sales_channel (events on all channels match every channel)', async () => {
    await createEvent(t, token, 'org', {
      slug: 'posonly',
      all_sales_channels: false,
      limit_sales_channels: ['api.pos'],
    });
    await createEvent(t, token, 'org', {
      slug: 'webonly',
      all_sales_channels: false,
      limit_sales_channels: ['web'],
    });
    const slugs = async (q: string) =>
      ((await get(`${base}?${q}`)).body.results as { slug: string }[]).map((e) => e.slug);
    expect(await slugs('sales_channel=api.pos')).toEqual(['limited', 'one', 'posonly']);
    expect(await slugs('sales_channel=web')).toEqual(['limited', 'one', 'webonly']);
    expect(await slugs('sales_channel=none')).toEqual(['limited', 'one']);
  });
});
