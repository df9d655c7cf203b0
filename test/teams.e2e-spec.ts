import { createHash } from 'crypto';
import { UsersService } from '../src/auth/users.service';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

const O = '/api/v1/organizers/org';
const DENIED = { detail: 'You do not have permission to perform this action.' };
const NOT_FOUND = { detail: 'Not found.' };

const ALL_EVENT_SETTINGS = [
  'event.settings.email.sender:write',
  'event.settings.general:write',
  'event.settings.invoicing:write',
  'event.settings.payment:write',
  'event.settings.plugins:write',
  'event.settings.tax:write',
  'event.subevents:write',
];

/** Every legacy boolean set to one value, for building expected team bodies. */
function legacy(value: boolean): Record<string, boolean> {
  return Object.fromEntries(
    [
      'can_create_events',
      'can_change_teams',
      'can_change_organizer_settings',
      'can_manage_customers',
      'can_manage_reusable_media',
      'can_manage_gift_cards',
      'can_change_event_settings',
      'can_change_items',
      'can_view_orders',
      'can_change_orders',
      'can_view_vouchers',
      'can_change_vouchers',
      'can_checkin_orders',
    ].map((flag) => [flag, value]),
  );
}

/** The wire form of a team with the given stored fields; legacy flags false unless overridden. */
function teamBody(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    all_events: false,
    limit_events: [],
    require_2fa: false,
    all_event_permissions: false,
    limit_event_permissions: [],
    all_organizer_permissions: false,
    limit_organizer_permissions: [],
    ...legacy(false),
    ...fields,
  };
}

