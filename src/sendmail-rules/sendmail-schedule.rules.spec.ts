import { fillPlaceholders, localized, ruleSendTime, RuleTiming } from './sendmail-schedule.rules';

const relative = (o: Partial<RuleTiming>): RuleTiming => ({
  dateIsAbsolute: false,
  sendDate: null,
  sendOffsetDays: 2,
  sendOffsetTime: '09:30',
  offsetToEventEnd: false,
  offsetIsAfter: false,
  ...o,
});

describe('scheduled e-mail rule timing (compat §3.26)', () => {
  const start = new Date('2030-03-31T18:00:00Z'); // 20:00 in Berlin (summer time since 2030-03-31 01:00 UTC)
  const end = new Date('2030-04-02T08:00:00Z');

  it('absolute rules send at send_date', () => {
    const at = new Date('2030-01-01T00:00:00Z');
    expect(ruleSendTime({ ...relative({}), dateIsAbsolute: true, sendDate: at }, start, end, 'UTC')).toEqual(
      at,
    );
  });

  it('counts days before the start in the event time zone, across a daylight-saving change', () => {
    // Two days before 2030-03-31 is 2030-03-29, still winter time (UTC+1): 09:30 local is 08:30 UTC.
    expect(ruleSendTime(relative({}), start, end, 'Europe/Berlin')).toEqual(new Date('2030-03-29T08:30:00Z'));
  });

  it('counts days after the end when asked; the start stands in for a missing end', () => {
    const rule = relative({ offsetIsAfter: true, offsetToEventEnd: true, sendOffsetDays: 1 });
    expect(ruleSendTime(rule, start, end, 'Europe/Berlin')).toEqual(new Date('2030-04-03T07:30:00Z'));
    expect(ruleSendTime(rule, start, null, 'UTC')).toEqual(new Date('2030-04-01T09:30:00Z'));
  });

  it('has no send time without its offset fields', () => {
    expect(ruleSendTime(relative({ sendOffsetTime: null }), start, end, 'UTC')).toBeNull();
  });

  it('fills the known placeholders and picks the language', () => {
    const ctx = { code: 'ABC12', event: 'Conf', name: 'Ada', url: 'https://x/y/' };
    expect(fillPlaceholders('{code} {event} {name} {url} {other}', ctx)).toBe(
      'ABC12 Conf Ada https://x/y/ {other}',
    );
    expect(localized({ en: 'Hi', de: 'Hallo' }, 'de')).toBe('Hallo');
    expect(localized({ en: 'Hi', de: 'Hallo' }, 'fr')).toBe('Hi');
    expect(localized({ de: 'Hallo' }, 'fr')).toBe('Hallo');
  });
});
