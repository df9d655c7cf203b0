import { buildName, presaleRunning, storedNameParts, waitingListVoucher } from './waiting-list.rules';

describe('waiting list rules', () => {
  it('builds the name from name_parts', () => {
    expect(buildName({})).toBeNull();
    expect(buildName({ full_name: 'Peter', _scheme: 'full' })).toBe('Peter');
    expect(buildName({ _legacy: 'Old Name' })).toBe('Old Name');
    expect(buildName({ given_name: 'Ada', family_name: 'Lovelace', _scheme: 'given_family' })).toBe(
      'Ada Lovelace',
    );
  });

  it('adds the default scheme to name parts without one', () => {
    expect(storedNameParts({})).toEqual({});
    expect(storedNameParts({ full_name: 'P' })).toEqual({ full_name: 'P', _scheme: 'full' });
    expect(storedNameParts({ full_name: 'P', _scheme: 'x' })).toEqual({ full_name: 'P', _scheme: 'x' });
  });

  it('makes a one-use blocking voucher valid for the given hours', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const v = waitingListVoucher(
      { itemId: 1, variationId: 2, subeventId: null, email: 'a@example.org', name: 'Ann' },
      48,
      now,
    );
    expect(v).toEqual({
      item: 1,
      variation: 2,
      subevent: null,
      max_usages: 1,
      valid_until: '2030-01-03T00:00:00.000Z',
      tag: 'waiting-list',
      comment: 'Automatically created from waiting list entry for a@example.org / Ann',
      block_quota: true,
    });
  });

  it('presale runs between its start and its end (else the event end, else the start day)', () => {
    const now = new Date('2030-06-01T12:00:00Z');
    const ev = {
      presaleStart: null,
      presaleEnd: null,
      dateFrom: new Date('2030-07-01T10:00:00Z'),
      dateTo: null,
    };
    expect(presaleRunning(ev, now)).toBe(true);
    expect(presaleRunning({ ...ev, presaleStart: new Date('2030-06-02T00:00:00Z') }, now)).toBe(false);
    expect(presaleRunning({ ...ev, presaleEnd: new Date('2030-05-31T00:00:00Z') }, now)).toBe(false);
    expect(presaleRunning({ ...ev, dateFrom: new Date('2030-06-01T08:00:00Z') }, now)).toBe(true);
    expect(presaleRunning({ ...ev, dateFrom: new Date('2030-05-31T08:00:00Z') }, now)).toBe(false);
    expect(presaleRunning({ ...ev, dateTo: new Date('2030-05-31T08:00:00Z') }, now)).toBe(false);
  });
});
