import { resolveTeamInput, TEAM_DEFAULTS, TeamFields } from './team-input';

describe('resolveTeamInput (compat §2.4, §3.1)', () => {
  const stored: TeamFields = {
    ...TEAM_DEFAULTS,
    name: 'Sales',
    limit_events: ['ev1'],
    limit_event_permissions: ['event.items:write', 'event.orders:read'],
    limit_organizer_permissions: ['organizer.teams:write'],
  };

  it('keeps the base for fields not sent and ignores undefined values', () => {
    expect(resolveTeamInput({ require_2fa: true, name: undefined }, stored)).toEqual({
      ...stored,
      require_2fa: true,
    });
  });

  it('adds the names of a legacy flag sent as true and removes those of a flag sent as false', () => {
    const out = resolveTeamInput({ can_change_orders: true, can_change_items: false }, stored);
    expect(out.limit_event_permissions).toEqual(['event.orders:read', 'event.orders:write', 'event:cancel']);
    expect(out.limit_organizer_permissions).toEqual(['organizer.teams:write']);
  });

  it('applies legacy flags after the lists of the same body', () => {
    const out = resolveTeamInput(
      {
        limit_event_permissions: ['event.orders:read', 'event.vouchers:read'],
        can_view_orders: false,
        limit_organizer_permissions: [],
        can_manage_gift_cards: true,
      },
      stored,
    );
    expect(out.limit_event_permissions).toEqual(['event.vouchers:read']);
    expect(out.limit_organizer_permissions).toEqual([
      'organizer.giftcards:read',
      'organizer.giftcards:write',
    ]);
  });

  it('de-duplicates and sorts the lists', () => {
    const out = resolveTeamInput(
      {
        limit_events: ['b', 'a', 'b'],
        limit_event_permissions: ['event.orders:read', 'event.items:write', 'event.orders:read'],
      },
      stored,
    );
    expect(out.limit_events).toEqual(['b', 'a']);
    expect(out.limit_event_permissions).toEqual(['event.items:write', 'event.orders:read']);
  });
});
