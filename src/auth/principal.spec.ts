import { PermissionSet } from './permissions';
import { Principal, TeamGrant } from './principal';

const perms = (...names: string[]) => new PermissionSet(false, new Set(names));
const ALL = new PermissionSet(true, new Set());

let nextTeam = 1;
function grant(organizerId: number, over: Partial<TeamGrant> = {}): TeamGrant {
  const teamId = nextTeam++;
  return {
    teamId,
    teamName: `team${teamId}`,
    organizerId,
    organizerSlug: `org${organizerId}`,
    allEvents: false,
    eventIds: new Set(),
    eventPermissions: PermissionSet.empty(),
    organizerPermissions: PermissionSet.empty(),
    ...over,
  };
}

const token = (g: TeamGrant) => new Principal({ kind: 'team_token', tokenId: 1, scopes: null }, [g]);
const user = (grants: TeamGrant[], extra: { scopes?: string[]; organizerIds?: number[] } = {}) =>
  new Principal(
    {
      kind: 'user',
      userId: 7,
      scopes: extra.scopes ? new Set(extra.scopes) : null,
      organizerIds: extra.organizerIds ? new Set(extra.organizerIds) : null,
    },
    grants,
  );

const sorted = (v: 'all' | number[]) => (v === 'all' ? v : [...v].sort((a, b) => a - b));

describe('Principal: a team token', () => {
  const g = grant(1, {
    eventIds: new Set([10, 11]),
    eventPermissions: perms('event.orders:read'),
    organizerPermissions: perms('organizer.events:create'),
  });
  const p = token(g);

  it('reaches its organizer only', () => {
    expect(p.kind).toBe('team_token');
    expect(p.organizerIds()).toEqual([1]);
    expect(p.hasOrganizerAccess(1)).toBe(true);
    expect(p.hasOrganizerAccess(2)).toBe(false);
    expect(p.grantsFor(1)).toEqual([g]);
    expect(p.grantsFor(2)).toEqual([]);
  });

  it('reaches exactly the events in limit_events', () => {
    expect(sorted(p.reachableEvents(1))).toEqual([10, 11]);
    expect(p.canAccessEvent(1, 10)).toBe(true);
    expect(p.canAccessEvent(1, 12)).toBe(false);
    expect(p.canAccessEvent(2, 10)).toBe(false);
    expect(p.reachableEvents(2)).toEqual([]);
  });

  it('has its event permissions only on reached events, and none in other organizers', () => {
    expect(p.eventPermissions(1, 10).has('event.orders:read')).toBe(true);
    expect(p.eventPermissions(1, 10).has('event.orders:write')).toBe(false);
    expect(p.eventPermissions(1, 12).has('event.orders:read')).toBe(false);
    expect(p.eventPermissions(2, 10).has('event.orders:read')).toBe(false);
    expect(p.organizerPermissions(1).has('organizer.events:create')).toBe(true);
    expect(p.organizerPermissions(2).has('organizer.events:create')).toBe(false);
  });

  it('passes every scope check (team tokens have no scopes)', () => {
    expect(p.hasScope('read')).toBe(true);
    expect(p.hasScope('write')).toBe(true);
  });

  it('with all_events reaches every event, including unknown ids', () => {
    const all = token(grant(1, { allEvents: true, eventPermissions: perms('event.items:write') }));
    expect(all.reachableEvents(1)).toBe('all');
    expect(all.canAccessEvent(1, 999)).toBe(true);
    expect(all.eventPermissions(1, 999).has('event.items:write')).toBe(true);
    expect(all.canAccessEvent(2, 999)).toBe(false);
  });

  it('without any event reaches none, but still has organizer access', () => {
    const none = token(grant(1));
    expect(none.hasOrganizerAccess(1)).toBe(true);
    expect(none.reachableEvents(1)).toEqual([]);
    expect(none.canAccessEvent(1, 10)).toBe(false);
  });
});

