import type { I18nString } from '../../common/values/i18n';
import type { EntityManager } from 'typeorm';

/** What other contexts need of a date they know by id. */
export interface SubEventRef {
  id: number;
  eventId: number;
}

/**
 * Dates by id, of any event (callers tell "another event's" from "unknown"): the read other contexts use to
 * resolve a `subevent` they were sent (the table `subevent` belongs to the tenancy roots). One statement, none
 * for an empty list.
 */
export async function subeventsByIds(
  em: EntityManager,
  ids: readonly (number | null | undefined)[],
): Promise<Map<number, SubEventRef>> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  if (wanted.length === 0) return new Map();
  const rows: { id: number; event_id: number }[] = await em.query(
    'SELECT id, event_id FROM subevent WHERE id = ANY($1)',
    [wanted],
  );
  return new Map(rows.map((r) => [r.id, { id: r.id, eventId: r.event_id }]));
}

/** What printed documents show of a date (invoice lines): name, start, end, location. */
export interface SubEventLabel {
  id: number;
  name: I18nString;
  dateFrom: Date;
  dateTo: Date | null;
  location: I18nString | null;
}

/** Dates by id with their printed data (one statement, none for an empty list). */
export async function subeventLabels(
  em: EntityManager,
  ids: readonly number[],
): Promise<Map<number, SubEventLabel>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows: SubEventLabel[] = await em.query(
    `SELECT id, name, date_from AS "dateFrom", date_to AS "dateTo", location FROM subevent WHERE id = ANY($1)`,
    [wanted],
  );
  return new Map(rows.map((r) => [r.id, r]));
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

/** The times of the date `id` of the event, or null when it is not one; one statement. */
export async function subeventTimes(
  em: EntityManager,
  eventId: number,
  id: number,
): Promise<SubEventTimes | null> {
  const rows: { date_from: Date; date_to: Date | null; date_admission: Date | null }[] = await em.query(
    'SELECT date_from, date_to, date_admission FROM subevent WHERE id = $1 AND event_id = $2',
    [id, eventId],
  );
  const r = rows[0];
  return r ? { dateFrom: r.date_from, dateTo: r.date_to, dateAdmission: r.date_admission } : null;
}

/**
 * SQL expressions over the `subevent` table for statements of other contexts (check-in lists order and filter
 * by their date), so that only this context names its table.
 */
export const subeventQueries = {
  /** Scalar subquery: the start of the date whose id is the SQL expression `subeventId` (null for none). */
  dateFromOf: (subeventId: string): string =>
    `(SELECT se.date_from FROM subevent se WHERE se.id = ${subeventId})`,
  /**
   * SQL condition: the date whose id is the SQL expression `subeventId` ends (its end, or its start without an
   * end) at or after the parameter `param` (`:name`).
   */
  endsAfter: (subeventId: string, param: string): string =>
    `EXISTS (SELECT 1 FROM subevent se WHERE se.id = ${subeventId} AND coalesce(se.date_to, se.date_from) >= ${param})`,
};

/** Start and end of every active date of the event (scheduled e-mail rules, compat §3.26); one statement. */
export async function activeSubeventDates(
  em: EntityManager,
  eventId: number,
): Promise<{ id: number; dateFrom: Date; dateTo: Date | null }[]> {
  const rows: { id: number; date_from: Date; date_to: Date | null }[] = await em.query(
    'SELECT id, date_from, date_to FROM subevent WHERE event_id = $1 AND active ORDER BY id',
    [eventId],
  );
  return rows.map((r) => ({ id: r.id, dateFrom: r.date_from, dateTo: r.date_to }));
}

/** When the event's last active date ends (its end, else its start); null without dates. One statement. */
export async function lastSubeventEnd(em: EntityManager, eventId: number): Promise<Date | null> {
  const rows: { last: Date | null }[] = await em.query(
    'SELECT max(coalesce(date_to, date_from)) AS last FROM subevent WHERE event_id = $1 AND active',
    [eventId],
  );
  return rows[0].last;
}
