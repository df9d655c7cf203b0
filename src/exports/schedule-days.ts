import { RRule } from 'rrule';

type ParsedOptions = RRule['options'];

/**
 * A bounded evaluator of the schedule rules pretix accepts (compat §3.7; README "Security"). The `rrule` library
 * iterates period by period until year 9999 when a rule yields nothing (`FREQ=DAILY;BYSETPOS=2` took 9.8 s inside
 * the request), so occurrences are computed here instead, day by day, from the options `rrule` parsed (implicit
 * defaults included), with the same semantics as its iterator for the accepted subset: FREQ DAILY/WEEKLY/MONTHLY/
 * YEARLY, INTERVAL, COUNT, UNTIL, BYMONTH, BYDAY (with ordinals for MONTHLY/YEARLY), one BYSETPOS (MONTHLY/YEARLY),
 * the implicit day of DTSTART, weeks starting on Monday. Every walk examines at most {@link MAX_SCHEDULE_DAYS} days.
 */

/**
 * The most days one computation examines (15 years): the 5-year horizon (at most 1,827 days) and, for a COUNT
 * rule, which is counted from its DTSTART, up to 10 years before today (input validation refuses a COUNT rule
 * starting earlier; in the worker such a rule just has no next run). The worst case takes about 1 ms.
 */
export const MAX_SCHEDULE_DAYS = 5_500;

const DAY_MS = 86_400_000;

/**
 * `floor(a / b)` for integers, without `Math` (much faster where `Math` is wrapped, e.g. in jest's sandbox, which
 * runs the e2e tests' app).
 */
const fdiv = (a: number, b: number): number => (a - (((a % b) + b) % b)) / b;

/** A calendar day as the number of days since 1970-01-01. */
export type DayNumber = number;

/** The calendar day of a "floating" date (its UTC fields, as `rrule` uses them). */
export function dayOf(date: Date): DayNumber {
  return Math.floor(date.getTime() / DAY_MS);
}

/** The day `y-m-d` (month 1-12; a day or month past its end rolls over, as `Date.UTC`). */
export function dayFromParts(y: number, m: number, d: number): DayNumber {
  // Howard Hinnant's days_from_civil (integer arithmetic, no Date objects), after normalising the month.
  const y0 = y + fdiv(m - 1, 12);
  const m0 = (((m - 1) % 12) + 12) % 12; // 0 = January
  const yy = m0 < 2 ? y0 - 1 : y0;
  const era = fdiv(yy, 400);
  const yoe = yy - era * 400;
  const mp = (m0 + 10) % 12; // March = 0
  const doy = fdiv(153 * mp + 2, 5);
  const doe = yoe * 365 + fdiv(yoe, 4) - fdiv(yoe, 100) + doy;
  return era * 146097 + doe - 719468 + (d - 1);
}

interface Parts {
  year: number;
  /** 1-12 */
  month: number;
  /** 1-31 */
  day: number;
  /** 0 = Monday … 6 = Sunday (rrule's numbering) */
  weekday: number;
}

