import { DateTime } from 'luxon';

/** The inclusive days of a date frame as ISO dates (`YYYY-MM-DD`); null: open on that side. */
export interface DateFrame {
  from: string | null;
  to: string | null;
}

type Day = DateTime;

const weekStart = (d: Day): Day => d.minus({ days: d.weekday - 1 });
const quarterStart = (d: Day): Day => d.set({ month: Math.floor((d.month - 1) / 3) * 3 + 1, day: 1 });
const monthEnd = (d: Day): Day => d.endOf('month').startOf('day');
const quarterEnd = (start: Day): Day => monthEnd(start.plus({ months: 2 }));

/**
 * pretix's reporting time frames (`pretix/base/timeframes.py` REPORTING_DATE_TIMEFRAMES): identifier -> first and
 * last day (inclusive, either open) relative to the reference day. Weeks start on Monday.
 */
const FRAMES: Record<string, (ref: Day) => [Day | null, Day | null]> = {
  days_today: (r) => [r, r],
  days_yesterday: (r) => [r.minus({ days: 1 }), r.minus({ days: 1 })],
  days_last7: (r) => [r.minus({ days: 6 }), r],
  days_last14: (r) => [r.minus({ days: 13 }), r],
  days_tomorrow: (r) => [r.plus({ days: 1 }), r.plus({ days: 1 })],
  days_next7: (r) => [r.plus({ days: 1 }), r.plus({ days: 7 })],
  days_next14: (r) => [r.plus({ days: 1 }), r.plus({ days: 14 })],
  week_this: (r) => [weekStart(r), weekStart(r).plus({ days: 6 })],
  week_to_date: (r) => [weekStart(r), r],
  week_previous: (r) => [weekStart(r).minus({ days: 7 }), weekStart(r).minus({ days: 1 })],
  week_next: (r) => [weekStart(r).plus({ days: 7 }), weekStart(r).plus({ days: 13 })],
  month_this: (r) => [r.startOf('month'), monthEnd(r)],
  month_to_date: (r) => [r.startOf('month'), r],
  month_previous: (r) => [r.startOf('month').minus({ months: 1 }), r.startOf('month').minus({ days: 1 })],
  month_next: (r) => [
    r.startOf('month').plus({ months: 1 }),
    monthEnd(r.startOf('month').plus({ months: 1 })),
  ],
  quarter_this: (r) => [quarterStart(r), quarterEnd(quarterStart(r))],
  quarter_to_date: (r) => [quarterStart(r), r],
  quarter_previous: (r) => [quarterStart(r).minus({ months: 3 }), quarterStart(r).minus({ days: 1 })],
  quarter_next: (r) => [quarterStart(r).plus({ months: 3 }), quarterEnd(quarterStart(r).plus({ months: 3 }))],
  year_this: (r) => [r.startOf('year'), r.endOf('year').startOf('day')],
  year_to_date: (r) => [r.startOf('year'), r],
  year_previous: (r) => [r.startOf('year').minus({ years: 1 }), r.startOf('year').minus({ days: 1 })],
  year_next: (r) => [
    r.startOf('year').plus({ years: 1 }),
    r.startOf('year').plus({ years: 1 }).endOf('year'),
  ],
  future: (r) => [r.plus({ days: 1 }), null],
  past: (r) => [null, r],
};

/** The identifiers of pretix's relative date frames (`days_last7`, `week_this`, `year_previous`, ...). */
export const DATE_FRAME_IDENTIFIERS: readonly string[] = Object.keys(FRAMES);

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads a date frame as pretix's `SerializerDateFrameField` stores it (compat §3.7; `timeframes.py`): a relative
 * frame identifier ({@link DATE_FRAME_IDENTIFIERS}) resolved on the day `now` falls on in `zone`, or a custom frame
 * `YYYY-MM-DD/YYYY-MM-DD` (either side may be empty: open). A custom frame whose start lies after its end is
 * refused here (pretix's form refuses it too; its serializer does not).
 * @returns the inclusive days, or null for anything else ("Invalid date frame")
 */
export function resolveDateFrame(value: string, zone: string, now: Date = new Date()): DateFrame | null {
  if (value.includes('/')) {
    const parts = value.split('/');
    if (parts.length !== 2) return null;
    const [from, to] = parts.map((p) => p.trim());
    for (const p of [from, to])
      if (p !== '' && (!DATE.test(p) || !DateTime.fromISO(p, { zone: 'UTC' }).isValid)) return null;
    if (from && to && from > to) return null;
    return { from: from || null, to: to || null };
  }
  const frame = Object.prototype.hasOwnProperty.call(FRAMES, value) ? FRAMES[value] : undefined;
  if (!frame) return null;
  const ref = DateTime.fromJSDate(now, { zone }).startOf('day');
  const [from, to] = frame(ref);
  return { from: from ? from.toISODate() : null, to: to ? to.toISODate() : null };
}
