import type { SelectionCandidates, SelectionDate } from '../../organizers/event-selection.queries';

/** The outcome of pretix's event selection before the check-in list is chosen. */
export type SelectionDecision =
  /** The device's current event (or date) is running: keep it (304). */
  | { kind: 'keep' }
  /** No reachable event or date at all (404). */
  | { kind: 'none' }
  /** Switch to (or confirm) `target`; `currentEvent` is the device's event as pretix keeps it (null if unusable). */
  | { kind: 'suggest'; target: SelectionDate; currentEvent: SelectionDate | null };

/** pretix's `first_date`: admission, else start. */
const firstDate = (d: SelectionDate): Date => d.dateAdmission ?? d.dateFrom;
/** pretix's `last_date`: end, else start. */
const lastDate = (d: SelectionDate): Date => d.dateTo ?? d.dateFrom;

const same = (a: SelectionDate | null, b: SelectionDate | null): boolean =>
  !!a && !!b && a.kind === b.kind && a.id === b.id;

/** The later-starting of two (ties: the second, a date; pretix `_max_first_date_event`). */
function later(a: SelectionDate | null, b: SelectionDate | null): SelectionDate | null {
  if (a && b) return firstDate(a) > firstDate(b) ? a : b;
  return a ?? b;
}

/** The earlier-starting of two (ties: the second, a date; pretix `_min_first_date_event`). */
function earlier(a: SelectionDate | null, b: SelectionDate | null): SelectionDate | null {
  if (a && b) return firstDate(a) < firstDate(b) ? a : b;
  return a ?? b;
}

/** The calendar date (`YYYY-MM-DD`) of an instant in a time zone (UTC for a zone the runtime does not know). */
export function localDate(at: Date, timezone: string): string {
  const format = (zone: string) =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(at);
  try {
    return format(timezone);
  } catch {
    return format('UTC');
  }
}

/**
 * pretix's `EventSelectionView.get` on the candidates of {@link SelectionCandidates}, at `now`:
 * 1. the device's event counts only with its date when it has dates;
 * 2. an event or date that started (admission or start) last and has not ended, other than the device's, wins;
 * 3. the device's event (or date) is kept while it runs (admission or start ≤ now < end);
 * 4. no event at all: none; only an upcoming one or only a started one: that one;
 * 5. else, in the time zone of the device's event (or of the upcoming one): the started one if it started today and
 *    the next one is not today, the next one if it is today and the started one not; otherwise the next one once
 *    now passes the middle between the started one's end and the next one's admission.
 */
export function decideSelection(c: SelectionCandidates, now: Date): SelectionDecision {
  let currentEvent = c.currentEvent;
  const currentSubevent = currentEvent ? c.currentSubevent : null;
  if (currentEvent && currentEvent.hasSubevents && !currentSubevent) currentEvent = null;
  const current = currentEvent ? (currentSubevent ?? currentEvent) : null;

  const lastStarted = later(c.lastStartedEvent, c.lastStartedSubevent);
  if (lastStarted && !same(current, lastStarted) && lastStarted.dateTo && now < lastStarted.dateTo) {
    return { kind: 'suggest', target: lastStarted, currentEvent };
  }
  if (current) {
    if (current.dateTo && firstDate(current) <= now && now < current.dateTo) return { kind: 'keep' };
  }
  const upcoming = earlier(c.upcomingEvent, c.upcomingSubevent);
  if (!upcoming && !lastStarted) return { kind: 'none' };
  if (upcoming && !lastStarted) return { kind: 'suggest', target: upcoming, currentEvent };
  if (lastStarted && !upcoming) return { kind: 'suggest', target: lastStarted, currentEvent };
  const last = lastStarted!;
  const next = upcoming!;
  const tz = currentEvent ? currentEvent.timezone : next.timezone;
  const lastDay = localDate(last.dateFrom, tz);
  const nextDay = localDate(next.dateFrom, tz);
  const today = localDate(now, tz);
  if (lastDay === today && nextDay !== today) return { kind: 'suggest', target: last, currentEvent };
  if (lastDay !== today && nextDay === today) return { kind: 'suggest', target: next, currentEvent };
  const end = lastDate(last).getTime();
  const switchAt = end + (firstDate(next).getTime() - end) / 2;
  return { kind: 'suggest', target: now.getTime() > switchAt ? next : last, currentEvent };
}