/** Year, month, day and weekday of a day (Hinnant's civil_from_days: integer arithmetic only). */
export function partsOf(day: DayNumber): Parts {
  const z = day + 719468;
  const era = fdiv(z, 146097);
  const doe = z - era * 146097;
  const yoe = fdiv(doe - fdiv(doe, 1460) + fdiv(doe, 36524) - fdiv(doe, 146096), 365);
  const doy = doe - (365 * yoe + fdiv(yoe, 4) - fdiv(yoe, 100));
  const mp = fdiv(5 * doy + 2, 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return {
    year: yoe + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day: doy - fdiv(153 * mp + 2, 5) + 1,
    weekday: (((day + 3) % 7) + 7) % 7, // 1970-01-01 was a Thursday
  };
}

const notEmpty = (v: unknown): v is number[] => Array.isArray(v) && v.length > 0;

/** The first and last day of the month (or year) of `p`. */
function monthRange(p: Parts): [DayNumber, DayNumber] {
  return [dayFromParts(p.year, p.month, 1), dayFromParts(p.year, p.month + 1, 1) - 1];
}
function yearRange(p: Parts): [DayNumber, DayNumber] {
  return [dayFromParts(p.year, 1, 1), dayFromParts(p.year + 1, 1, 1) - 1];
}

/**
 * Occurrence test of one parsed rule (rrule's `options`), with the BYSETPOS choice of each month/year cached.
 * The rule's time of day is ignored: occurrences are calendar days.
 */
export class ScheduleDays {
  private readonly o: ParsedOptions;
  readonly start: DayNumber;
  private readonly startKey: number;
  private readonly untilMs: number | null;
  private readonly timeMs: number;
  private readonly interval: number;
  private readonly picks = new Map<number, DayNumber | null>();

  constructor(rule: RRule) {
    this.o = rule.options;
    this.start = dayOf(this.o.dtstart);
    this.timeMs = this.o.dtstart.getTime() - this.start * DAY_MS;
    this.interval = Math.max(1, this.o.interval);
    this.untilMs = this.o.until ? this.o.until.getTime() : null;
    this.startKey = this.periodKey(partsOf(this.start), this.start);
  }

  /** The rule's COUNT (null: unlimited). */
  get count(): number | null {
    return this.o.count ?? null;
  }

  /** Whether the occurrence on `day` would fall after UNTIL. */
  afterUntil(day: DayNumber): boolean {
    return this.untilMs !== null && day * DAY_MS + this.timeMs > this.untilMs;
  }

  /** Whether `day` is an occurrence (ignoring COUNT and UNTIL). */
  isOccurrence(day: DayNumber): boolean {
    if (day < this.start) return false;
    const p = partsOf(day);
    const key = this.periodKey(p, day);
    if ((key - this.startKey) % this.interval !== 0) return false;
    if (!notEmpty(this.o.bysetpos)) return this.passes(p, day);
    if (!this.picks.has(key)) this.picks.set(key, this.pick(p));
    return this.picks.get(key) === day;
  }

  /** Index of the period holding `day`: the day, the Monday-based week, the month or the year. */
  private periodKey(p: Parts, day: DayNumber): number {
    switch (this.o.freq) {
      case RRule.DAILY:
        return day;
      case RRule.WEEKLY:
        return fdiv(day + 3, 7); // 1970-01-01 was a Thursday: day 4 is a Monday
      case RRule.MONTHLY:
        return p.year * 12 + p.month - 1;
      default:
        return p.year;
    }
  }

  /** rrule's day filters: BYMONTH, plain BYDAY, ordinal BYDAY, the implicit day of month. */
  private passes(p: Parts, day: DayNumber): boolean {
    const o = this.o;
    if (notEmpty(o.bymonth) && !o.bymonth.includes(p.month)) return false;
    if (notEmpty(o.byweekday) && !o.byweekday.includes(p.weekday)) return false;
    const nth = o.bynweekday;
    if (Array.isArray(nth) && nth.length > 0 && o.freq <= RRule.MONTHLY) {
      const [first, last] = o.freq === RRule.MONTHLY || notEmpty(o.bymonth) ? monthRange(p) : yearRange(p);
      const hit = nth.some(([wd, n]) => {
        if (wd !== p.weekday) return false;
        return n > 0 ? fdiv(day - first, 7) + 1 === n : fdiv(last - day, 7) + 1 === -n;
      });
      if (!hit) return false;
    }
    if (notEmpty(o.bymonthday) && !o.bymonthday.includes(p.day)) return false;
    return true;
  }

  /** The day BYSETPOS chooses in the month or year of `p` (at most 366 days examined). */
  private pick(p: Parts): DayNumber | null {
    const [first, last] = this.o.freq === RRule.MONTHLY ? monthRange(p) : yearRange(p);
    const days: DayNumber[] = [];
    for (let d = first; d <= last; d++) if (this.passes(partsOf(d), d)) days.push(d);
    const pos = this.o.bysetpos[0];
    const chosen = pos > 0 ? days[pos - 1] : days[days.length + pos];
    return chosen ?? null;
  }
}

/**
 * The first occurrence day `d` with `from <= d <= to` for which `accept(d)` holds, honouring COUNT (counted from
 * DTSTART) and UNTIL; null when there is none or after {@link MAX_SCHEDULE_DAYS} days examined.
 */
export function firstDay(
  days: ScheduleDays,
  from: DayNumber,
  to: DayNumber,
  accept: (day: DayNumber) => boolean,
): DayNumber | null {
  const count = days.count;
  let seen = 0;
  let day = count !== null ? days.start : Math.max(days.start, from);
  for (let steps = 0; day <= to && steps < MAX_SCHEDULE_DAYS; day++, steps++) {
    if (days.afterUntil(day)) return null;
    if (!days.isOccurrence(day)) continue;
    seen++;
    if (day >= from && accept(day)) return day;
    if (count !== null && seen >= count) return null;
  }
  return null;
}
