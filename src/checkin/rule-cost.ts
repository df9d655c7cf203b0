/**
 * Bounds of check-in rules (README "Security", "Work a request may cause"): a list's JsonLogic `rules` run
 * synchronously in the API process on every entry scan, and iterations (`some`, `all`, `none`, `map`, `filter`,
 * `reduce`) multiply the cost of their body by the length of their list, so a few hundred bytes of nested
 * iterations could block the process for minutes. Rules are therefore bounded when they are written: their size,
 * the length of their lists and strings, the nesting of iterations, and a static worst-case cost in operations
 * that must stay within the budget {@link RULE_OP_BUDGET}. The same budget is enforced while a rule is evaluated
 * (`rulesAdmit` in `checkin-logic.ts`), as a second line of defence; a rule accepted here never reaches it.
 *
 * What pretix's rule editor writes stays far inside these bounds: `and`/`or`/`!` of comparisons (`==`, `!=`, `<`,
 * `<=`, `>`, `>=`) of a variable with a number, `inList` of the product or variation in an `objectList` of
 * `lookup`s, `isAfter`/`isBefore` of `now` and a `buildTime`, and the `entries_*` counts; no iterations at all.
 *
 * The cost unit is one evaluation step of json-logic-js (one node evaluated) plus one per element or character
 * of every list or string an operation builds, plus the length of the inputs of operations whose work grows with
 * them (`in`, `inList`, `merge`, `cat`, comparisons, ...), plus {@link CUSTOMTIME_COST} per `customtime`. At run
 * time the `entries_*` operations are also charged the number of the ticket's scans on the list (not known when
 * the rule is written): only a ticket scanned thousands of times under a rule with many of them could run out.
 * Pure code, unit-tested in `rule-cost.spec.ts`.
 */

/** At most this many JSON values (objects, lists, strings, numbers, ...) in one list's rules. */
export const RULE_MAX_NODES = 10_000;
/** At most this many entries in one list (or argument list) of the rules. */
export const RULE_MAX_LIST = 2_000;
/** At most this many characters in one string of the rules. */
export const RULE_MAX_STRING = 1_000;
/** Iterations (`some`, `all`, `none`, `map`, `filter`, `reduce`) nest at most this deep. */
export const RULE_MAX_ITERATION_NESTING = 2;
/** Worst-case cost of one evaluation of a list's rules, in operations (see the module comment). */
export const RULE_OP_BUDGET = 50_000;

/**
 * Extra cost of a `buildTime` of kind `customtime` (a time of day on the scan's day in the event's time zone,
 * tens of microseconds with the time-zone library, where a plain operation takes tens of nanoseconds).
 */
export const CUSTOMTIME_COST = 250;

/** The iterations of JsonLogic: their second argument runs once per element of their first. */
export const ITERATIONS = new Set(['some', 'all', 'none', 'map', 'filter', 'reduce']);

/** Operations whose work does not grow with their inputs (dates, lookups, counts of the ticket's scans). */
const FLAT_WORK = new Set([
  'var',
  'lookup',
  'buildTime',
  'isAfter',
  'isBefore',
  'entries_since',
  'entries_before',
  'entries_days_since',
  'entries_days_before',
  '!',
  '!!',
  'and',
  'or',
  'if',
  '?:',
]);

/** Operations answering a number, boolean or date: a string of at most this many characters. */
const SCALAR_CHARS = 100;

/**
 * What the analysis knows of a value: `size` bounds the elements of a list (nested ones counted, at least 1) or
 * the characters of a string (1 for other scalars), `chars` the length of its string form (what `cat` or a loose
 * comparison makes of it), `cost` the worst-case operations of computing it.
 */
interface Bound {
  cost: number;
  size: number;
  chars: number;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
/** Sums and products saturate: a rule far past the budget is simply "too costly". */
const CAP = Number.MAX_SAFE_INTEGER / 4;
const cap = (n: number) => Math.min(n, CAP);

/**
 * Checks the bounds above on a structurally valid rule (see `rulesProblem`).
 * @returns null when within them, else a message naming the limit exceeded
 */
export function ruleBoundsProblem(rules: unknown): string | null {
  const nodes = countNodes(rules);
  if (nodes > RULE_MAX_NODES) {
    return `Rules are too large: ${nodes} values, at most ${RULE_MAX_NODES} are allowed.`;
  }
  const shape = shapeProblem(rules, 0);
  if (shape) return shape;
  const cost = worstCaseCost(rules);
  if (cost > RULE_OP_BUDGET) {
    return `Rules are too costly to evaluate: up to ${cost >= CAP ? 'more than ' + CAP : cost} operations per scan, at most ${RULE_OP_BUDGET} are allowed.`;
  }
  return null;
}

/** Number of JSON values in the rule (each object, list, string, number, boolean and null counts 1). */
export function countNodes(node: unknown): number {
  let count = 0;
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const value = stack.pop();
    count += 1;
    if (Array.isArray(value)) stack.push(...(value as unknown[]));
    else if (typeof value === 'object' && value !== null)
      stack.push(...Object.values(value as Record<string, unknown>));
  }
  return count;
}

