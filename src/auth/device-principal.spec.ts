import { devicePrincipal } from './credentials.service';
import type { ResolvedDevice } from './device-resolver';

function device(over: Partial<ResolvedDevice> = {}): ResolvedDevice {
  return {
    identity: { id: 7, deviceId: 2, name: 'Door', organizerId: 1, securityProfile: 'full', gate: null },
    organizerSlug: 'org',
    allEvents: false,
    eventIds: [10],
    initialized: true,
    revoked: false,
    ...over,
  };
}

describe('devicePrincipal (pretix Device._event_permission_set / _organizer_permission_set)', () => {
  it('reaches its organizer and its limit_events with exactly the device permissions', () => {
    const p = devicePrincipal(device());
    expect(p.kind).toBe('device');
    expect(p.identity.device).toMatchObject({ id: 7, deviceId: 2 });
    expect(p.identity.tokenId).toBeUndefined();
    expect(p.organizerIds()).toEqual([1]);
    expect(p.canAccessEvent(1, 10)).toBe(true);
    expect(p.canAccessEvent(1, 11)).toBe(false);
    expect(p.canAccessEvent(2, 10)).toBe(false);
    const ev = p.eventPermissions(1, 10);
    for (const name of ['event.orders:read', 'event.orders:write', 'event.vouchers:read']) {
      expect([name, ev.has(name)]).toEqual([name, true]);
    }
    for (const name of [
      'event.items:write',
      'event.vouchers:write',
      'event.orders:checkin',
      'event:cancel',
    ]) {
      expect([name, ev.has(name)]).toEqual([name, false]);
    }
    const org = p.organizerPermissions(1);
    expect(org.has('organizer.giftcards:write')).toBe(true);
    expect(org.has('organizer.reusablemedia:read')).toBe(true);
    expect(org.has('organizer.devices:read')).toBe(false);
    expect(org.has('organizer.teams:write')).toBe(false);
    expect(p.organizerPermissions(2).has('organizer.giftcards:read')).toBe(false);
  });

  it('all_events reaches every event of its organizer only', () => {
    const p = devicePrincipal(device({ allEvents: true, eventIds: [] }));
    expect(p.reachableEvents(1)).toBe('all');
    expect(p.canAccessEvent(1, 999)).toBe(true);
    expect(p.canAccessEvent(2, 999)).toBe(false);
  });
});
