import { DateTime } from 'luxon';

/** The dates a granted membership is valid (UTC instants). */
export interface Validity {
  start: Date;
  end: Date;
}

/**
 * Validity of a membership granted by a paid order (pretix `membership_validity`): like the event (its start to
 * its end, or to the end of its start day when it has no end), else from the start of today to the end of the
 * last day of the duration (months first, then days), days counted in the event's time zone.
 * @param event the date of the position (sub-event or event): start, optional end, IANA time zone
 * @param now the time of the grant
 */
export function membershipValidity(
  grant: { durationLikeEvent: boolean; durationDays: number; durationMonths: number },
  event: { dateFrom: Date; dateTo: Date | null; timezone: string },
  now: Date,
): Validity {
  if (grant.durationLikeEvent) {
    const end =
      event.dateTo ?? DateTime.fromJSDate(event.dateFrom, { zone: event.timezone }).endOf('day').toJSDate();
    return { start: event.dateFrom, end };
  }
  const start = DateTime.fromJSDate(now, { zone: event.timezone }).startOf('day');
  let end = start;
  if (grant.durationMonths) end = end.minus({ days: 1 }).plus({ months: grant.durationMonths });
  if (grant.durationDays) {
    end = end.plus({ days: grant.durationDays });
    if (!grant.durationMonths) end = end.minus({ days: 1 });
  }
  return { start: start.toJSDate(), end: end.endOf('day').toJSDate() };
}