describe('Principal: a user in several teams (rights are the union, compat §2.1)', () => {
  const orders = grant(1, { eventIds: new Set([10]), eventPermissions: perms('event.orders:read') });
  const items = grant(1, {
    eventIds: new Set([10, 11]),
    eventPermissions: perms('event.items:write'),
    organizerPermissions: perms('organizer.teams:write'),
  });
  const creators = grant(1, { organizerPermissions: perms('organizer.events:create') });
  const elsewhere = grant(2, { allEvents: true, eventPermissions: ALL, organizerPermissions: ALL });
  const p = user([orders, items, creators, elsewhere]);

  it('reaches the union of the teams events, without duplicates', () => {
    expect(sorted(p.reachableEvents(1))).toEqual([10, 11]);
    expect(p.reachableEvents(2)).toBe('all');
    expect(p.organizerIds().sort()).toEqual([1, 2]);
  });

  it('unions event permissions only over the teams that reach the event', () => {
    const on10 = p.eventPermissions(1, 10);
    expect(on10.all).toBe(false);
    expect([...on10.names].sort()).toEqual(['event.items:write', 'event.orders:read']);
    const on11 = p.eventPermissions(1, 11);
    expect([...on11.names]).toEqual(['event.items:write']);
    expect(p.eventPermissions(1, 12).names.size).toBe(0);
  });

  it('does not leak permissions of another organizer (where it has everything)', () => {
    expect(p.eventPermissions(1, 10).has('event.vouchers:write')).toBe(false);
    expect(p.organizerPermissions(1).has('organizer.giftcards:write')).toBe(false);
    expect(p.eventPermissions(2, 10).has('event.vouchers:write')).toBe(true);
  });

  it('unions organizer permissions of all its teams in the organizer', () => {
    expect([...p.organizerPermissions(1).names].sort()).toEqual([
      'organizer.events:create',
      'organizer.teams:write',
    ]);
    expect(p.organizerPermissions(2).all).toBe(true);
  });

  it('becomes "all events" as soon as one team has all_events', () => {
    const q = user([orders, grant(1, { allEvents: true })]);
    expect(q.reachableEvents(1)).toBe('all');
    // The all_events team has no permissions: event 10 keeps only the orders team's permission, 12 has none.
    expect([...q.eventPermissions(1, 10).names]).toEqual(['event.orders:read']);
    expect(q.canAccessEvent(1, 12)).toBe(true);
    expect(q.eventPermissions(1, 12).names.size).toBe(0);
  });

  it('lists events holding a permission (organizer-wide lists)', () => {
    expect(p.eventsWithPermission(1, 'event.orders:read')).toEqual([10]);
    expect(sorted(p.eventsWithPermission(1, 'event.items:write'))).toEqual([10, 11]);
    expect(p.eventsWithPermission(1, 'event.vouchers:read')).toEqual([]);
    expect(p.eventsWithPermission(2, 'event.vouchers:read')).toBe('all');
    const mixed = user([orders, grant(1, { allEvents: true, eventPermissions: perms('event.orders:read') })]);
    expect(mixed.eventsWithPermission(1, 'event.orders:read')).toBe('all');
  });

  it('has no access anywhere without teams', () => {
    const nobody = user([]);
    expect(nobody.organizerIds()).toEqual([]);
    expect(nobody.hasOrganizerAccess(1)).toBe(false);
    expect(nobody.reachableEvents(1)).toEqual([]);
    expect(nobody.organizerPermissions(1).names.size).toBe(0);
  });
});

describe('Principal: OAuth restrictions (compat §2.2 step 6)', () => {
  const g1 = grant(1, { allEvents: true, eventPermissions: ALL, organizerPermissions: ALL });
  const g2 = grant(2, { allEvents: true, eventPermissions: ALL, organizerPermissions: ALL });

  it('reaches only the organizers granted at authorization', () => {
    const p = user([g1, g2], { organizerIds: [2], scopes: ['read', 'write'] });
    expect(p.organizerIds()).toEqual([2]);
    expect(p.hasOrganizerAccess(1)).toBe(false);
    expect(p.grantsFor(1)).toEqual([]);
    expect(p.canAccessEvent(1, 10)).toBe(false);
    expect(p.eventPermissions(1, 10).has('event.orders:read')).toBe(false);
    expect(p.organizerPermissions(1).has('organizer.teams:write')).toBe(false);
    expect(p.reachableEvents(1)).toEqual([]);
    expect(p.eventsWithPermission(1, 'event.orders:read')).toEqual([]);
    expect(p.canAccessEvent(2, 10)).toBe(true);
  });

  it('checks scopes', () => {
    const readOnly = user([g1], { scopes: ['read'] });
    expect(readOnly.hasScope('read')).toBe(true);
    expect(readOnly.hasScope('write')).toBe(false);
    const profile = user([g1], { scopes: ['profile'] });
    expect(profile.hasScope('read')).toBe(false);
  });

  it('an empty organizer restriction reaches nothing (not "unrestricted")', () => {
    const p = user([g1], { organizerIds: [] });
    expect(p.organizerIds()).toEqual([]);
    expect(p.hasOrganizerAccess(1)).toBe(false);
  });
});
