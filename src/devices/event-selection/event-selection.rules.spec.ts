import type { SelectionCandidates, SelectionDate } from '../../organizers/event-selection.queries';
import { decideSelection, localDate } from './event-selection.rules';

/** Tokyo wall-clock time on a day of January 2020 (pretix's tests use Asia/Tokyo). */
const tokyo = (day: number, hour: number, minute = 0) => new Date(Date.UTC(2020, 0, day, hour - 9, minute));

let nextId = 1;
function event(slug: string, from: Date, to: Date | null, extra: Partial<SelectionDate> = {}): SelectionDate {
  const id = nextId++;
  return {
    kind: 'event',
    id,
    eventId: id,
    eventSlug: slug,
    eventName: { en: 'Event' },
    timezone: 'Asia/Tokyo',
    hasSubevents: false,
    dateFrom: from,
    dateTo: to,
    dateAdmission: null,
    ...extra,
  };
}
function date(parent: SelectionDate, from: Date, to: Date | null): SelectionDate {
  return { ...parent, kind: 'subevent', id: nextId++, hasSubevents: true, dateFrom: from, dateTo: to };
}

/** What EventSelectionQueries.candidates computes, in memory. */
function candidates(
  all: SelectionDate[],
  now: Date,
  current: { slug?: string; subevent?: number } = {},
): SelectionCandidates {
  const first = (d: SelectionDate) => (d.dateAdmission ?? d.dateFrom).getTime();
  const pick = (kind: 'event' | 'subevent', started: boolean) => {
    const pool = all
      .filter((d) => d.kind === kind && (kind === 'subevent' || !d.hasSubevents))
      .filter((d) => (started ? first(d) <= now.getTime() : first(d) > now.getTime()))
      .sort((a, b) => first(a) - first(b) || a.id - b.id);
    return (started ? pool[pool.length - 1] : pool[0]) ?? null;
  };
  const currentEvent = all.find((d) => d.kind === 'event' && d.eventSlug === current.slug) ?? null;
  const currentSubevent =
    all.find((d) => d.kind === 'subevent' && d.eventSlug === current.slug && d.id === current.subevent) ??
    null;
  return {
    currentEvent,
    currentSubevent,
    lastStartedEvent: pick('event', true),
    upcomingEvent: pick('event', false),
    lastStartedSubevent: pick('subevent', true),
    upcomingSubevent: pick('subevent', false),
  };
}

const decide = (all: SelectionDate[], now: Date, current: { slug?: string; subevent?: number } = {}) => {
  const d = decideSelection(candidates(all, now, current), now);
  return d.kind === 'suggest'
    ? `${d.target.eventSlug}${d.target.kind === 'subevent' ? `#${d.target.id}` : ''}`
    : d.kind;
};

describe('device event selection (pretix EventSelectionView)', () => {
  it('finds nothing without events', () => {
    expect(decide([], tokyo(10, 12), { slug: 'e1' })).toBe('none');
  });

  describe('between events (pretix test_choose_between_events)', () => {
    const e1 = event('e1', tokyo(10, 14), tokyo(10, 15));
    const e2 = event('e2', tokyo(10, 16), tokyo(10, 17));
    const tomorrow = event('tomorrow', tokyo(11, 15), tokyo(11, 16));
    const all = [e1, e2, tomorrow];

    it('keeps the current event while it runs', () => {
      expect(decide(all, tokyo(10, 14, 30), { slug: 'e1' })).toBe('keep');
      expect(decide(all, tokyo(10, 16, 30), { slug: 'e1' })).toBe('e2');
      expect(decide(all, tokyo(10, 16, 30), { slug: 'e2' })).toBe('keep');
    });

    it('takes the next one, the last one, or the running one', () => {
      expect(decide(all, tokyo(10, 12, 30))).toBe('e1');
      expect(decide(all, tokyo(10, 17, 30))).toBe('e2');
      expect(decide(all, tokyo(10, 14, 30))).toBe('e1');
      expect(decide(all, tokyo(10, 16, 1), { slug: 'e1' })).toBe('e2');
    });

    it('prefers the event on the same day', () => {
      expect(decide(all, tokyo(10, 23, 59), { slug: 'e1' })).toBe('e2');
      expect(decide(all, tokyo(11, 1, 0), { slug: 'e1' })).toBe('tomorrow');
    });

    it('switches at half-time between two events of the day', () => {
      expect(decide(all, tokyo(10, 15, 29))).toBe('e1');
      expect(decide(all, tokyo(10, 15, 31))).toBe('e2');
    });

    it('moves on when the next event lets people in while the current one runs', () => {
      const early = { ...e2, dateAdmission: tokyo(10, 14, 45) };
      expect(decide([e1, early, tomorrow], tokyo(10, 14, 45), { slug: 'e1' })).toBe('e2');
      expect(decide([e1, early, tomorrow], tokyo(10, 14, 45), { slug: 'e2' })).toBe('keep');
    });

    it('uses the time zone of the events for "today"', () => {
      expect(localDate(tokyo(11, 1), 'Asia/Tokyo')).toBe('2020-01-11');
      expect(localDate(tokyo(11, 1), 'UTC')).toBe('2020-01-10');
      expect(localDate(tokyo(11, 1), 'Not/AZone')).toBe('2020-01-10');
    });
  });

  describe('between dates of a series (pretix test_choose_between_subevents)', () => {
    const series = event('e1', tokyo(10, 14), null, { hasSubevents: true });
    const se1 = date(series, tokyo(10, 14), tokyo(10, 15));
    const se2 = date(series, tokyo(10, 16), tokyo(10, 17));
    const seTomorrow = date(series, tokyo(11, 15), tokyo(11, 16));
    const all = [series, se1, se2, seTomorrow];

    it('keeps the current date while it runs, and drops a series without a date', () => {
      expect(decide(all, tokyo(10, 14, 30), { slug: 'e1', subevent: se1.id })).toBe('keep');
      expect(decide(all, tokyo(10, 16, 30), { slug: 'e1', subevent: se1.id })).toBe(`e1#${se2.id}`);
      expect(decide(all, tokyo(10, 16, 30), { slug: 'e1', subevent: se2.id })).toBe('keep');
      const d = decideSelection(candidates(all, tokyo(10, 14, 30), { slug: 'e1' }), tokyo(10, 14, 30));
      expect(d).toMatchObject({ kind: 'suggest', currentEvent: null });
    });

    it('takes the next, the last, the running date; same day; half-time', () => {
      expect(decide(all, tokyo(10, 12, 30))).toBe(`e1#${se1.id}`);
      expect(decide(all, tokyo(10, 17, 30))).toBe(`e1#${se2.id}`);
      expect(decide(all, tokyo(10, 14, 30))).toBe(`e1#${se1.id}`);
      expect(decide(all, tokyo(10, 23, 59))).toBe(`e1#${se2.id}`);
      expect(decide(all, tokyo(11, 1, 0), { slug: 'e1', subevent: se1.id })).toBe(`e1#${seTomorrow.id}`);
      expect(decide(all, tokyo(10, 15, 29))).toBe(`e1#${se1.id}`);
      expect(decide(all, tokyo(10, 15, 31))).toBe(`e1#${se2.id}`);
    });
  });
});
