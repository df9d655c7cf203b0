import {
  applyLegacyFlags,
  EVENT_PERMISSIONS,
  isEventPermission,
  isOrganizerPermission,
  LEGACY_EVENT_FLAGS,
  LEGACY_ORGANIZER_FLAGS,
  legacyFlagsOf,
  ORGANIZER_PERMISSIONS,
  PermissionSet,
  scopeNeeded,
} from './permissions';

const set = (...names: string[]) => new PermissionSet(false, new Set(names));

describe('permission names (spec "Team")', () => {
  it('lists the core event-level names of the spec plus the two of pretix migration', () => {
    expect([...EVENT_PERMISSIONS].sort()).toEqual(
      [
        'event.settings.general:write',
        'event.settings.payment:write',
        'event.settings.plugins:write',
        'event.settings.email.sender:write',
        'event.settings.tax:write',
        'event.settings.invoicing:write',
        'event.subevents:write',
        'event.items:write',
        'event.orders:read',
        'event.orders:write',
        'event.orders:checkin',
        'event.vouchers:read',
        'event.vouchers:write',
        'event:cancel',
      ].sort(),
    );
  });

  it('lists the core organizer-level names of the spec', () => {
    expect([...ORGANIZER_PERMISSIONS].sort()).toEqual(
      [
        'organizer.events:create',
        'organizer.settings.general:write',
        'organizer.teams:write',
        'organizer.seatingplans:write',
        'organizer.giftcards:read',
        'organizer.giftcards:write',
        'organizer.customers:read',
        'organizer.customers:write',
        'organizer.reusablemedia:read',
        'organizer.reusablemedia:write',
        'organizer.devices:read',
        'organizer.devices:write',
        'organizer.outgoingmails:read',
      ].sort(),
    );
  });

  it('classifies names by level', () => {
    expect(isEventPermission('event:cancel')).toBe(true);
    expect(isEventPermission('event.items:write')).toBe(true);
    expect(isEventPermission('organizer.teams:write')).toBe(false);
    expect(isEventPermission('can_change_items')).toBe(false);
    expect(isOrganizerPermission('organizer.teams:write')).toBe(true);
    expect(isOrganizerPermission('event.items:write')).toBe(false);
    expect(isOrganizerPermission('organizer.nothing:write')).toBe(false);
  });

  it('maps legacy flags only to names of their own level', () => {
    for (const names of Object.values(LEGACY_EVENT_FLAGS)) {
      for (const n of names) expect(isEventPermission(n)).toBe(true);
    }
    for (const names of Object.values(LEGACY_ORGANIZER_FLAGS)) {
      for (const n of names) expect(isOrganizerPermission(n)).toBe(true);
    }
  });
});

describe('PermissionSet', () => {
  it('has exactly the listed names', () => {
    const s = set('event.orders:read');
    expect(s.has('event.orders:read')).toBe(true);
    expect(s.has('event.orders:write')).toBe(false);
    expect(s.hasAny(['event.orders:write', 'event.orders:read'])).toBe(true);
    expect(s.hasAny(['event.orders:write'])).toBe(false);
    expect(s.hasAny([])).toBe(false);
  });

  it('grants every name, including unknown future ones, when all is set', () => {
    const s = new PermissionSet(true, new Set());
    expect(s.has('event.items:write')).toBe(true);
    expect(s.has('event.future:write')).toBe(true);
  });

  it('grants nothing when empty', () => {
    const s = PermissionSet.empty();
    expect(s.all).toBe(false);
    expect([...s.names]).toEqual([]);
    expect(s.has('event.items:write')).toBe(false);
  });

  it('unions names of several sets', () => {
    const u = PermissionSet.union([set('event.items:write'), set('event.orders:read', 'event.items:write')]);
    expect(u.all).toBe(false);
    expect([...u.names].sort()).toEqual(['event.items:write', 'event.orders:read']);
  });

  it('unions to all when any set is all', () => {
    const u = PermissionSet.union([set('event.items:write'), new PermissionSet(true, new Set())]);
    expect(u.all).toBe(true);
    expect(u.has('event.vouchers:write')).toBe(true);
  });

  it('unions no sets to the empty set', () => {
    const u = PermissionSet.union([]);
    expect(u.all).toBe(false);
    expect(u.names.size).toBe(0);
  });
});

