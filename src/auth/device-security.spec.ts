import {
  allowListOf,
  DEVICE_SECURITY_PROFILES,
  deviceProfileAllows,
  PRETIX_ALLOWLISTS,
  PRETIX_URL_NAMES,
  restrictedProfilesAllowing,
  routeKey,
} from './device-security';

const O = '/api/v1/organizers/:organizer';
const E = `${O}/events/:event`;

describe('device security profiles (pretix devicesecurity.py)', () => {
  it('has pretix four profiles', () => {
    expect([...DEVICE_SECURITY_PROFILES].sort()).toEqual([
      'full',
      'pretixscan',
      'pretixscan_online_kiosk',
      'pretixscan_online_noorders',
    ]);
  });

  it('copies pretix allow-lists entry for entry (31, 28 and 29 routes)', () => {
    expect(PRETIX_ALLOWLISTS.pretixscan).toHaveLength(31);
    expect(PRETIX_ALLOWLISTS.pretixscan_online_kiosk).toHaveLength(28);
    expect(PRETIX_ALLOWLISTS.pretixscan_online_noorders).toHaveLength(29);
    const names = (p: keyof typeof PRETIX_ALLOWLISTS) => PRETIX_ALLOWLISTS[p].map(([m, n]) => `${m} ${n}`);
    // What sets the profiles apart in pretix.
    expect(names('pretixscan')).toEqual(
      expect.arrayContaining(['GET order-list', 'GET reusablemedium-list', 'GET checkinlistpos-list']),
    );
    expect(names('pretixscan_online_noorders')).toContain('GET checkinlistpos-list');
    expect(names('pretixscan_online_noorders')).not.toContain('GET order-list');
    expect(names('pretixscan_online_noorders')).not.toContain('GET reusablemedium-list');
    expect(names('pretixscan_online_kiosk')).not.toContain('GET checkinlistpos-list');
    expect(names('pretixscan_online_kiosk')).not.toContain('GET order-list');
    expect(names('pretixscan_online_kiosk')).toContain('GET checkinrpc.search');
    for (const p of ['pretixscan', 'pretixscan_online_kiosk', 'pretixscan_online_noorders'] as const) {
      expect(new Set(names(p)).size).toBe(names(p).length);
    }
  });

  it('maps every URL name of the lists to at least one route template', () => {
    const used = new Set(Object.values(PRETIX_ALLOWLISTS).flatMap((l) => l.map(([, n]) => n)));
    for (const name of used) expect(PRETIX_URL_NAMES[name]?.paths.length).toBeGreaterThan(0);
  });

  it('allows everything for full and for a profile pretix does not know (its fallback)', () => {
    expect(deviceProfileAllows('full', 'DELETE', `${E}/`)).toBe(true);
    expect(deviceProfileAllows('full', 'GET', `${O}/giftcards/`)).toBe(true);
    expect(deviceProfileAllows('pretixpos', 'GET', `${O}/giftcards/`)).toBe(true);
  });

  it('matches method and template exactly, whatever the parameter names and trailing slash', () => {
    expect(deviceProfileAllows('pretixscan', 'GET', `${E}/checkinlists/`)).toBe(true);
    expect(deviceProfileAllows('pretixscan', 'GET', '/api/v1/organizers/:o/events/:e/checkinlists')).toBe(
      true,
    );
    expect(deviceProfileAllows('pretixscan', 'POST', `${E}/checkinlists/`)).toBe(false);
    expect(deviceProfileAllows('pretixscan', 'GET', `${E}/checkinlists/:id/`)).toBe(false);
    expect(deviceProfileAllows('pretixscan', 'HEAD', `${E}/checkinlists/`)).toBe(false);
    expect(deviceProfileAllows('pretixscan', 'GET', `${O}/giftcards/`)).toBe(false);
    expect(deviceProfileAllows('pretixscan', 'GET', '/api/v1/me')).toBe(false);
    expect(routeKey('get', `${E}/checkinlists/:list/positions/`)).toBe(
      'GET /api/v1/organizers/:_/events/:_/checkinlists/:_/positions',
    );
  });

  it('maps a router name to all its registrations (subevent-list, order-list)', () => {
    for (const path of [`${O}/subevents/`, `${E}/subevents/`]) {
      expect(restrictedProfilesAllowing('GET', path)).toEqual([
        'pretixscan',
        'pretixscan_online_kiosk',
        'pretixscan_online_noorders',
      ]);
    }
    for (const path of [`${O}/orders/`, `${E}/orders/`]) {
      expect(restrictedProfilesAllowing('GET', path)).toEqual(['pretixscan']);
    }
    expect(restrictedProfilesAllowing('GET', `${E}/orders/:code/`)).toEqual([]);
  });

  it('tells the profiles apart on positions, orders and media', () => {
    expect(restrictedProfilesAllowing('GET', `${E}/checkinlists/:list/positions/`)).toEqual([
      'pretixscan',
      'pretixscan_online_noorders',
    ]);
    expect(restrictedProfilesAllowing('GET', `${O}/reusablemedia/`)).toEqual(['pretixscan']);
    expect(
      restrictedProfilesAllowing('POST', `${E}/checkinlists/:list/positions/:position/redeem/`),
    ).toHaveLength(3);
    expect(restrictedProfilesAllowing('GET', `${O}/checkinrpc/search/`)).toHaveLength(3);
  });

  it('allows our extensions wherever their pretix counterpart is', () => {
    for (const p of ['pretixscan', 'pretixscan_online_kiosk', 'pretixscan_online_noorders'] as const) {
      const list = allowListOf(p).map(([m, n]) => `${m} ${n}`);
      expect(list).toContain('POST checkinrpc.redeem_batch');
      expect(list).toContain('GET checkinlist-stream');
      expect(deviceProfileAllows(p, 'POST', `${O}/checkinrpc/redeem_batch/`)).toBe(true);
      expect(deviceProfileAllows(p, 'GET', `${E}/checkinlists/:list/stream/`)).toBe(true);
      expect(deviceProfileAllows(p, 'POST', `${O}/checkinrpc/annul/`)).toBe(false);
    }
  });
});
