import jsonLogic from 'json-logic-js';
import { DateTime } from 'luxon';
import { CUSTOMTIME_COST, RULE_OP_BUDGET, ruleBoundsProblem } from './rule-cost';

/**
 * Check-in rules of a list (compat §3.20 `rules`, "not a stable API"): a JsonLogic expression over the scanned
 * ticket, evaluated with the `json-logic-js` package and pretix's extra operations. An empty object means "no
 * rules". Pure code, unit-tested in `checkin-logic.spec.ts`.
 *
 * Variables (`{"var": name}`): `product` (item id), `variation` (variation id or null), `gate` (always null: no
 * gates here), `now` (the scan time), `now_isoweekday` (1 = Monday, in the event's time zone), `entries_number`
 * (earlier successful entries on the list), `entries_today` (those on the scan's day, event time zone),
 * `entries_days` (distinct days with an entry), `minutes_since_last_entry` and `minutes_since_first_entry` (-1
 * without an entry), `entry_status` (`present` when the last scan was an entry, else `absent`).
 *
 * Operations beside JsonLogic's own: `inList(a, list)`; `objectList(...values)` (a list); `lookup(model, pk,
 * label)` (the id `pk` as a number); `buildTime(kind, value?)` with kind `custom` (ISO datetime), `customtime`
 * (`HH:MM` on the scan's day, event time zone), `date_from`, `date_to`, `date_admission` (of the ticket's date,
 * the last two falling back to its start); `isAfter(t1, t2, toleranceMinutes?)` (t1 after t2 minus the
 * tolerance), `isBefore(t1, t2, toleranceMinutes?)` (t1 before t2 plus the tolerance); `entries_since(t)`,
 * `entries_before(t)`, `entries_days_since(t)`, `entries_days_before(t)` (entries, or distinct entry days, at or
 * after / before t).
 *
 * Bounds (README "Security", `rule-cost.ts`): rules are refused when written if they are too large or their
 * worst-case cost exceeds {@link RULE_OP_BUDGET} operations; an evaluation is also metered and stops, refusing
 * the scan, once it has spent that budget.
 */

/** One earlier successful scan of the ticket on the list. */
export interface RuleScan {
  type: string;
  datetime: Date;
}

/** What the rules of one scan see. */
export interface RuleContext {
  itemId: number;
  variationId: number | null;
  /** Scan time. */
  at: Date;
  /** IANA zone of the event (days and `customtime` are counted there). */
  timezone: string;
  /** Earlier successful scans on the list, oldest first. */
  scans: readonly RuleScan[];
  /** Start, end and admission time of the ticket's event or date. */
  dateFrom: Date;
  dateTo: Date | null;
  dateAdmission: Date | null;
}

/** The variables rules may read. */
export const RULE_VARIABLES = [
  'product',
  'variation',
  'gate',
  'now',
  'now_isoweekday',
  'entries_number',
  'entries_today',
  'entries_days',
  'minutes_since_last_entry',
  'minutes_since_first_entry',
  'entry_status',
] as const;

const BUILD_TIME_KINDS = ['custom', 'customtime', 'date_from', 'date_to', 'date_admission'];

/** JsonLogic's own operations that rules may use (`log` left out: it writes to the console). */
const STANDARD_OPERATIONS = [
  '==',
  '===',
  '!=',
  '!==',
  '>',
  '>=',
  '<',
  '<=',
  '!!',
  '!',
  '%',
  'in',
  'cat',
  'substr',
  '+',
  '*',
  '-',
  '/',
  'min',
  'max',
  'merge',
  'var',
  'missing',
  'missing_some',
  'if',
  '?:',
  'and',
  'or',
  'filter',
  'map',
  'reduce',
  'all',
  'none',
  'some',
];

/** Per evaluation: the context of the data object JsonLogic passes to operations as `this`. */
const contexts = new WeakMap<object, RuleContext>();

function contextOf(data: unknown): RuleContext {
  const ctx = typeof data === 'object' && data !== null ? contexts.get(data) : undefined;
  if (!ctx) throw new Error('check-in rule evaluated without its context');
  return ctx;
}