describe('teams, members, invites and tokens (spec "Teams"; compat §3.1)', () => {
  let t: TestApp;
  let token: string;
  let adminTeamId: number;
  let otherToken: string;
  let otherTeamId: number;
  let users: UsersService;

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: object, tok = token) =>
    t.http().post(path).set('Authorization', auth(tok)).send(body);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const put = (path: string, body: object, tok = token) =>
    t.http().put(path).set('Authorization', auth(tok)).send(body);
  const del = (path: string, tok = token) => t.http().delete(path).set('Authorization', auth(tok));

  async function logCount(action: string): Promise<number> {
    const rows: { n: number }[] = await t.db.query(
      'SELECT count(*)::int AS n FROM log_entry WHERE action_type = $1',
      [action],
    );
    return rows[0].n;
  }

  async function createTeam(body: Record<string, unknown>): Promise<number> {
    const res = await post(`${O}/teams/`, body);
    if (res.status !== 201) throw new Error(`createTeam: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { id: number }).id;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token, teamId: adminTeamId } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'ev1' });
    await createEvent(t, token, 'org', { slug: 'ev2' });
    ({ token: otherToken, teamId: otherTeamId } = await bootstrapOrganizer(t, 'other'));
    await createEvent(t, otherToken, 'other', { slug: 'oev' });
    users = t.app.get(UsersService);
  });
  afterAll(() => t.close());

  describe('access', () => {
    it('answers 401 without credentials', async () => {
      const res = await t.http().get(`${O}/teams/`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    });

    it('answers 403 on every team URL to a token without organizer.teams:write, even for unknown ids', async () => {
      const weak = await teamToken(t, 'org', {
        allEvents: true,
        allEventPermissions: true,
        organizerPermissions: ['organizer.events:create', 'organizer.settings.general:write'],
      });
      const responses = [
        await get(`${O}/teams/`, weak),
        await get(`${O}/teams/${adminTeamId}/`, weak),
        await get(`${O}/teams/999999/`, weak),
        await post(`${O}/teams/`, { name: 'x' }, weak),
        await patch(`${O}/teams/${adminTeamId}/`, { name: 'x' }, weak),
        await del(`${O}/teams/${adminTeamId}/`, weak),
        await get(`${O}/teams/${adminTeamId}/members/`, weak),
        await post(`${O}/teams/${adminTeamId}/invites/`, { email: 'a@example.org' }, weak),
        await get(`${O}/teams/${adminTeamId}/tokens/`, weak),
        await post(`${O}/teams/${adminTeamId}/tokens/`, { name: 'x' }, weak),
      ];
      for (const res of responses) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
    });

    it('answers 403 for another organizer', async () => {
      const list = await get('/api/v1/organizers/other/teams/');
      expect(list.status).toBe(403);
      expect(list.body).toEqual(DENIED);
      const detail = await get(`/api/v1/organizers/other/teams/${otherTeamId}/tokens/`);
      expect(detail.status).toBe(403);
      expect(detail.body).toEqual(DENIED);
    });

    it('lets a token with only organizer.teams:write in', async () => {
      const teamsOnly = await teamToken(t, 'org', { organizerPermissions: ['organizer.teams:write'] });
      const res = await get(`${O}/teams/${adminTeamId}/`, teamsOnly);
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('Administrators');
    });
  });

  describe('teams', () => {
    it('shows a team with all permissions as every legacy boolean true', async () => {
      const res = await get(`${O}/teams/${adminTeamId}/`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        teamBody({
          id: adminTeamId,
          name: 'Administrators',
          all_events: true,
          all_event_permissions: true,
          all_organizer_permissions: true,
          ...legacy(true),
        }),
      );
    });

    it("lists the organizer's teams ordered by id, and by name on request", async () => {
      const res = await get(`${O}/teams/`);
      expect(res.status).toBe(200);
      const ids = (res.body.results as { id: number }[]).map((x) => x.id);
      expect(res.body.count).toBe(3); // Administrators and the two teams of the access tests
      expect(ids[0]).toBe(adminTeamId);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(ids).not.toContain(otherTeamId);
      expect(res.body.results[0]).toEqual((await get(`${O}/teams/${adminTeamId}/`)).body);

      const byName = await get(`${O}/teams/?ordering=-name`);
      const names = (byName.body.results as { name: string }[]).map((x) => x.name);
      expect(names).toEqual([...names].sort().reverse());
      expect(names[names.length - 1]).toBe('Administrators');
    });

    it('creates a team (201) with legacy booleans added to the lists and limit_events sorted', async () => {
      const before = await logCount('pretix.team.created');
      const res = await post(`${O}/teams/`, {
        name: 'Sales',
        limit_events: ['ev2', 'ev1'],
        limit_organizer_permissions: ['organizer.giftcards:read'],
        can_change_items: true,
        can_view_orders: true,
      });
      expect(res.status).toBe(201);
      const expected = teamBody({
        id: res.body.id,
        name: 'Sales',
        limit_events: ['ev1', 'ev2'],
        limit_event_permissions: ['event.items:write', 'event.orders:read'],
        limit_organizer_permissions: ['organizer.giftcards:read'],
        can_change_items: true,
        can_view_orders: true,
      });
      expect(res.body).toEqual(expected);
      expect(typeof res.body.id).toBe('number');
      expect((await get(`${O}/teams/${res.body.id}/`)).body).toEqual(expected);
      const links: { slug: string }[] = await t.db.query(
        'SELECT e.slug FROM team_limit_event tle JOIN event e ON e.id = tle.event_id WHERE tle.team_id = $1 ORDER BY e.slug',
        [res.body.id],
      );
      expect(links).toEqual([{ slug: 'ev1' }, { slug: 'ev2' }]);
      expect(await logCount('pretix.team.created')).toBe(before + 1);
    });

    it('rejects invalid team bodies with field messages and creates nothing', async () => {
      const count = (await get(`${O}/teams/`)).body.count as number;
      const cases: [object, object][] = [
        [{}, { name: ['This field is required.'] }],
        [{ name: 'x'.repeat(191) }, { name: ['Ensure this field has no more than 190 characters.'] }],
        [{ name: '' }, { name: ['This field may not be blank.'] }],
        [{ name: 'x', limit_events: ['nope'] }, { limit_events: ['Object with slug=nope does not exist.'] }],
        [
          { name: 'x', limit_events: ['ev1', 'oev'] },
          { limit_events: ['Object with slug=oev does not exist.'] },
        ],
        [
          { name: 'x', limit_event_permissions: ['event.foo:write'] },
          { limit_event_permissions: ['"event.foo:write" is not a valid choice.'] },
        ],
        [
          { name: 'x', limit_organizer_permissions: ['event.items:write'] },
          { limit_organizer_permissions: ['"event.items:write" is not a valid choice.'] },
        ],
        [{ name: 'x', can_change_items: 'yes' }, { can_change_items: ['Must be a valid boolean.'] }],
        [
          { name: 'x', all_events: true, limit_events: ['ev1'] },
          { non_field_errors: ['Do not set both limit_events and all_events.'] },
        ],
      ];
      for (const [body, errors] of cases) {
        const res = await post(`${O}/teams/`, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errors);
      }
      expect((await get(`${O}/teams/`)).body.count).toBe(count);
    });

    it('PATCH with a legacy boolean adds or removes its names; PATCH of the lists recomputes the booleans', async () => {
      const id = await createTeam({ name: 'Legacy', limit_event_permissions: ['event.orders:read'] });

      const settings = await patch(`${O}/teams/${id}/`, { can_change_event_settings: true });
      expect(settings.status).toBe(200);
      expect(settings.body.limit_event_permissions).toEqual(['event.orders:read', ...ALL_EVENT_SETTINGS]);
      expect(settings.body.can_change_event_settings).toBe(true);
      expect(settings.body.can_view_orders).toBe(true);

      const items = await patch(`${O}/teams/${id}/`, { can_change_items: true, can_view_orders: false });
      expect(items.status).toBe(200);
      expect(items.body.limit_event_permissions).toEqual(['event.items:write', ...ALL_EVENT_SETTINGS]);
      expect(items.body.can_change_items).toBe(true);
      expect(items.body.can_view_orders).toBe(false);

      const lists = await patch(`${O}/teams/${id}/`, {
        limit_event_permissions: ['event.orders:write', 'event:cancel', 'event.vouchers:read'],
        limit_organizer_permissions: ['organizer.giftcards:read', 'organizer.giftcards:write'],
      });
      expect(lists.status).toBe(200);
      expect(lists.body).toEqual(
        teamBody({
          id,
          name: 'Legacy',
          limit_event_permissions: ['event.orders:write', 'event.vouchers:read', 'event:cancel'],
          limit_organizer_permissions: ['organizer.giftcards:read', 'organizer.giftcards:write'],
          can_change_orders: true,
          can_view_vouchers: true,
          can_manage_gift_cards: true,
        }),
      );
      expect((await get(`${O}/teams/${id}/`)).body).toEqual(lists.body);

      // A flag sent with the list in the same body is applied after it.
      const both = await patch(`${O}/teams/${id}/`, {
        limit_organizer_permissions: ['organizer.teams:write'],
        can_change_teams: false,
        can_create_events: true,
      });
      expect(both.body.limit_organizer_permissions).toEqual(['organizer.events:create']);
      expect(both.body.can_create_events).toBe(true);
      expect(both.body.can_change_teams).toBe(false);
    });

    it('shows every event boolean true with all_event_permissions, whatever the list', async () => {
      const id = await createTeam({ name: 'All events perms', all_event_permissions: true });
      const res = await get(`${O}/teams/${id}/`);
      expect(res.body).toEqual(
        teamBody({
          id,
          name: 'All events perms',
          all_event_permissions: true,
          can_change_event_settings: true,
          can_change_items: true,
          can_view_orders: true,
          can_change_orders: true,
          can_view_vouchers: true,
          can_change_vouchers: true,
          can_checkin_orders: true,
        }),
      );
    });

    it('PATCH all_events:true on a team with limit_events is 400 (merged data) and changes nothing', async () => {
      const id = await createTeam({ name: 'Limited', limit_events: ['ev1'] });
      const before = (await get(`${O}/teams/${id}/`)).body;
      const res = await patch(`${O}/teams/${id}/`, { all_events: true });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: ['Do not set both limit_events and all_events.'] });
      expect((await get(`${O}/teams/${id}/`)).body).toEqual(before);

      const ok = await patch(`${O}/teams/${id}/`, { all_events: true, limit_events: [] });
      expect(ok.status).toBe(200);
      expect(ok.body.all_events).toBe(true);
      expect(ok.body.limit_events).toEqual([]);
      const links: unknown[] = await t.db.query('SELECT 1 FROM team_limit_event WHERE team_id = $1', [id]);
      expect(links).toHaveLength(0);
    });

    it('PATCH {} answers 200 with the team unchanged and logs nothing', async () => {
      const id = await createTeam({ name: 'Quiet', require_2fa: true });
      const before = await logCount('pretix.team.changed');
      const res = await patch(`${O}/teams/${id}/`, {});
      expect(res.status).toBe(200);
      expect(res.body).toEqual(teamBody({ id, name: 'Quiet', require_2fa: true }));
      expect(await logCount('pretix.team.changed')).toBe(before);
    });

    it('PUT resets omitted real fields to their defaults; legacy booleans sent still apply', async () => {
      const id = await createTeam({
        name: 'Full',
        limit_events: ['ev1'],
        require_2fa: true,
        all_organizer_permissions: true,
        limit_event_permissions: ['event.items:write'],
        limit_organizer_permissions: ['organizer.teams:write'],
      });
      const before = await logCount('pretix.team.changed');
      const res = await put(`${O}/teams/${id}/`, { name: 'Renamed' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(teamBody({ id, name: 'Renamed' }));
      expect((await get(`${O}/teams/${id}/`)).body).toEqual(res.body);
      expect(await logCount('pretix.team.changed')).toBe(before + 1);

      const withFlag = await put(`${O}/teams/${id}/`, {
        name: 'Renamed',
        all_events: true,
        can_view_orders: true,
      });
      expect(withFlag.status).toBe(200);
      expect(withFlag.body).toEqual(
        teamBody({
          id,
          name: 'Renamed',
          all_events: true,
          limit_event_permissions: ['event.orders:read'],
          can_view_orders: true,
        }),
      );

      const missing = await put(`${O}/teams/${id}/`, { all_events: false });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ name: ['This field is required.'] });
    });

    it('answers 404 for unknown ids, non-integer ids and teams of another organizer', async () => {
      for (const path of [`${O}/teams/999999/`, `${O}/teams/abc/`, `${O}/teams/${otherTeamId}/`]) {
        const res = await get(path);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
      expect((await patch(`${O}/teams/${otherTeamId}/`, { name: 'mine' })).status).toBe(404);
      expect((await put(`${O}/teams/${otherTeamId}/`, { name: 'mine' })).status).toBe(404);
      expect((await del(`${O}/teams/${otherTeamId}/`)).status).toBe(404);
      expect((await del(`${O}/teams/1.5/`)).status).toBe(404);
      const other = await get(`/api/v1/organizers/other/teams/${otherTeamId}/`, otherToken);
      expect(other.body.name).toBe('Administrators');
    });

    it('DELETE answers 204, removes the team with its tokens, and logs it', async () => {
      const id = await createTeam({ name: 'Doomed', limit_events: ['ev1'] });
      await post(`${O}/teams/${id}/tokens/`, { name: 'doomed' });
      const before = await logCount('pretix.team.deleted');
      const res = await del(`${O}/teams/${id}/`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await get(`${O}/teams/${id}/`)).status).toBe(404);
      const tokens: unknown[] = await t.db.query('SELECT 1 FROM team_api_token WHERE team_id = $1', [id]);
      expect(tokens).toHaveLength(0);
      expect(await logCount('pretix.team.deleted')).toBe(before + 1);
    });
    it('lists teams with a fixed number of SQL statements whatever the page size', async () => {
      for (let i = 0; i < 6; i++) await createTeam({ name: `Bulk ${i}`, limit_events: ['ev2', 'ev1'] });
      const spy = jest.spyOn(t.db.logger, 'logQuery');
      try {
        // Two full pages (so both also count), one of 2 and one of 10 teams.
        await get(`${O}/teams/?page_size=2`);
        const small = spy.mock.calls.length;
        spy.mockClear();
        const ten = await get(`${O}/teams/?page_size=10`);
        expect(ten.body.results).toHaveLength(10);
        expect(spy.mock.calls.length).toBe(small);
        const res = await get(`${O}/teams/?page_size=50`);
        const bulk = (res.body.results as { name: string; limit_events: string[] }[]).filter((x) =>
          x.name.startsWith('Bulk '),
        );
        expect(bulk).toHaveLength(6);
        for (const team of bulk) expect(team.limit_events).toEqual(['ev1', 'ev2']);
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('invites and members', () => {
    let teamId: number;
    let aliceId: number;

    beforeAll(async () => {
      teamId = await createTeam({ name: 'Crew' });
      aliceId = (await users.create('Alice@Example.com', 'password123', 'Alice')).id;
    });

    it('adds an existing user (case-insensitive e-mail) directly: 201 without id, listed as member', async () => {
      const added = await logCount('pretix.team.member.added');
      const res = await post(`${O}/teams/${teamId}/invites/`, { email: 'alice@example.com' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ email: 'Alice@Example.com' });
      expect(await logCount('pretix.team.member.added')).toBe(added + 1);

      const invites = await get(`${O}/teams/${teamId}/invites/`);
      expect(invites.body).toEqual({ count: 0, next: null, previous: null, results: [] });
      const members = await get(`${O}/teams/${teamId}/members/`);
      expect(members.status).toBe(200);
      expect(members.body).toEqual({
        count: 1,
        next: null,
        previous: null,
        results: [{ id: aliceId, email: 'Alice@Example.com', fullname: 'Alice', require_2fa: false }],
      });
    });

    it('refuses to add a member twice with a bare-list 400', async () => {
      const res = await post(`${O}/teams/${teamId}/invites/`, { email: 'ALICE@example.com' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(['This user already has permissions for this team.']);
      expect((await get(`${O}/teams/${teamId}/members/`)).body.count).toBe(1);
    });

    it('invites an unknown address: 201 {id, email}, one outbox e-mail, logged', async () => {
      const created = await logCount('pretix.team.invite.created');
      const res = await post(`${O}/teams/${teamId}/invites/`, { email: 'new@example.org' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.any(Number), email: 'new@example.org' });
      const mails: { subject: string; body: string }[] = await t.db.query(
        'SELECT subject, body FROM outgoing_mail WHERE recipient = $1',
        ['new@example.org'],
      );
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe('You have been invited to a team');
      expect(mails[0].body).toContain('"Crew"');
      expect(mails[0].body).toContain('"org"');
      expect(await logCount('pretix.team.invite.created')).toBe(created + 1);
      const detail = await get(`${O}/teams/${teamId}/invites/${res.body.id}/`);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(res.body);
    });

    it('refuses a second invite for the same address (case-insensitive) with a bare-list 400 and no mail', async () => {
      const res = await post(`${O}/teams/${teamId}/invites/`, { email: 'NEW@example.org' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(['This user already has been invited for this team.']);
      const mails: unknown[] = await t.db.query('SELECT 1 FROM outgoing_mail WHERE lower(recipient) = $1', [
        'new@example.org',
      ]);
      expect(mails).toHaveLength(1);
    });

    it('validates the e-mail', async () => {
      const missing = await post(`${O}/teams/${teamId}/invites/`, {});
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ email: ['This field is required.'] });
      const invalid = await post(`${O}/teams/${teamId}/invites/`, { email: 'not-an-address' });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({ email: ['Enter a valid email address.'] });
    });

    it('lists invites ordered by e-mail', async () => {
      await post(`${O}/teams/${teamId}/invites/`, { email: 'zed@example.org' });
      await post(`${O}/teams/${teamId}/invites/`, { email: 'amy@example.org' });
      const res = await get(`${O}/teams/${teamId}/invites/`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(3);
      expect((res.body.results as { email: string }[]).map((i) => i.email)).toEqual([
        'amy@example.org',
        'new@example.org',
        'zed@example.org',
      ]);
      expect(Object.keys(res.body.results[0] as object).sort()).toEqual(['email', 'id']);
    });

    it('DELETE of an invite answers 204, revokes it and logs it; unknown or foreign ids are 404', async () => {
      const list = await get(`${O}/teams/${teamId}/invites/`);
      const zed = (list.body.results as { id: number; email: string }[]).find(
        (i) => i.email === 'zed@example.org',
      )!;
      expect((await get(`${O}/teams/${adminTeamId}/invites/${zed.id}/`)).status).toBe(404);
      expect((await del(`${O}/teams/${adminTeamId}/invites/${zed.id}/`)).status).toBe(404);
      expect((await get(`${O}/teams/${teamId}/invites/999999/`)).body).toEqual(NOT_FOUND);

      const deleted = await logCount('pretix.team.invite.deleted');
      const res = await del(`${O}/teams/${teamId}/invites/${zed.id}/`);
      expect(res.status).toBe(204);
      expect((await get(`${O}/teams/${teamId}/invites/${zed.id}/`)).status).toBe(404);
      expect((await get(`${O}/teams/${teamId}/invites/`)).body.count).toBe(2);
      expect(await logCount('pretix.team.invite.deleted')).toBe(deleted + 1);
    });

    it('shows a member; require_2fa reflects the user', async () => {
      await t.db.query('UPDATE user_account SET requires2fa = true WHERE id = $1', [aliceId]);
      const res = await get(`${O}/teams/${teamId}/members/${aliceId}/`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: aliceId,
        email: 'Alice@Example.com',
        fullname: 'Alice',
        require_2fa: true,
      });
      await t.db.query('UPDATE user_account SET requires2fa = false WHERE id = $1', [aliceId]);
    });

    it('answers 404 for a user who is not a member and 403 for unknown teams; POST is 405', async () => {
      const bob = await users.create('bob@example.com', 'password123', null);
      expect((await get(`${O}/teams/${teamId}/members/${bob.id}/`)).body).toEqual(NOT_FOUND);
      expect((await del(`${O}/teams/${teamId}/members/${bob.id}/`)).status).toBe(404);
      for (const path of [
        `${O}/teams/999999/members/`,
        `${O}/teams/${otherTeamId}/members/`,
        `${O}/teams/abc/members/`,
        `${O}/teams/999999/invites/`,
        `${O}/teams/${otherTeamId}/tokens/`,
      ]) {
        const res = await get(path);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      const postMember = await post(`${O}/teams/${teamId}/members/`, { email: 'bob@example.com' });
      expect(postMember.status).toBe(405);
      expect(postMember.body).toEqual({ detail: 'Method "POST" not allowed.' });
    });

    it('lists a user added with a null fullname', async () => {
      const res = await post(`${O}/teams/${teamId}/invites/`, { email: 'bob@example.com' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ email: 'bob@example.com' });
      const members = await get(`${O}/teams/${teamId}/members/`);
      expect(members.body.results).toEqual([
        { id: aliceId, email: 'Alice@Example.com', fullname: 'Alice', require_2fa: false },
        { id: expect.any(Number), email: 'bob@example.com', fullname: null, require_2fa: false },
      ]);
    });

    it('DELETE of a member answers 204, keeps the user account and logs it', async () => {
      const removed = await logCount('pretix.team.member.removed');
      const res = await del(`${O}/teams/${teamId}/members/${aliceId}/`);
      expect(res.status).toBe(204);
      expect((await get(`${O}/teams/${teamId}/members/${aliceId}/`)).status).toBe(404);
      expect((await get(`${O}/teams/${teamId}/members/`)).body.count).toBe(1);
      const rows: unknown[] = await t.db.query('SELECT 1 FROM user_account WHERE id = $1', [aliceId]);
      expect(rows).toHaveLength(1);
      expect(await logCount('pretix.team.member.removed')).toBe(removed + 1);
    });
  });

  describe('tokens', () => {
    let teamId: number;

    beforeAll(async () => {
      teamId = await createTeam({ name: 'Robots', all_organizer_permissions: true });
    });

    it('creates a token: 201 with the 64-character secret, stored only as its hash', async () => {
      const created = await logCount('pretix.team.token.created');
      const res = await post(`${O}/teams/${teamId}/tokens/`, { name: 'ci' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: 'ci',
        active: true,
        token: expect.any(String),
      });
      const secret = res.body.token as string;
      expect(secret).toMatch(/^[a-z0-9]{64}$/);
      const rows: { token_hash: string }[] = await t.db.query(
        'SELECT token_hash FROM team_api_token WHERE id = $1',
        [res.body.id],
      );
      expect(rows[0].token_hash).toBe(createHash('sha256').update(secret).digest('hex'));
      expect(await logCount('pretix.team.token.created')).toBe(created + 1);
      // The new token works, with its team's permissions.
      expect((await get(`${O}/teams/`, secret)).status).toBe(200);
    });

    it('validates the name', async () => {
      const missing = await post(`${O}/teams/${teamId}/tokens/`, {});
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ name: ['This field is required.'] });
      const long = await post(`${O}/teams/${teamId}/tokens/`, { name: 'x'.repeat(191) });
      expect(long.status).toBe(400);
      expect(long.body).toEqual({ name: ['Ensure this field has no more than 190 characters.'] });
    });

    it('lists tokens ordered by name without secrets; detail has no secret either', async () => {
      await post(`${O}/teams/${teamId}/tokens/`, { name: 'zeta' });
      await post(`${O}/teams/${teamId}/tokens/`, { name: 'alpha' });
      const res = await get(`${O}/teams/${teamId}/tokens/`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(3);
      expect(res.body.results).toEqual([
        { id: expect.any(Number), name: 'alpha', active: true },
        { id: expect.any(Number), name: 'ci', active: true },
        { id: expect.any(Number), name: 'zeta', active: true },
      ]);
      const ci = res.body.results[1] as { id: number };
      const detail = await get(`${O}/teams/${teamId}/tokens/${ci.id}/`);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual({ id: ci.id, name: 'ci', active: true });
    });

    it('DELETE deactivates: 200 with active false, the token then gets 401, and it stays listed', async () => {
      const created = await post(`${O}/teams/${teamId}/tokens/`, { name: 'temp' });
      const secret = created.body.token as string;
      expect((await get(`${O}/teams/`, secret)).status).toBe(200);

      const deleted = await logCount('pretix.team.token.deleted');
      const res = await del(`${O}/teams/${teamId}/tokens/${created.body.id}/`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: created.body.id, name: 'temp', active: false });
      expect(await logCount('pretix.team.token.deleted')).toBe(deleted + 1);

      const refused = await get(`${O}/teams/`, secret);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ detail: 'Token inactive or deleted.' });

      const detail = await get(`${O}/teams/${teamId}/tokens/${created.body.id}/`);
      expect(detail.body).toEqual({ id: created.body.id, name: 'temp', active: false });
      const list = await get(`${O}/teams/${teamId}/tokens/`);
      expect(list.body.results).toContainEqual({ id: created.body.id, name: 'temp', active: false });
      const rows: { active: boolean }[] = await t.db.query(
        'SELECT active FROM team_api_token WHERE id = $1',
        [created.body.id],
      );
      expect(rows).toEqual([{ active: false }]);

      // Deactivating again keeps it inactive.
      const again = await del(`${O}/teams/${teamId}/tokens/${created.body.id}/`);
      expect(again.status).toBe(200);
      expect(again.body.active).toBe(false);
    });

    it('answers 404 for unknown token ids and tokens of another team', async () => {
      const adminTokens = await get(`${O}/teams/${adminTeamId}/tokens/`);
      const adminTokenId = (adminTokens.body.results as { id: number }[])[0].id;
      expect((await get(`${O}/teams/${teamId}/tokens/${adminTokenId}/`)).body).toEqual(NOT_FOUND);
      expect((await del(`${O}/teams/${teamId}/tokens/${adminTokenId}/`)).status).toBe(404);
      expect((await get(`${O}/teams/${teamId}/tokens/999999/`)).status).toBe(404);
      expect((await del(`${O}/teams/${teamId}/tokens/abc/`)).status).toBe(404);
      expect((await get(`${O}/teams/${adminTeamId}/tokens/${adminTokenId}/`)).body.active).toBe(true);
    });
  });
});
