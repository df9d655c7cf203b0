import { auth, bootstrapOrganizer, createDevice, createEvent } from './factories';
import { startTestApp, TestApp } from './harness';

const MIN = 60_000;
const HOUR = 60 * MIN;

/**
 * `GET /api/v1/device/eventselection` (pretix `EventSelectionView`, tests `test_device_event_selection.py`) on
 * the real stack. The server's clock is real, so the dates are placed relative to now (the calendar-day cases and
 * the half-time switch at exact times are in src/devices/event-selection/event-selection.rules.spec.ts). Each
 * case has its own organizer so their events do not meet.
 */
describe('device event selection (pretix EventSelectionView)', () => {
  let t: TestApp;
  let orgCount = 0;

  const at = (offset: number) => new Date(Date.now() + offset).toISOString();

  interface Fixture {
    org: string;
    token: string;
    device: string;
    post: (path: string, body: object) => Promise<{ id: number }>;
    select: (query?: string, device?: string) => Promise<{ status: number; body: Record<string, unknown> }>;
    event: (slug: string, from: number, to: number | null, extra?: Record<string, unknown>) => Promise<void>;
  }

  /** A new organizer with a device (`deviceBody` for `O/devices/`) and helpers. */
  async function fixture(deviceBody: Record<string, unknown> = {}, events: string[] = []): Promise<Fixture> {
    const org = `sel${++orgCount}`;
    const { token } = await bootstrapOrganizer(t, org);
    const post = async (path: string, body: object) => {
      const res = await t
        .http()
        .post(`/api/v1/organizers/${org}${path}`)
        .set('Authorization', auth(token))
        .send(body);
      if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { id: number };
    };
    const event = async (
      slug: string,
      from: number,
      to: number | null,
      extra: Record<string, unknown> = {},
    ) => {
      await createEvent(t, token, org, {
        slug,
        name: { en: `Event ${slug}` },
        date_from: at(from),
        date_to: to === null ? null : at(to),
        ...extra,
      });
      await t.db.query(
        `UPDATE event SET live = true WHERE slug = $1 AND organizer_id = (SELECT id FROM organizer WHERE slug = $2)`,
        [slug, org],
      );
    };
    for (const slug of events) await event(slug, 0, HOUR);
    const f: Fixture = {
      org,
      token,
      device: '',
      post,
      event,
      select: async (query = '', device = f.device) => {
        const res = await t
          .http()
          .get(`/api/v1/device/eventselection${query ? `?${query}` : ''}`)
          .set('Authorization', `Device ${device}`);
        return { status: res.status, body: res.body as Record<string, unknown> };
      },
    };
    // Events named up front exist before the device is created (limit_events names them).
    f.device = (await createDevice(t, token, org, deviceBody)).apiToken;
    return f;
  }

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 when the device reaches no live event (pretix test_no_events)', async () => {
    const f = await fixture();
    expect(await f.select('current_event=e1')).toEqual({ status: 404, body: { detail: 'Not found.' } });
    // An event that is not live does not count.
    await createEvent(t, f.token, f.org, { slug: 'draft', date_from: at(-MIN), date_to: at(HOUR) });
    expect((await f.select()).status).toBe(404);
  });

  describe('between events (pretix test_choose_between_events)', () => {
    let f: Fixture;
    const lists: Record<string, number> = {};

    beforeAll(async () => {
      f = await fixture();
      // e1 ran from 2 h ago to 1 h ago; e2 runs from 30 min ago for an hour; e3 starts in 5 hours.
      await f.event('e1', -2 * HOUR, -HOUR);
      await f.event('e2', -30 * MIN, 30 * MIN);
      await f.event('e3', 5 * HOUR, 6 * HOUR);
      lists.e1 = (await f.post('/events/e1/checkinlists/', { name: 'Same name' })).id;
      lists.e2other = (await f.post('/events/e2/checkinlists/', { name: 'Other name' })).id;
      lists.e2 = (await f.post('/events/e2/checkinlists/', { name: 'Same name' })).id;
      await f.post('/events/e2/checkinlists/', { name: 'Yet another name' });
    });

    it('keeps the running event of the device: 304 without a body', async () => {
      const res = await t
        .http()
        .get(`/api/v1/device/eventselection?current_event=e2&current_checkinlist=${lists.e2}`)
        .set('Authorization', `Device ${f.device}`);
      expect(res.status).toBe(304);
      expect(res.text ?? '').toBe('');
      expect((await f.select('current_event=e2')).status).toBe(304);
    });

    it('sends a device on an ended event to the running one, with the list of the same name', async () => {
      expect(await f.select(`current_event=e1&current_checkinlist=${lists.e1}`)).toEqual({
        status: 200,
        body: { event: { slug: 'e2', name: 'Event e2' }, subevent: null, checkinlist: lists.e2 },
      });
      // Without a current list: the first of the event in pretix's order (name).
      expect(await f.select('current_event=e1')).toEqual({
        status: 200,
        body: { event: { slug: 'e2', name: 'Event e2' }, subevent: null, checkinlist: lists.e2other },
      });
    });

    it('picks the running event for a device that shows none, or an unknown one', async () => {
      expect((await f.select()).body).toEqual({
        event: { slug: 'e2', name: 'Event e2' },
        subevent: null,
        checkinlist: lists.e2other,
      });
      expect((await f.select('current_event=nope')).body).toMatchObject({ event: { slug: 'e2' } });
    });

    it('moves on to an event whose admission has begun while the current one still runs', async () => {
      const g = await fixture();
      await g.event('a', -HOUR, HOUR);
      await g.event('b', 30 * MIN, 2 * HOUR, { date_admission: at(-MIN) });
      expect((await g.select('current_event=a')).body).toMatchObject({ event: { slug: 'b' } });
      expect((await g.select('current_event=b')).status).toBe(304);
    });
  });

  it('takes the next event when none has started, and the last one when none is upcoming', async () => {
    const f = await fixture();
    await f.event('later', 3 * HOUR, 4 * HOUR);
    await f.event('soon', 2 * HOUR, 3 * HOUR);
    expect((await f.select()).body).toEqual({
      event: { slug: 'soon', name: 'Event soon' },
      subevent: null,
      checkinlist: null,
    });
    // pretix's last rule: the suggestion is what the device shows (event, no date, no list): 304.
    expect((await f.select('current_event=soon')).status).toBe(304);
    expect((await f.select('current_event=later')).status).toBe(200);
    const g = await fixture();
    await g.event('old', -5 * HOUR, -4 * HOUR);
    await g.event('recent', -3 * HOUR, -2 * HOUR);
    expect((await g.select()).body).toMatchObject({ event: { slug: 'recent' } });
  });

  describe('between dates of a series (pretix test_choose_between_subevents)', () => {
    let f: Fixture;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      f = await fixture();
      await f.event('s', -3 * HOUR, null, { has_subevents: true });
      const date = (from: number, to: number, extra: object = {}) =>
        f.post('/events/s/subevents/', {
          name: { en: 'Date' },
          date_from: at(from),
          date_to: at(to),
          active: true,
          ...extra,
        });
      ids.se1 = (await date(-2 * HOUR, -HOUR)).id;
      ids.se2 = (await date(-30 * MIN, 30 * MIN)).id;
      ids.inactive = (await date(-20 * MIN, 40 * MIN, { active: false })).id;
      ids.cl1 = (await f.post('/events/s/checkinlists/', { name: 'Same name', subevent: ids.se1 })).id;
      ids.cl2 = (await f.post('/events/s/checkinlists/', { name: 'Same name', subevent: ids.se2 })).id;
      ids.cl3 = (await f.post('/events/s/checkinlists/', { name: 'Other name' })).id;
      await f.post('/events/s/checkinlists/', { name: 'Yet another name', subevent: ids.se2 });
    });

    it('keeps the running date and moves a device from an ended date to it', async () => {
      expect((await f.select(`current_event=s&current_subevent=${ids.se2}`)).status).toBe(304);
      expect(
        await f.select(`current_event=s&current_subevent=${ids.se1}&current_checkinlist=${ids.cl1}`),
      ).toEqual({
        status: 200,
        body: { event: { slug: 's', name: 'Event s' }, subevent: ids.se2, checkinlist: ids.cl2 },
      });
    });

    it('ignores a series event without its date, and inactive dates', async () => {
      // The series alone is no current event (pretix drops it): the running date is suggested.
      expect((await f.select('current_event=s')).body).toMatchObject({ subevent: ids.se2 });
      expect((await f.select(`current_event=s&current_subevent=${ids.inactive}`)).body).toMatchObject({
        subevent: ids.se2,
      });
    });

    it('refuses a current date or list that is no whole number (400)', async () => {
      expect(await f.select('current_event=s&current_subevent=abc')).toEqual({
        status: 400,
        body: { current_subevent: ['Enter a whole number.'] },
      });
      expect((await f.select('current_checkinlist=1.5')).status).toBe(400);
    });
  });

  it('sees only the events the device reaches (limit_events)', async () => {
    const f = await fixture({ all_events: false, limit_events: [] });
    await f.event('mine', HOUR, 2 * HOUR);
    await f.event('theirs', 30 * MIN, 2 * HOUR);
    const limited = await createDevice(t, f.token, f.org, { all_events: false, limit_events: ['mine'] });
    expect((await f.select('', limited.apiToken)).body).toMatchObject({ event: { slug: 'mine' } });
    expect((await f.select()).status).toBe(404);
  });

  it('is for devices only, and every scanner profile may call it', async () => {
    const f = await fixture();
    await f.event('e', HOUR, 2 * HOUR);
    // pretix authenticates only Device tokens here: a team token counts as none.
    const res = await t.http().get('/api/v1/device/eventselection').set('Authorization', auth(f.token));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect((await t.http().get('/api/v1/device/eventselection')).status).toBe(401);
    for (const profile of ['pretixscan', 'pretixscan_online_kiosk', 'pretixscan_online_noorders']) {
      const device = await createDevice(t, f.token, f.org, { security_profile: profile });
      expect([profile, (await f.select('', device.apiToken)).status]).toEqual([profile, 200]);
    }
  });
});
