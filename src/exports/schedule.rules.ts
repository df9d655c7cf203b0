import { DateTime } from 'luxon';
import { RRule, RRuleSet, rrulestr } from 'rrule';
import { dayFromParts, firstDay, partsOf, ScheduleDays } from './schedule-days';

/** How far ahead a schedule's next run is searched (README "Security"): a rule without a run in it is refused. */
export const SCHEDULE_HORIZON_YEARS = 5;
/** How far back the DTSTART of a COUNT rule may lie (its occurrences are counted from there, day by day). */
export const COUNT_LOOKBACK_YEARS = 10;

/** pretix's messages for a bad `schedule_rrule` (compat §3.7; pretix's `RRuleValidator(enforce_simple=True)`). */
export const RRULE_MESSAGES = {
  invalid: 'Not a valid rrule.',
  combination: 'Only a single RRULE is allowed, no combination of rules.',
  freq: 'Unsupported FREQ value',
  wkst: 'Unsupported WKST value',
  bysetposCount: 'Only one BYSETPOS value allowed',
  bysetposValue: 'BYSETPOS value not allowed, should be 1, 2, 3 or -1',
  bysetposFreq: 'BYSETPOS not allowed for this FREQ',
  /** Ours (README "Security"): a rule must run at least once within {@link SCHEDULE_HORIZON_YEARS} years. */
  noOccurrence: `The rule has no occurrence within the next ${SCHEDULE_HORIZON_YEARS} years.`,
  /** Ours (README "Security"). */
  countTooOld: `A rule with COUNT may not start more than ${COUNT_LOOKBACK_YEARS} years ago.`,
} as const;

/** RRULE parts the schedule does not support (compat §3.7), in the order they are reported. */
const UNSUPPORTED = [
  ['bymonthday', 'BYMONTHDAY'],
  ['byyearday', 'BYYEARDAY'],
  ['byeaster', 'BYEASTER'],
  ['byweekno', 'BYWEEKNO'],
] as const;

/** Whether an RRULE option value is set (rrule gives null, a number or a non-empty list). */
function isSet(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  return !Array.isArray(value) || value.length > 0;
}

/** pretix's checks of the rule's parts, in its order; null when the rule is one it accepts. */
function unsupportedPart(rule: RRule): string | null {
  const orig = rule.origOptions as Record<string, unknown>;
  const o = rule.options;
  if (![RRule.YEARLY, RRule.MONTHLY, RRule.WEEKLY, RRule.DAILY].includes(o.freq)) return RRULE_MESSAGES.freq;
  if (o.wkst !== RRule.MO.weekday) return RRULE_MESSAGES.wkst;
  if (isSet(o.bysetpos)) {
    if (o.bysetpos.length > 1) return RRULE_MESSAGES.bysetposCount;
    if (o.freq !== RRule.YEARLY && o.freq !== RRule.MONTHLY) return RRULE_MESSAGES.bysetposFreq;
    if (![1, 2, 3, -1].includes(o.bysetpos[0])) return RRULE_MESSAGES.bysetposValue;
  }
  for (const [key, name] of UNSUPPORTED) if (isSet(orig[key])) return `${name} not supported`;
  const start = o.dtstart;
  for (const [key, name, value] of [
    ['byhour', 'BYHOUR', start.getUTCHours()],
    ['byminute', 'BYMINUTE', start.getUTCMinutes()],
    ['bysecond', 'BYSECOND', start.getUTCSeconds()],
  ] as const) {
    const list = o[key];
    if (!Array.isArray(list) || list.length !== 1 || list[0] !== value) return `${name} not supported`;
  }
  return null;
}

