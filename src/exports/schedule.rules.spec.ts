import { nextRun, parseSchedule, RRULE_MESSAGES } from './schedule.rules';

const rule = (text: string) => {
  const parsed = parseSchedule(text);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.rule;
};

describe('schedule rules (compat §3.7)', () => {
  it.each([
    ['garbage', RRULE_MESSAGES.invalid],
    ['RRULE:FREQ=NOPE', RRULE_MESSAGES.invalid],
    ['DTSTART:20230118T000000\nRRULE:FREQ=DAILY\nRRULE:FREQ=WEEKLY', RRULE_MESSAGES.combination],
    ['DTSTART:20230118T000000\nRRULE:FREQ=DAILY\nEXRULE:FREQ=WEEKLY', RRULE_MESSAGES.combination],
    ['DTSTART:20230118T000000\nRRULE:FREQ=DAILY\nRDATE:20230301T000000', RRULE_MESSAGES.combination],
    ['RRULE:FREQ=MONTHLY;BYMONTHDAY=1', 'BYMONTHDAY not supported'],
    ['RRULE:FREQ=YEARLY;BYYEARDAY=100', 'BYYEARDAY not supported'],
    ['RRULE:FREQ=YEARLY;BYEASTER=0', 'BYEASTER not supported'],
    ['RRULE:FREQ=YEARLY;BYWEEKNO=20', 'BYWEEKNO not supported'],
    ['RRULE:FREQ=HOURLY', RRULE_MESSAGES.freq],
    ['RRULE:FREQ=MINUTELY', RRULE_MESSAGES.freq],
    ['DTSTART:20230118T000000\nRRULE:FREQ=DAILY;BYHOUR=1,2', 'BYHOUR not supported'],
    ['DTSTART:20230118T000000\nRRULE:FREQ=DAILY;BYHOUR=5', 'BYHOUR not supported'],
    ['DTSTART:20230118T000000\nRRULE:FREQ=DAILY;BYMINUTE=5', 'BYMINUTE not supported'],
    ['DTSTART:20230118T000000\nRRULE:FREQ=DAILY;BYSECOND=1,2', 'BYSECOND not supported'],
    ['RRULE:FREQ=WEEKLY;WKST=SU', RRULE_MESSAGES.wkst],
    ['RRULE:FREQ=DAILY;BYSETPOS=2', RRULE_MESSAGES.bysetposFreq],
    ['RRULE:FREQ=WEEKLY;BYDAY=MO,TU;BYSETPOS=1', RRULE_MESSAGES.bysetposFreq],
    ['RRULE:FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=1,2', RRULE_MESSAGES.bysetposCount],
    ['RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=4', RRULE_MESSAGES.bysetposValue],
  ])('%j is refused with %j', (text, message) => {
    expect(parseSchedule(text)).toEqual({ error: message });
  });

  it('accepts pretix example rules', () => {
    expect('rule' in parseSchedule('DTSTART:20230118T000000\nRRULE:FREQ=WEEKLY;BYDAY=TU,WE,TH')).toBe(true);
    expect('rule' in parseSchedule('RRULE:FREQ=MONTHLY;BYDAY=1MO')).toBe(true);
    expect('rule' in parseSchedule('RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1')).toBe(true);
    expect('rule' in parseSchedule('DTSTART:20230118T063000\nRRULE:FREQ=DAILY;BYHOUR=6;BYMINUTE=30')).toBe(
      true,
    );
  });

  it('FREQ=DAILY runs once a day at the local time across the spring and autumn DST changes (fake clock)', () => {
    const daily = rule('DTSTART:20260301T000000\nRRULE:FREQ=DAILY');
    const zone = 'Europe/Berlin';
    // Walk a fake clock from each run to the next across the 2026 changes (29 March, 25 October).
    for (const [from, days] of [
      ['2026-03-26T12:00:00Z', 6],
      ['2026-10-22T12:00:00Z', 6],
    ] as const) {
      let now = new Date(from);
      const runs: string[] = [];
      for (let i = 0; i < days; i++) {
        const next = nextRun(daily, '09:30:00', zone, now)!;
        expect(next.getTime()).toBeGreaterThan(now.getTime());
        runs.push(next.toISOString());
        now = new Date(next.getTime() + 1000); // the run happened; the clock moves on
      }
      const local = runs.map((r) => new Date(r).toLocaleString('sv-SE', { timeZone: zone, hour12: false }));
      expect(local.every((l) => l.endsWith('09:30:00'))).toBe(true);
      const dates = local.map((l) => l.slice(0, 10));
      expect(new Set(dates).size).toBe(days); // one run per day, no day skipped or doubled
      const utcHours = runs.map((r) => new Date(r).getUTCHours());
      expect(new Set(utcHours)).toEqual(new Set([7, 8])); // the UTC hour changes with the offset
    }
  });

  it('a time inside the spring-forward gap moves forward; next run is always in the future', () => {
    const daily = rule('DTSTART:20260101T000000\nRRULE:FREQ=DAILY');
    const next = nextRun(daily, '02:30:00', 'Europe/Berlin', new Date('2026-03-28T12:00:00Z'))!;
    expect(next.toISOString()).toBe('2026-03-29T01:30:00.000Z'); // 03:30 CEST
    const same = nextRun(daily, '09:00:00', 'UTC', new Date('2026-05-01T09:00:00Z'))!;
    expect(same.toISOString()).toBe('2026-05-02T09:00:00.000Z');
  });

  it('weekly rules skip days; a finished rule has no next run', () => {
    const weekly = rule('DTSTART:20230118T000000\nRRULE:FREQ=WEEKLY;BYDAY=TU');
    expect(nextRun(weekly, '06:00:00', 'UTC', new Date('2026-11-26T00:00:00Z'))!.toISOString()).toBe(
      '2026-12-01T06:00:00.000Z',
    );
    const done = rule('DTSTART:20230118T000000\nRRULE:FREQ=DAILY;COUNT=2');
    expect(nextRun(done, '06:00:00', 'UTC', new Date('2026-11-26T00:00:00Z'))).toBeNull();
  });
});