/** Lengths of lists and strings, nesting of iterations. */
function shapeProblem(node: unknown, iterationDepth: number): string | null {
  if (typeof node === 'string' && node.length > RULE_MAX_STRING) {
    return `A string in the rules has ${node.length} characters, at most ${RULE_MAX_STRING} are allowed.`;
  }
  if (Array.isArray(node)) {
    if (node.length > RULE_MAX_LIST) {
      return `A list in the rules has ${node.length} entries, at most ${RULE_MAX_LIST} are allowed.`;
    }
    for (const child of node) {
      const problem = shapeProblem(child, iterationDepth);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof node !== 'object' || node === null) return null;
  const entry = Object.entries(node as Record<string, unknown>)[0];
  if (entry === undefined) return null;
  const [op, raw] = entry;
  const args: unknown[] = Array.isArray(raw) ? (raw as unknown[]) : [raw];
  if (args.length > RULE_MAX_LIST) {
    return `An operation in the rules has ${args.length} arguments, at most ${RULE_MAX_LIST} are allowed.`;
  }
  if (ITERATIONS.has(op)) {
    const depth = iterationDepth + 1;
    if (depth > RULE_MAX_ITERATION_NESTING) {
      return `Iterations (some, all, none, map, filter, reduce) are nested ${depth} deep in the rules, at most ${RULE_MAX_ITERATION_NESTING} are allowed.`;
    }
    // The list is evaluated outside the iteration, the body and the initial value of `reduce` inside it.
    return shapeProblem(args[0], iterationDepth) ?? shapeProblem(args.slice(1), depth);
  }
  return shapeProblem(args, iterationDepth);
}

/**
 * Worst-case cost of evaluating the rule once, in operations (see the module comment); saturates at a huge
 * number for absurd rules. Expects a structurally valid rule (one operation per object).
 */
export function worstCaseCost(rules: unknown): number {
  return bound(rules).cost;
}

function literalChars(value: unknown): number {
  return typeof value === 'string' ? value.length : String(value).length;
}

function bound(node: unknown): Bound {
  if (Array.isArray(node)) {
    const parts = (node as unknown[]).map(bound);
    const size = cap(Math.max(1, sum(parts.map((p) => p.size))));
    // Evaluating a list builds a new one: one step, one per element.
    return {
      cost: cap(1 + node.length + sum(parts.map((p) => p.cost))),
      size,
      chars: cap(sum(parts.map((p) => p.chars)) + node.length),
    };
  }
  if (typeof node !== 'object' || node === null) {
    const chars = literalChars(node);
    return { cost: 1, size: typeof node === 'string' ? Math.max(1, chars) : 1, chars };
  }
  const [op, raw] = Object.entries(node as Record<string, unknown>)[0] ?? ['', undefined];
  const args: unknown[] = Array.isArray(raw) ? (raw as unknown[]) : [raw];
  if (ITERATIONS.has(op)) return iterationBound(op, args);
  const parts = args.map(bound);
  const inputs = sum(parts.map((p) => p.cost));
  // `missing` looks every key up as a `var` (and `missing_some` runs `missing`): a few steps per key.
  const perInput = FLAT_WORK.has(op) ? 0 : op === 'missing' || op === 'missing_some' ? 4 : 1;
  const work = perInput * sum(parts.map((p) => p.size));
  const result = resultBound(op, parts);
  const extra = op === 'buildTime' && args[0] === 'customtime' ? CUSTOMTIME_COST : 0;
  // One step for the node, its inputs, the work on them and the list or string it builds.
  return { cost: cap(1 + inputs + work + extra + result.size), ...result };
}

/** Size of what an operation (not an iteration) answers. */
function resultBound(op: string, parts: readonly Bound[]): Omit<Bound, 'cost'> {
  const sizes = parts.map((p) => p.size);
  const chars = parts.map((p) => p.chars);
  switch (op) {
    case 'merge':
    case 'objectList':
    case 'missing':
    case 'missing_some':
      return { size: cap(Math.max(1, sum(sizes))), chars: cap(sum(chars) + parts.length) };
    case 'cat': {
      const length = cap(sum(chars));
      return { size: Math.max(1, length), chars: length };
    }
    case 'var':
      // The variable (a scalar), or the default value when it is missing.
      return { size: Math.max(1, parts[1]?.size ?? 1), chars: Math.max(SCALAR_CHARS, parts[1]?.chars ?? 0) };
    case 'substr': {
      const length = parts[0]?.chars ?? 0;
      return { size: Math.max(1, length), chars: length };
    }
    case 'if':
    case '?:':
    case 'and':
    case 'or':
    case 'min':
    case 'max':
      // One of the arguments (`min`/`max`: a number, but of possibly long inputs).
      return { size: Math.max(1, ...sizes), chars: Math.max(SCALAR_CHARS, ...chars) };
    default:
      return { size: 1, chars: SCALAR_CHARS };
  }
}

/** `[list, body, initial?]`: the list once, the body once per element (at most `size` of the list). */
function iterationBound(op: string, args: readonly unknown[]): Bound {
  const list = bound(args[0]);
  const body = bound(args[1]);
  const initial = op === 'reduce' && args.length > 2 ? bound(args[2]) : { cost: 0, size: 1, chars: 0 };
  const runs = cap(list.cost + initial.cost + cap(list.size * body.cost));
  let result: Omit<Bound, 'cost'>;
  if (op === 'map') {
    result = { size: cap(list.size * body.size), chars: cap(list.size * (body.chars + 1)) };
  } else if (op === 'filter') {
    result = { size: list.size, chars: list.chars };
  } else if (op === 'reduce') {
    result = {
      size: Math.max(body.size, initial.size),
      chars: Math.max(body.chars, initial.chars, SCALAR_CHARS),
    };
  } else {
    result = { size: 1, chars: SCALAR_CHARS };
  }
  return { cost: cap(1 + runs + result.size), ...result };
}