/**
 * Parses an RFC 5545 recurrence (`DTSTART:...\nRRULE:...` or a bare `RRULE:`/`FREQ=...` line) with `rrule` and
 * checks it as pretix does (compat §3.7, pretix's `RRuleValidator(enforce_simple=True)`): exactly one RRULE (no
 * EXRULE, RDATE, EXDATE); FREQ YEARLY, MONTHLY, WEEKLY or DAILY; weeks starting on Monday; at most one BYSETPOS,
 * only for MONTHLY/YEARLY and only 1, 2, 3 or -1; no BYMONTHDAY, BYYEARDAY, BYEASTER or BYWEEKNO; BYHOUR,
 * BYMINUTE and BYSECOND at most the single value of DTSTART. Only parses (linear in the text, at most 2,000
 * characters): occurrences are computed by {@link nextRun}, bounded.
 * @returns the rule, or the error message for `schedule_rrule`
 */
export function parseSchedule(text: string): { rule: RRule } | { error: string } {
  let set: RRuleSet;
  try {
    set = rrulestr(text, { forceset: true }) as RRuleSet;
  } catch {
    return { error: RRULE_MESSAGES.invalid };
  }
  const rules = set.rrules();
  if (rules.length === 0) return { error: RRULE_MESSAGES.invalid };
  if (rules.length > 1 || set.exrules().length > 0 || set.rdates().length > 0 || set.exdates().length > 0)
    return { error: RRULE_MESSAGES.combination };
  const rule = rules[0];
  const { dtstart, until } = rule.options;
  if (Number.isNaN(dtstart.getTime()) || (until && Number.isNaN(until.getTime())))
    return { error: RRULE_MESSAGES.invalid };
  const unsupported = unsupportedPart(rule);
  return unsupported ? { error: unsupported } : { rule };
}

/**
 * Whether the rule can be evaluated within the bounds at `now` (README "Security"): a COUNT rule must not start
 * more than {@link COUNT_LOOKBACK_YEARS} years before `now`.
 * @returns the error message for `schedule_rrule`, or null
 */
export function boundsError(rule: RRule, now: Date): string | null {
  if (rule.options.count === null || rule.options.count === undefined) return null;
  const earliest = DateTime.fromJSDate(now, { zone: 'UTC' }).minus({ years: COUNT_LOOKBACK_YEARS, days: 1 });
  return rule.options.dtstart.getTime() < earliest.toMillis() ? RRULE_MESSAGES.countTooOld : null;
}

/** `HH:MM[:SS]` to its parts; null when malformed. */
export function parseTimeOfDay(value: string): { hour: number; minute: number; second: number } | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d+)?)?$/.exec(value);
  if (!m) return null;
  return { hour: Number(m[1]), minute: Number(m[2]), second: Number(m[3] ?? 0) };
}

/**
 * The next run of a schedule strictly after `now` (compat §3.7 `schedule_next_run`): the first day the rule
 * yields (its occurrences are read as calendar days; their time of day is ignored) combined with `time`
 * (`HH:MM:SS`) as local time in the IANA zone `zone`, computed with luxon so that it stays at that local time
 * across daylight-saving changes (a time that does not exist on a spring-forward day moves forward by the gap).
 * Bounded (README "Security"): only days up to {@link SCHEDULE_HORIZON_YEARS} years ahead are searched, and at
 * most `MAX_SCHEDULE_DAYS` (5,500) days are examined (a COUNT rule is counted from its DTSTART).
 * @returns a UTC instant, or null when the rule has no further occurrence within the horizon
 */
export function nextRun(rule: RRule, time: string, zone: string, now: Date): Date | null {
  const tod = parseTimeOfDay(time);
  if (!tod) return null;
  const localNow = DateTime.fromJSDate(now, { zone });
  if (!localNow.isValid) return null;
  // rrule works on "floating" dates expressed as UTC; start from the local day before today.
  const from = dayFromParts(localNow.year, localNow.month, localNow.day - 1);
  const to = dayFromParts(localNow.year + SCHEDULE_HORIZON_YEARS, localNow.month, localNow.day);
  let found: Date | null = null;
  firstDay(new ScheduleDays(rule), from, to, (day) => {
    const p = partsOf(day);
    const run = DateTime.fromObject({ year: p.year, month: p.month, day: p.day, ...tod }, { zone });
    if (run.toMillis() <= now.getTime()) return false;
    found = run.toJSDate();
    return true;
  });
  return found;
}