const asDate = (value: unknown): Date | null => {
  if (value instanceof Date) return value;
  if (typeof value === 'string') {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return null;
};

/** One formatter per time zone (building one per scan made a ticket with thousands of scans slow to decide). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of `d` in `zone`, `YYYY-MM-DD`. */
function dayOf(d: Date, zone: string): string {
  let format = dayFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(d).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

const entries = (ctx: RuleContext) => ctx.scans.filter((s) => s.type === 'entry');

function entriesWhere(ctx: RuleContext, keep: (d: Date) => boolean, days: boolean): number {
  const matching = entries(ctx).filter((s) => keep(s.datetime));
  return days ? new Set(matching.map((s) => dayOf(s.datetime, ctx.timezone))).size : matching.length;
}

let registered = false;

/** Thrown inside an evaluation that spent its operation budget. */
class RuleBudgetExceeded extends Error {}

/** The budget left to the evaluation under way (evaluations are synchronous: one at a time), or null. */
let meter: { left: number } | null = null;

function charge(ops: number): void {
  if (meter === null) return;
  meter.left -= ops;
  if (meter.left < 0) throw new RuleBudgetExceeded('check-in rules exceeded their operation budget');
}

/** Operations that build a string (charged by its length, like lists). */
const STRING_BUILDERS = new Set(['cat', 'substr']);

/**
 * Meters json-logic-js: its evaluator calls `jsonLogic.apply` for every node, iterations included, so a wrapper
 * counts one operation per node plus the length of every list (and built string) it answers, the units of
 * `rule-cost.ts`.
 */
function meterEvaluator(): void {
  const inner = jsonLogic.apply.bind(jsonLogic);
  jsonLogic.apply = (logic: unknown, data?: unknown): unknown => {
    if (meter === null) return inner(logic as never, data);
    charge(1);
    const result: unknown = inner(logic as never, data);
    if (Array.isArray(result)) charge(result.length);
    else if (typeof result === 'string' && jsonLogic.is_logic(logic)) {
      if (STRING_BUILDERS.has(Object.keys(logic as object)[0])) charge(result.length);
    }
    return result;
  };
}

/** Registers pretix's operations with json-logic-js (once per process; the registry is global). */
function register(): void {
  if (registered) return;
  registered = true;
  meterEvaluator();
  jsonLogic.add_operation('inList', (a: unknown, list: unknown) => Array.isArray(list) && list.includes(a));
  jsonLogic.add_operation('objectList', (...values: unknown[]) => values);
  jsonLogic.add_operation('lookup', (_model: unknown, pk: unknown) => Number(pk));
  jsonLogic.add_operation('buildTime', function (this: unknown, kind: unknown, value: unknown) {
    const ctx = contextOf(this);
    switch (kind) {
      case 'custom':
        return asDate(value);
      case 'customtime': {
        charge(CUSTOMTIME_COST);
        const [h, m] = String(value).split(':').map(Number);
        return DateTime.fromJSDate(ctx.at, { zone: ctx.timezone })
          .set({ hour: h, minute: m, second: 0, millisecond: 0 })
          .toJSDate();
      }
      case 'date_from':
        return ctx.dateFrom;
      case 'date_to':
        return ctx.dateTo ?? ctx.dateFrom;
      case 'date_admission':
        return ctx.dateAdmission ?? ctx.dateFrom;
      default:
        return null;
    }
  });
  const shifted = (t: Date, tolerance: unknown, sign: 1 | -1) =>
    new Date(t.getTime() + sign * (Number(tolerance) || 0) * 60_000);
  jsonLogic.add_operation('isAfter', (a: unknown, b: unknown, tolerance?: unknown) => {
    const [t1, t2] = [asDate(a), asDate(b)];
    return t1 !== null && t2 !== null && t1.getTime() > shifted(t2, tolerance, -1).getTime();
  });
  jsonLogic.add_operation('isBefore', (a: unknown, b: unknown, tolerance?: unknown) => {
    const [t1, t2] = [asDate(a), asDate(b)];
    return t1 !== null && t2 !== null && t1.getTime() < shifted(t2, tolerance, 1).getTime();
  });
  for (const [name, since, days] of [
    ['entries_since', true, false],
    ['entries_before', false, false],
    ['entries_days_since', true, true],
    ['entries_days_before', false, true],
  ] as const) {
    jsonLogic.add_operation(name, function (this: unknown, value: unknown) {
      const ctx = contextOf(this);
      const t = asDate(value);
      if (t === null) return 0;
      charge(ctx.scans.length);
      return entriesWhere(ctx, (d) => (since ? d.getTime() >= t.getTime() : d.getTime() < t.getTime()), days);
    });
  }
}

const CUSTOM_OPERATIONS = [
  'inList',
  'objectList',
  'lookup',
  'buildTime',
  'isAfter',
  'isBefore',
  'entries_since',
  'entries_before',
  'entries_days_since',
  'entries_days_before',
];
const OPERATIONS = new Set([...STANDARD_OPERATIONS, ...CUSTOM_OPERATIONS]);

/**
 * Checks a `rules` value before it is stored: an object (`{}` for none) whose every operation is known, every
 * `var` names a variable above and every `buildTime` a known kind (a `custom` one with a parsable datetime).
 * @returns null when valid, else a message naming the first problem
 */
export function rulesProblem(rules: unknown): string | null {
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) return 'Rules must be an object.';
  if (Object.keys(rules).length === 0) return null;
  return nodeProblem(rules, 0) ?? ruleBoundsProblem(rules);
}

function nodeProblem(node: unknown, depth: number): string | null {
  if (depth > 50) return 'Rules are nested too deeply.';
  if (Array.isArray(node)) {
    for (const child of node) {
      const problem = nodeProblem(child, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof node !== 'object' || node === null) return null;
  const keys = Object.keys(node);
  if (keys.length !== 1) return 'Each rule must be an object with exactly one operation.';
  const op = keys[0];
  if (!OPERATIONS.has(op)) return `Unknown operation "${op}".`;
  const raw = (node as Record<string, unknown>)[op];
  const args: unknown[] = Array.isArray(raw) ? (raw as unknown[]) : [raw];
  if (op === 'var') {
    const name = args[0];
    if (typeof name !== 'string' || !(RULE_VARIABLES as readonly string[]).includes(name)) {
      return `Unknown variable "${String(name)}".`;
    }
    // A default value is evaluated too: it is checked like any other argument.
    return nodeProblem(args.slice(1), depth + 1);
  }
  if (op === 'buildTime') {
    if (typeof args[0] !== 'string' || !BUILD_TIME_KINDS.includes(args[0])) {
      return `Unknown time "${String(args[0])}" in buildTime.`;
    }
    if (args[0] === 'custom' && asDate(args[1]) === null) return 'buildTime "custom" needs an ISO datetime.';
    if (args[0] === 'customtime' && !/^\d{1,2}:\d{2}(:\d{2})?$/.test(String(args[1]))) {
      return 'buildTime "customtime" needs a time HH:MM.';
    }
  }
  return nodeProblem(args, depth + 1);
}

/** The variables of one scan. */
function variables(ctx: RuleContext): Record<string, unknown> {
  const done = entries(ctx);
  const today = dayOf(ctx.at, ctx.timezone);
  const minutesSince = (d: Date | undefined) =>
    d === undefined ? -1 : Math.floor((ctx.at.getTime() - d.getTime()) / 60_000);
  return {
    product: ctx.itemId,
    variation: ctx.variationId,
    gate: null,
    now: ctx.at,
    now_isoweekday: DateTime.fromJSDate(ctx.at, { zone: ctx.timezone }).weekday,
    entries_number: done.length,
    entries_today: done.filter((s) => dayOf(s.datetime, ctx.timezone) === today).length,
    entries_days: new Set(done.map((s) => dayOf(s.datetime, ctx.timezone))).size,
    minutes_since_last_entry: minutesSince(done[done.length - 1]?.datetime),
    minutes_since_first_entry: minutesSince(done[0]?.datetime),
    entry_status: ctx.scans[ctx.scans.length - 1]?.type === 'entry' ? 'present' : 'absent',
  };
}

/**
 * Whether the rules admit the scan (empty rules always do). An expression that fails while evaluating (a type
 * that cannot be compared, say) or spends more than {@link RULE_OP_BUDGET} operations refuses rather than admits.
 */
export function rulesAdmit(rules: Readonly<Record<string, unknown>>, ctx: RuleContext): boolean {
  return evaluateRules(rules, ctx).admit;
}

/**
 * Evaluates the rules under an operation budget. @returns whether they admit the scan, the operations spent
 * (in the units of `rule-cost.ts`) and whether the budget ran out (then they do not admit)
 */
export function evaluateRules(
  rules: Readonly<Record<string, unknown>>,
  ctx: RuleContext,
  budget: number = RULE_OP_BUDGET,
): { admit: boolean; ops: number; exhausted: boolean } {
  if (Object.keys(rules).length === 0) return { admit: true, ops: 0, exhausted: false };
  register();
  const data = variables(ctx);
  contexts.set(data, ctx);
  const own = { left: budget };
  const outer = meter;
  meter = own;
  try {
    const admit = jsonLogic.truthy(jsonLogic.apply(rules, data));
    return { admit, ops: budget - own.left, exhausted: false };
  } catch (e) {
    return { admit: false, ops: budget - own.left, exhausted: e instanceof RuleBudgetExceeded };
  } finally {
    meter = outer;
  }
}
