import { Principal } from '../auth/principal';
import { conflictOf, offlineOutcome, StoredScan } from './offline-conflict';
import { scanDevice } from './scan-device';

const policy = { allowMultipleEntries: false, allowEntryAfterExit: false };
const t = (min: number) => new Date(Date.UTC(2026, 11, 7, 10, min));
const stored = (id: number, min: number, type = 'entry', deviceId: number | null = 3): StoredScan => ({
  id,
  type,
  datetime: t(min),
  deviceId,
  gateId: deviceId === null ? null : 7,
});
const scan = (min: number, over: Partial<{ force: boolean; dated: boolean; type: string }> = {}) => ({
  type: 'entry',
  force: true,
  dated: true,
  at: t(min),
  ...over,
});

describe('offlineOutcome', () => {
  it('keeps the earlier-dated stored entry: the later upload loses to it', () => {
    expect(offlineOutcome(policy, scan(20), [stored(1, 10), stored(2, 5)])).toEqual({
      kind: 'loses',
      entry: stored(2, 5),
    });
    // A tie keeps the entry that arrived first.
    expect(offlineOutcome(policy, scan(10), [stored(1, 10)]).kind).toBe('loses');
  });

  it('lets an earlier-dated upload take the entry over from every later stored entry', () => {
    expect(offlineOutcome(policy, scan(1), [stored(2, 5), stored(1, 10)])).toEqual({
      kind: 'wins',
      demote: [stored(2, 5), stored(1, 10)],
    });
  });

  it('does nothing for online, unforced, exit scans, lists allowing multiple entries or re-entry after an exit', () => {
    const entries = [stored(1, 10)];
    expect(offlineOutcome(policy, scan(1, { dated: false }), entries).kind).toBe('none');
    expect(offlineOutcome(policy, scan(1, { force: false }), entries).kind).toBe('none');
    expect(offlineOutcome(policy, scan(1, { type: 'exit' }), entries).kind).toBe('none');
    expect(offlineOutcome({ ...policy, allowMultipleEntries: true }, scan(1), entries).kind).toBe('none');
    const withExit = [stored(1, 10), stored(2, 12, 'exit')];
    expect(offlineOutcome({ ...policy, allowEntryAfterExit: true }, scan(20), withExit).kind).toBe('none');
    expect(offlineOutcome(policy, scan(20), [stored(2, 12, 'exit')]).kind).toBe('none');
  });

  it('names the entry in the conflict object (device number, gate, ISO UTC time, id)', () => {
    expect(conflictOf(stored(9, 5))).toEqual({
      device_id: 3,
      gate: 7,
      datetime: '2026-12-07T10:05:00Z',
      checkin_id: 9,
    });
    expect(conflictOf(stored(9, 5, 'entry', null))).toMatchObject({ device_id: null, gate: null });
  });
});

describe('scanDevice', () => {
  it("attributes a device credential's scans to its number and gate, nothing else to a device", () => {
    const device = new Principal(
      {
        kind: 'device',
        device: {
          id: 40,
          deviceId: 2,
          name: 'Door',
          organizerId: 1,
          securityProfile: 'full',
          gate: { id: 5, name: 'A' },
        },
      },
      [],
    );
    expect(scanDevice(device)).toEqual({ deviceId: 2, gateId: 5 });
    const gateless = new Principal(
      {
        kind: 'device',
        device: { id: 41, deviceId: 3, name: 'Bar', organizerId: 1, securityProfile: 'full', gate: null },
      },
      [],
    );
    expect(scanDevice(gateless)).toEqual({ deviceId: 3, gateId: null });
    expect(scanDevice(new Principal({ kind: 'team_token', tokenId: 1 }, []))).toEqual({
      deviceId: null,
      gateId: null,
    });
    expect(scanDevice(null)).toEqual({ deviceId: null, gateId: null });
  });
});
