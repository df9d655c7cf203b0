import { DateTime } from 'luxon';
import { RRule, RRuleSet, rrulestr } from 'rrule';

/** pretix's messages for a bad `schedule_rrule` (compat §3.7). */
export const RRULE_MESSAGES = {
  invalid: 'Not a valid rrule.',
  combination: 'Only a single RRULE is allowed, no combination of rules.',
  oncePerDay: 'Only one execution per day is supported.',
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

/**
 * Parses an RFC 5545 recurrence (`DTSTART:...\nRRULE:...` or a bare `RRULE:`/`FREQ=...` line) with `rrule` and
 * checks the limits of compat §3.7: exactly one RRULE (no EXRULE, RDATE, EXDATE), no BYMONTHDAY, BYYEARDAY,
 * BYEASTER or BYWEEKNO, and at most one occurrence a day (FREQ DAILY or coarser, at most one BYHOUR/BYMINUTE/
 * BYSECOND value).
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
  const orig = rule.origOptions as Record<string, unknown>;
  for (const [key, name] of UNSUPPORTED) if (isSet(orig[key])) return { error: `${name} not supported` };
  if (rule.options.freq > RRule.DAILY) return { error: RRULE_MESSAGES.oncePerDay };
  for (const key of ['byhour', 'byminute', 'bysecond', 'bysetpos'])
    if (Array.isArray(orig[key]) && (orig[key] as unknown[]).length > 1)
      return { error: RRULE_MESSAGES.oncePerDay };
  try {
    rule.after(new Date(0), true); // a rule rrule accepts but cannot iterate is no rule
  } catch {
    return { error: RRULE_MESSAGES.invalid };
  }
  return { rule };
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
 * @returns a UTC instant, or null when the rule has no further occurrence
 */
export function nextRun(rule: RRule, time: string, zone: string, now: Date): Date | null {
  const tod = parseTimeOfDay(time);
  if (!tod) return null;
  const localNow = DateTime.fromJSDate(now, { zone });
  // rrule works on "floating" dates expressed as UTC; start from the local day before today.
  let cursor = new Date(Date.UTC(localNow.year, localNow.month - 1, localNow.day - 1));
  for (let i = 0; i < 1000; i++) {
    const occurrence = rule.after(cursor, i === 0);
    if (!occurrence) return null;
    const run = DateTime.fromObject(
      {
        year: occurrence.getUTCFullYear(),
        month: occurrence.getUTCMonth() + 1,
        day: occurrence.getUTCDate(),
        ...tod,
      },
      { zone },
    );
    if (run.toMillis() > now.getTime()) return run.toJSDate();
    cursor = occurrence;
  }
  return null;
}
