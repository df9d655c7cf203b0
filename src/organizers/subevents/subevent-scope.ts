import type { I18nString } from '../../common/values/i18n';

/*
 * Types and rules of dates that other contexts use; the SQL that reads them is `SubEventQueries`
 * (`subevent.queries.ts`).
 */

/** What other contexts need of a date they know by id. */
export interface SubEventRef {
  id: number;
  eventId: number;
}

/** What printed documents show of a date (invoice lines): name, start, end, location. */
export interface SubEventLabel {
  id: number;
  name: I18nString;
  dateFrom: Date;
  dateTo: Date | null;
  location: I18nString | null;
}

/** pretix's message for a date of another event (compat §3.2, §3.14). */
export const SUBEVENT_OF_OTHER_EVENT = 'The subevent does not belong to this event.';

/**
 * The `subevent` rule of resources of an event (compat §3.2, §3.14, §3.23): a series needs a date of its own
 * (null allowed only when `optional`), an event without dates takes none.
 * @returns the field message, or null when fine
 */
export function subeventProblem(
  event: { id: number; hasSubevents: boolean },
  subevent: number | null,
  found: ReadonlyMap<number, SubEventRef>,
  messages: { required: string | null; notAllowed: string; unknown: (id: number) => string },
): string | null {
  if (!event.hasSubevents) return subevent === null ? null : messages.notAllowed;
  if (subevent === null) return messages.required;
  const date = found.get(subevent);
  if (!date) return messages.unknown(subevent);
  return date.eventId === event.id ? null : SUBEVENT_OF_OTHER_EVENT;
}

/** Start, end and admission time of a date (check-in rules, compat §3.20). */
export interface SubEventTimes {
  dateFrom: Date;
  dateTo: Date | null;
  dateAdmission: Date | null;
}