describe('legacy booleans -> names (applyLegacyFlags, compat §2.4)', () => {
  it.each([
    [
      'can_change_event_settings',
      [
        'event.settings.email.sender:write',
        'event.settings.general:write',
        'event.settings.invoicing:write',
        'event.settings.payment:write',
        'event.settings.plugins:write',
        'event.settings.tax:write',
        'event.subevents:write',
      ],
    ],
    ['can_change_items', ['event.items:write']],
    ['can_view_orders', ['event.orders:read']],
    ['can_change_orders', ['event.orders:write', 'event:cancel']],
    ['can_view_vouchers', ['event.vouchers:read']],
    ['can_change_vouchers', ['event.vouchers:write']],
    ['can_checkin_orders', ['event.orders:checkin']],
  ])('event flag %s: true adds %j', (flag, names) => {
    expect(applyLegacyFlags([], { [flag]: true }, LEGACY_EVENT_FLAGS)).toEqual(names);
  });

  it.each([
    ['can_create_events', ['organizer.events:create']],
    ['can_change_teams', ['organizer.teams:write']],
    [
      'can_change_organizer_settings',
      ['organizer.devices:read', 'organizer.devices:write', 'organizer.settings.general:write'],
    ],
    ['can_manage_customers', ['organizer.customers:read', 'organizer.customers:write']],
    ['can_manage_reusable_media', ['organizer.reusablemedia:read', 'organizer.reusablemedia:write']],
    ['can_manage_gift_cards', ['organizer.giftcards:read', 'organizer.giftcards:write']],
  ])('organizer flag %s: true adds %j', (flag, names) => {
    expect(applyLegacyFlags([], { [flag]: true }, LEGACY_ORGANIZER_FLAGS)).toEqual(names);
  });

  it('false removes the mapped names and keeps the others', () => {
    expect(
      applyLegacyFlags(
        ['event.orders:write', 'event:cancel', 'event.items:write'],
        { can_change_orders: false },
        LEGACY_EVENT_FLAGS,
      ),
    ).toEqual(['event.items:write']);
  });

  it('flags not sent (or undefined) leave the list as it is, sorted and without duplicates', () => {
    expect(
      applyLegacyFlags(
        ['event.orders:read', 'event.items:write', 'event.items:write'],
        { can_view_orders: undefined },
        LEGACY_EVENT_FLAGS,
      ),
    ).toEqual(['event.items:write', 'event.orders:read']);
  });

  it('ignores flags of the other level and unknown keys', () => {
    expect(
      applyLegacyFlags(['event.items:write'], { can_change_teams: true, nonsense: true }, LEGACY_EVENT_FLAGS),
    ).toEqual(['event.items:write']);
  });

  it('adds and removes in one call; a name added by one flag is not removed by an unrelated false', () => {
    expect(
      applyLegacyFlags(
        ['event.vouchers:read'],
        { can_change_items: true, can_view_vouchers: false, can_view_orders: false },
        LEGACY_EVENT_FLAGS,
      ),
    ).toEqual(['event.items:write']);
  });

  it('keeps names that are not in any mapping (extension permissions)', () => {
    expect(
      applyLegacyFlags(['event.plugin_x:write'], { can_change_items: true }, LEGACY_EVENT_FLAGS),
    ).toEqual(['event.items:write', 'event.plugin_x:write']);
  });
});

describe('names -> legacy booleans (legacyFlagsOf, compat §2.4)', () => {
  it('is true only when every mapped name is granted', () => {
    const flags = legacyFlagsOf(
      set('event.orders:write', 'event.items:write', 'event.settings.general:write'),
      LEGACY_EVENT_FLAGS,
    );
    expect(flags).toEqual({
      can_change_event_settings: false, // only one of its seven names
      can_change_items: true,
      can_view_orders: false,
      can_change_orders: false, // event:cancel missing
      can_view_vouchers: false,
      can_change_vouchers: false,
      can_checkin_orders: false,
    });
  });

  it('is all true for all_event_permissions', () => {
    const flags = legacyFlagsOf(new PermissionSet(true, new Set()), LEGACY_EVENT_FLAGS);
    expect(Object.keys(flags).sort()).toEqual(Object.keys(LEGACY_EVENT_FLAGS).sort());
    expect(Object.values(flags).every((v) => v)).toBe(true);
  });

  it('is all false for the empty set', () => {
    const flags = legacyFlagsOf(PermissionSet.empty(), LEGACY_ORGANIZER_FLAGS);
    expect(flags).toEqual({
      can_create_events: false,
      can_change_teams: false,
      can_change_organizer_settings: false,
      can_manage_customers: false,
      can_manage_reusable_media: false,
      can_manage_gift_cards: false,
    });
  });

  it('round-trips: setting one flag from nothing reads back as exactly that flag', () => {
    for (const [mapping, flagNames] of [
      [LEGACY_EVENT_FLAGS, Object.keys(LEGACY_EVENT_FLAGS)],
      [LEGACY_ORGANIZER_FLAGS, Object.keys(LEGACY_ORGANIZER_FLAGS)],
    ] as const) {
      for (const flag of flagNames) {
        const names = applyLegacyFlags([], { [flag]: true }, mapping);
        const back = legacyFlagsOf(set(...names), mapping);
        expect(
          Object.entries(back)
            .filter(([, v]) => v)
            .map(([k]) => k),
        ).toEqual([flag]);
      }
    }
  });

  it('round-trips the other way: a flag cleared after all flags set reads back false, the rest true', () => {
    const all = Object.fromEntries(Object.keys(LEGACY_ORGANIZER_FLAGS).map((k) => [k, true]));
    const names = applyLegacyFlags([], all, LEGACY_ORGANIZER_FLAGS);
    expect(names).toEqual(
      [...ORGANIZER_PERMISSIONS]
        .filter((n) => n !== 'organizer.seatingplans:write' && n !== 'organizer.outgoingmails:read')
        .sort(),
    );
    const cleared = applyLegacyFlags(names, { can_manage_customers: false }, LEGACY_ORGANIZER_FLAGS);
    const back = legacyFlagsOf(set(...cleared), LEGACY_ORGANIZER_FLAGS);
    expect(back).toEqual({ ...all, can_manage_customers: false });
  });
});

describe('scopeNeeded', () => {
  it('needs write for non-GET methods and for GETs whose rule names only write permissions', () => {
    expect(scopeNeeded('GET', null)).toBe('read');
    expect(scopeNeeded('HEAD', ['event.orders:read'])).toBe('read');
    expect(scopeNeeded('GET', ['event.orders:read', 'event.orders:checkin'])).toBe('read');
    expect(scopeNeeded('GET', ['organizer.teams:write'])).toBe('write');
    expect(scopeNeeded('GET', ['organizer.seatingplans:write', 'organizer.settings.general:write'])).toBe(
      'write',
    );
    expect(scopeNeeded('GET', ['organizer.events:create'])).toBe('write');
    expect(scopeNeeded('GET', ['event:cancel'])).toBe('write');
    expect(scopeNeeded('POST', ['event.orders:read'])).toBe('write');
    expect(scopeNeeded('DELETE', null)).toBe('write');
  });
});
